import { BOARD_ENTRY_MINUTES } from "@enmusubi/shared";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { hasChromium, loginThroughUi, MEMBER_PASSWORD, settle, useE2E } from "./harness";

const e2e = useE2E();

/** Test data goes through the API (the screens are driven in the browser). */

// Not the seeded 10: the screen shows the configured cost (at most the legal table's 10).
const VIEW_COST = 8;
const POST_COST = 5;
const TITLE = "東京で食事しませんか";
// Above 150 characters, so the card folds it; 「食事」 only in the title, 「都内」「カフェ」 in the content.
const CONTENT = `週末に都内でランチかカフェをご一緒できる方を探しています。${"和食でも洋食でも、落ち着いて話せるお店が好きです。".repeat(5)}<b>タグはそのまま</b>`;

const points = (page: Page) => page.getByLabel("所持ポイント").textContent();

/** The board search's entry: the cost asked first, 続ける pays once and opens the board. */
async function enterBoard(page: Page, label: string): Promise<void> {
  const entry = page.getByRole("region", { name: "掲示板の閲覧" });
  await entry.getByText(`掲示板の閲覧には${VIEW_COST}ptが必要です。続けますか？`).waitFor();
  await entry.getByText(`入室から${BOARD_ENTRY_MINUTES}分間は`, { exact: false }).waitFor();
  await settle(page);
  await e2e.screenshot(page, label);
  await entry.getByRole("button", { name: "続ける" }).click();
  await page.getByTestId("board-window").waitFor();
}

describe.skipIf(!hasChromium)("message board in the browser", () => {
  // Seeding, before the tests: two members and makes viewing and posting paid.
  beforeAll(async () => {
    const admin = await e2e.token(e2e.admin.userID, e2e.admin.password);
    await e2e.createMember(admin, "boardtaro", "掲示 太郎", "male");
    await e2e.createMember(admin, "boardhanako", "掲示 花子", "female");
    await e2e.call(admin, "reference.pointCosts.update", { actionName: "message_board_view", pointCost: VIEW_COST });
    await e2e.call(admin, "reference.pointCosts.update", { actionName: "message_board_post", pointCost: POST_COST });
    const costs = await e2e.call<{ actionName: string; pointCost: number }[]>(
      admin,
      "reference.pointCosts.list",
      undefined,
      "GET",
    );
    expect(costs.find((c) => c.actionName === "message_board_view")?.pointCost).toBe(VIEW_COST);
  });

  it("at 375 px member A pays to enter (cost shown, balance drops) and posts (30 emojis, posting cost confirmed)", async () => {
    const page = await e2e.memberPage("boardtaro", 375);
    expect(await points(page)).toBe("100pt");
    await page.getByRole("button", { name: "メニューを開く" }).click();
    const drawer = await e2e.dialog(page, "メニュー", "member drawer");
    await drawer.getByRole("link", { name: "掲示板投稿" }).waitFor();
    await drawer.getByRole("link", { name: "掲示板検索" }).click();
    await page.getByRole("heading", { name: "掲示板検索" }).waitFor();

    await enterBoard(page, "board-entry");
    await expect.poll(() => points(page)).toBe(`${100 - VIEW_COST}pt`);
    await page.getByText("まだ投稿はありません。").waitFor();
    await e2e.screen(page, "board search (empty)");
    // Back inside the window: no second question, no second charge.
    await e2e.visit(page, "/user/message-board-search", "まだ投稿はありません。", "board search (window open)");
    expect(await page.getByRole("region", { name: "掲示板の閲覧" }).count()).toBe(0);

    await e2e.visit(page, "/user/message-board-posting", "まだ投稿していません", "board my posts (empty)");
    await page.getByRole("button", { name: "新規投稿" }).click();
    const dialog = await e2e.dialog(page, "新規投稿", "board new post");
    await dialog.getByLabel("タイトル").fill(TITLE);
    await dialog.getByLabel("内容").fill(CONTENT);
    await dialog.getByRole("button", { name: "絵文字" }).click();
    const emojis = dialog.getByRole("button", { name: /^絵文字 .* を挿入$/ });
    expect(await emojis.count()).toBe(30);
    await emojis.first().click();
    expect(await dialog.getByLabel("内容").inputValue()).toBe(`${CONTENT}😀`);
    await settle(page);
    await e2e.screenshot(page, "board-new-post");
    await dialog.getByRole("button", { name: "投稿する" }).click();
    const confirm = await e2e.dialog(page, "ポイントの消費", "board post cost");
    await confirm.getByText(`掲示板への投稿には${POST_COST}ptが必要です。続けますか？`).waitFor();
    await confirm.getByRole("button", { name: "続ける" }).click();
    await page.getByText("投稿が完了しました！").waitFor();
    await expect.poll(() => points(page)).toBe(`${100 - VIEW_COST - POST_COST}pt`);

    const card = page.getByRole("article", { name: new RegExp(TITLE) });
    await card.waitFor();
    // Folded above 150 characters; HTML shown as typed.
    await card.getByRole("button", { name: "続きを読む" }).click();
    await card.getByText("<b>タグはそのまま</b>", { exact: false }).waitFor();
    expect(await card.locator("b").count()).toBe(0);
    await settle(page);
    await e2e.screenshot(page, "board-my-posts");

    // The board lists the other gender by default (decision 0040): his own post only with the
    // profile search's switch turned off, said by a chip.
    await e2e.visit(page, "/user/message-board-search", "まだ投稿はありません。", "board search (other gender only)");
    await page.getByRole("button", { name: "検索条件を開く" }).click();
    await settle(page);
    const sameSex = page.getByRole("switch", { name: "同性を除外する" });
    expect(await sameSex.isChecked()).toBe(true);
    await sameSex.click();
    await page.getByRole("button", { name: "検索", exact: true }).click();
    await page.getByTestId("filter-chips").getByText("同性も表示").waitFor();
    await page.getByRole("article", { name: new RegExp(TITLE) }).waitFor();
    await settle(page);
    await e2e.screenshot(page, "board-search-same-sex");
  });

  it("at 1280 px member B enters, finds it by 「食事」, likes it and reads it", async () => {
    const page = await e2e.memberPage("boardhanako", 1280);
    await page.getByRole("navigation", { name: "会員メニュー" }).getByRole("link", { name: "掲示板検索" }).click();
    await page.getByRole("heading", { name: "掲示板検索" }).waitFor();
    await enterBoard(page, "board-entry");
    await expect.poll(() => points(page)).toBe(`${100 - VIEW_COST}pt`);

    // No match first: the board's own message.
    await page.getByRole("textbox", { name: "キーワード" }).fill("該当なしの言葉");
    await page.getByRole("button", { name: "検索", exact: true }).click();
    await page.getByText("条件に一致する投稿は見つかりませんでした。").waitFor();
    await e2e.screen(page, "board search (no results)");

    // A 2-character Japanese keyword, with Enter from the field (keyboard only).
    await page.getByRole("textbox", { name: "キーワード" }).fill("食事");
    await page.getByRole("textbox", { name: "キーワード" }).press("Enter");
    const chips = page.getByTestId("filter-chips");
    await chips.getByText("キーワード: 食事").waitFor();
    const card = page.getByRole("article", { name: new RegExp(TITLE) });
    await card.waitFor();
    await expect.poll(() => page.getByTestId("board-count").textContent()).toBe("1件");
    await card.getByTestId("post-author").getByText("掲示 太郎").waitFor();

    const like = card.getByRole("button", { name: /いいね 0/ });
    expect(await like.getAttribute("aria-pressed")).toBe("false");
    await like.focus();
    await page.keyboard.press("Enter");
    const liked = card.getByRole("button", { name: /いいね 1/ });
    await liked.waitFor();
    expect(await liked.getAttribute("aria-pressed")).toBe("true");
    await card.getByRole("button", { name: /既読にする 0/ }).click();
    const read = card.getByRole("button", { name: /既読 1/ });
    await read.waitFor();
    expect(await read.getAttribute("aria-pressed")).toBe("true");
    await settle(page);
    await e2e.screenshot(page, "board-search");

    // Paging and searching inside the window cost nothing more.
    await page.getByRole("button", { name: "クリア" }).click();
    await expect.poll(() => chips.count()).toBe(0);
    await card.waitFor();
    expect(await points(page)).toBe(`${100 - VIEW_COST}pt`);
  });

  it("member A sees the reader and like counts on their post (1280 px), and the board at 375 px has them too", async () => {
    const page = await e2e.memberPage("boardtaro", 1280);
    await e2e.visit(page, "/user/message-board-posting", TITLE, "board my posts 1280");
    const card = page.getByRole("article", { name: new RegExp(TITLE) });
    await expect.poll(() => card.getByTestId("reader-count").textContent()).toBe("1");
    expect(await card.getByTestId("like-count").textContent()).toBe("1");
    expect(await card.getByTestId("dislike-count").textContent()).toBe("0");
    // Who: B read it and liked it (public profile: the name only).
    await card.getByRole("button", { name: `「${TITLE}」に反応した人を見る` }).click();
    const people = await e2e.dialog(page, `「${TITLE}」に反応した人`, "board post people");
    await people.getByRole("tabpanel").getByText("掲示 花子").waitFor();
    await people.getByRole("tab", { name: /いいね 1/ }).click();
    await people.getByRole("tabpanel").getByText("掲示 花子").waitFor();
    await page.keyboard.press("Escape");
    await people.waitFor({ state: "detached" });
    await settle(page);
    await e2e.screenshot(page, "board-my-posts");

    const narrow = await e2e.memberPage("boardhanako", 375);
    await e2e.visit(narrow, "/user/message-board-search", TITLE, "board search 375");
    // At 375 px the fields fold away behind a toggle. Two words found in the content only, one typed
    // in hiragana: 「都内 かふぇ」 finds 「都内…カフェ」 (every word must match; kana fold, decision 0007).
    expect(await narrow.getByRole("textbox", { name: "キーワード" }).isVisible()).toBe(false);
    await narrow.getByRole("button", { name: "検索条件を開く" }).click();
    // The fields unfold with an animation: type once they are still, and see the text kept before 検索.
    await settle(narrow);
    const keyword = narrow.getByRole("textbox", { name: "キーワード" });
    await keyword.fill("都内 かふぇ");
    await expect.poll(() => keyword.inputValue()).toBe("都内 かふぇ");
    await narrow.getByRole("button", { name: "検索", exact: true }).click();
    await narrow.getByTestId("filter-chips").getByText("キーワード: 都内 かふぇ").waitFor();
    await expect.poll(() => narrow.getByTestId("board-count").textContent()).toBe("1件");
    await narrow
      .getByRole("article", { name: new RegExp(TITLE) })
      .getByRole("button", { name: /いいね 1/ })
      .waitFor();
    await settle(narrow);
    await e2e.screenshot(narrow, "board-search");
  });

  it("the administrator sees the counts in board management, deletes the post and posts as the operator", async () => {
    const narrow = await e2e.page(375);
    await loginThroughUi(narrow, e2e.baseUrl, e2e.admin.userID, e2e.admin.password);
    await e2e.visit(narrow, "/admin/board-posts", TITLE, "admin board management 375");
    await settle(narrow);
    await e2e.screenshot(narrow, "board-management");

    const page = await e2e.page(1280);
    await loginThroughUi(page, e2e.baseUrl, e2e.admin.userID, e2e.admin.password);
    await page.getByRole("navigation", { name: "管理メニュー" }).getByRole("link", { name: "掲示板管理" }).click();
    await page.getByRole("heading", { name: "掲示板管理" }).waitFor();
    const tile = (key: string) => page.getByTestId(`tile-${key}`).getByTestId("tile-value").textContent();
    await expect.poll(() => tile("totalPosts")).toBe("1件");
    expect(await tile("totalViews")).toBe("1回");
    expect(await tile("totalLikes")).toBe("1件");
    expect(await tile("totalDislikes")).toBe("0件");
    const card = page.getByRole("article", { name: new RegExp(TITLE) });
    await card.getByText("ID: boardtaro").waitFor();
    expect(await card.getByTestId("reader-count").textContent()).toBe("1");
    expect(await card.getByTestId("like-count").textContent()).toBe("1");

    // Search by user ID, then clear.
    await page.getByLabel("ユーザーID").fill("boardhanako");
    await page.getByRole("button", { name: "検索", exact: true }).click();
    await page.getByText("ユーザーID「boardhanako」の投稿はありません。").waitFor();
    await page.getByRole("button", { name: "クリア" }).click();
    await card.waitFor();
    await settle(page);
    await e2e.screenshot(page, "board-management");

    await card.getByRole("button", { name: `投稿「${TITLE}」を削除` }).click();
    const confirm = await e2e.dialog(page, "投稿の削除", "board delete confirmation");
    await confirm.getByText("この操作は取り消せません。").waitFor();
    await confirm.getByRole("button", { name: "削除する" }).click();
    await page.getByText("投稿が削除されました").waitFor();
    await page.getByText("まだ投稿はありません。").waitFor();
    await expect.poll(() => tile("totalPosts")).toBe("0件");
    await e2e.screen(page, "board management (empty)");

    // A new post as the operator (title and content only): signed 運営事務局, the writer named here.
    await page.getByRole("button", { name: "新規投稿" }).click();
    const dialog = await e2e.dialog(page, "新規投稿（運営として投稿）", "board operator post");
    expect(await dialog.getByRole("button", { name: "絵文字" }).count()).toBe(0);
    await dialog.getByLabel("タイトル").fill("掲示板のご利用について");
    await dialog.getByLabel("内容").fill("個人情報の書き込みはお控えください。");
    await dialog.getByRole("button", { name: "投稿する" }).click();
    await page.getByText("投稿が完了しました！").waitFor();
    const operatorCard = page.getByRole("article", { name: /掲示板のご利用について/ });
    await operatorCard.getByTestId("post-author").getByText("運営事務局").waitFor();
    await operatorCard.getByText("投稿した管理者: 管理者").waitFor();
    await expect.poll(() => tile("totalPosts")).toBe("1件");

    // Gone for the members too; the operator's post is there, signed 運営事務局 with no login ID.
    const memberPage = await e2e.page(1280);
    await loginThroughUi(memberPage, e2e.baseUrl, "boardhanako", MEMBER_PASSWORD);
    await e2e.visit(memberPage, "/user/message-board-search", "掲示板のご利用について", "board search operator post");
    const seen = memberPage.getByRole("article", { name: /掲示板のご利用について/ });
    await seen.getByTestId("post-author").getByText("運営事務局").waitFor();
    expect(await seen.getByText("管理者", { exact: false }).count()).toBe(0);
    expect(await memberPage.getByRole("article", { name: new RegExp(TITLE) }).count()).toBe(0);
    const member = await e2e.call<{ posts: unknown[] }>(
      await e2e.token("boardhanako"),
      "board.list",
      { keyword: "食事" },
      "GET",
    );
    expect(member.posts).toHaveLength(0);
  });
});
