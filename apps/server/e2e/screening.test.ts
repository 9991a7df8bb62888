import { MSG } from "@enmusubi/shared";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { hasChromium, loginThroughUi, settle, useE2E } from "./harness";
import { noSidewaysScroll } from "./viewport";

/**
 * Screening of what members write (出会い系サイト規制法 art. 12, decision 0042) in the browser: A
 * posts contact details on the board and sends a telephone number (both delivered masked, ＊＊＊),
 * then two messages a rule holds (A sees 確認中, B sees nothing) and a board post it holds (確認中
 * among A's posts). The administrator finds them in 「投稿・メッセージ確認」 (menu and dashboard
 * count them), releases one (B then has it) and rejects another with a reason (A's points come
 * back, A sees お届けできませんでした), then adds a rule on 「NGワード・検知ルール」 that refuses A's
 * next message with its Japanese message. 375 and 1280 px; every screen and dialog checked by axe
 * and the layout guard.
 */
const e2e = useE2E();

const SEND_COST = 10;
const POST_COST = 5;
const VIEW_COST = 8;
const MASK = "＊＊＊";
const POST_TITLE = "ＬＩＮＥ交換しよう";
const POST_CONTENT = "ＬＩＮＥ ID: hanako77 で連絡してね";
const PHONE = "０９０−１２３４−５６７８に電話して";
const HELD_RELEASED = "ホ別2で会えませんか";
const HELD_REJECTED = "パパ活しませんか";
const HELD_POST = "ホ別で会える人募集";
const NEW_WORD = "秘密の合言葉";

const points = (page: Page) => page.getByLabel("所持ポイント").textContent();
const held = (page: Page, text: string) => page.getByTestId("held-card").filter({ hasText: text });

async function adminPage(width: number): Promise<Page> {
  const page = await e2e.page(width);
  await loginThroughUi(page, e2e.baseUrl, e2e.admin.userID, e2e.admin.password);
  return page;
}

/** Sends `body` from the conversation's reply box, confirming the price; waits for `notice`. */
async function send(page: Page, body: string, notice: string) {
  await page.getByLabel("メッセージ", { exact: true }).fill(body);
  await page.getByRole("button", { name: "送信", exact: true }).click();
  const confirm = await e2e.dialog(page, "ポイントの消費", "send cost");
  await confirm.getByText(`メッセージの送信には${SEND_COST}ptが必要です。続けますか？`).waitFor();
  await confirm.getByRole("button", { name: "続ける" }).click();
  await page.getByText(notice).first().waitFor();
}

describe.skipIf(!hasChromium)("screening of members' writing in the browser", () => {
  let a = "";
  let b = "";

  // Seeding, before the tests: two members and the prices.
  beforeAll(async () => {
    const admin = await e2e.token(e2e.admin.userID, e2e.admin.password);
    a = await e2e.createMember(admin, "scrtaro", "審査 太郎", "male");
    b = await e2e.createMember(admin, "scrhanako", "審査 花子", "female");
    for (const [actionName, pointCost] of [
      ["send_message", SEND_COST],
      ["message_board_post", POST_COST],
      ["message_board_view", VIEW_COST],
    ] as const) {
      await e2e.call(admin, "reference.pointCosts.update", { actionName, pointCost });
    }
  });

  it("at 375 px A posts contact details (published masked) and a post a rule holds (確認中 among A's posts)", async () => {
    const page = await e2e.memberPage("scrtaro", 375);
    await e2e.visit(page, "/user/message-board-posting", "まだ投稿していません", "board my posts (empty)");
    for (const [title, content, notice] of [
      [POST_TITLE, POST_CONTENT, MSG.postCreated],
      [HELD_POST, "週末に会える人", MSG.postHeldForReview],
    ] as const) {
      await page.getByRole("button", { name: "新規投稿" }).click();
      const dialog = await e2e.dialog(page, "新規投稿", "board new post");
      await dialog.getByLabel("タイトル").fill(title);
      await dialog.getByLabel("内容").fill(content);
      await dialog.getByRole("button", { name: "投稿する" }).click();
      const confirm = await e2e.dialog(page, "ポイントの消費", "board post cost");
      await confirm.getByRole("button", { name: "続ける" }).click();
      await page.getByText(notice).waitFor();
      await dialog.waitFor({ state: "detached" });
    }
    const posts = page.getByTestId("board-post");
    await expect.poll(() => posts.count()).toBe(2);
    // The held post first, marked 確認中, with nothing to press; the published one masked.
    const heldPost = posts.filter({ hasText: HELD_POST });
    await heldPost.getByTestId("held-post").getByText("確認中").waitFor();
    expect(await heldPost.getByRole("button").count()).toBe(0);
    const published = posts.filter({ hasText: "交換しよう" });
    expect(await published.textContent()).toContain(`${MASK}交換しよう`);
    expect(await published.textContent()).not.toContain("hanako77");
    await settle(page);
    await e2e.screenshot(page, "screening-my-posts");
    await expect.poll(() => points(page)).toBe(`${100 - 2 * POST_COST}pt`);
  });

  it("at 375 px A sends a telephone number (delivered masked) and two messages a rule holds (確認中)", async () => {
    const page = await e2e.memberPage("scrtaro", 375);
    await page.goto(`${e2e.baseUrl}/user/messages/${b}`);
    await page.getByRole("heading", { name: "審査 花子さんとのメッセージ" }).waitFor();
    await e2e.screen(page, "conversation (empty)");
    await send(page, PHONE, MSG.messageSent);
    await page
      .getByTestId("bubble-body")
      .filter({ hasText: `${MASK}に電話して` })
      .waitFor();
    await send(page, HELD_RELEASED, MSG.messageHeldForReview);
    await send(page, HELD_REJECTED, MSG.messageHeldForReview);
    const bubbles = page.getByTestId("held-bubble");
    await expect.poll(() => bubbles.count()).toBe(2);
    for (const text of [HELD_RELEASED, HELD_REJECTED]) {
      await bubbles.filter({ hasText: text }).getByTestId("held-badge").getByText("確認中").waitFor();
    }
    await settle(page);
    await e2e.screenshot(page, "screening-conversation-held");
    // Held messages are charged like any send (refunded if rejected).
    await expect.poll(() => points(page)).toBe(`${100 - 2 * POST_COST - 3 * SEND_COST}pt`);
  });

  it("at 1280 px B reads the telephone message masked, sees neither held message, and the board post masked", async () => {
    const page = await e2e.memberPage("scrhanako");
    await page.goto(`${e2e.baseUrl}/user/messages/${a}`);
    await page.getByRole("heading", { name: "審査 太郎さんとのメッセージ" }).waitFor();
    await page.getByRole("button", { name: "審査 太郎さんからの未読メッセージを開いて読む" }).click();
    const confirm = await e2e.dialog(page, "ポイントの消費", "open cost");
    await confirm.getByRole("button", { name: "続ける" }).click();
    await page
      .getByTestId("bubble-body")
      .filter({ hasText: `${MASK}に電話して` })
      .waitFor();
    expect(await page.getByTestId("bubble").count()).toBe(1);
    expect(await page.getByTestId("held-bubble").count()).toBe(0);
    const thread = (await page.getByTestId("thread").textContent()) ?? "";
    for (const hidden of ["5678", "ホ別", "パパ活"]) expect(thread).not.toContain(hidden);
    await settle(page);
    await e2e.screenshot(page, "screening-recipient-masked");

    await page.getByRole("navigation", { name: "会員メニュー" }).getByRole("link", { name: "掲示板検索" }).click();
    const entry = page.getByRole("region", { name: "掲示板の閲覧" });
    await entry.getByRole("button", { name: "続ける" }).click();
    await page.getByTestId("board-window").waitFor();
    const post = page.getByRole("article", { name: /交換しよう/ });
    await post.waitFor();
    const text = (await post.textContent()) ?? "";
    expect(text).toContain(`${MASK}交換しよう`);
    expect(text).toContain(MASK);
    expect(text).not.toContain("hanako77");
    expect(await page.getByRole("article", { name: new RegExp(HELD_POST) }).count()).toBe(0);
    await settle(page);
    await e2e.screenshot(page, "screening-board-masked");
  });

  it("at 375 px the administrator's queue shows the held items as cards, the rules as cards, nothing scrolls sideways", async () => {
    const page = await adminPage(375);
    await e2e.visit(page, "/admin/screening", "検知ルールにより保留された", "screening queue");
    await held(page, HELD_RELEASED).waitFor();
    await expect.poll(() => page.getByTestId("held-card").count()).toBe(3);
    const card = held(page, HELD_RELEASED);
    await card.getByText("審査 太郎（scrtaro）").waitFor();
    await card.getByText("審査 花子（scrhanako）").waitFor();
    await card.getByTestId("held-match").filter({ hasText: "勧誘・援助" }).waitFor();
    await card.getByText(`消費ポイント ${SEND_COST}pt`).waitFor();
    await noSidewaysScroll(page);
    await settle(page);
    await e2e.screenshot(page, "screening-queue");

    await e2e.visit(page, "/admin/screening-rules", "このルールで確認します", "screening rules");
    await page.getByTestId("rule-row").first().waitFor();
    expect(await page.locator("table").count()).toBe(0);
    await noSidewaysScroll(page);
    await settle(page);
    await e2e.screenshot(page, "screening-rules");
  });

  it("at 1280 px the administrator releases one held message and rejects another with a reason (points refunded)", async () => {
    const page = await adminPage(1280);
    await e2e.visit(page, "/admin/dashboard", "ダッシュボード", "dashboard");
    await expect.poll(() => page.getByTestId("waiting-held").textContent()).toBe("確認待ちの投稿・メッセージ 3件");
    const nav = page.getByRole("navigation", { name: "管理メニュー" });
    expect(await nav.getByTestId("menu-count-screening").textContent()).toBe("3件の対応待ち");
    await page.getByTestId("waiting-held").click();
    await page.getByRole("heading", { name: "投稿・メッセージ確認" }).waitFor();
    await held(page, HELD_RELEASED).waitFor();
    await e2e.screen(page, "screening queue");

    // Posts only, then everything again.
    await page.getByText("投稿", { exact: true }).click();
    await expect.poll(() => page.getByTestId("held-card").count()).toBe(1);
    await held(page, HELD_POST).waitFor();
    await page.getByText("すべて", { exact: true }).click();
    await expect.poll(() => page.getByTestId("held-card").count()).toBe(3);
    await settle(page);
    await e2e.screenshot(page, "screening-queue");

    await held(page, HELD_RELEASED)
      .getByRole("button", { name: /を公開する$/ })
      .click();
    const confirm = await e2e.dialog(page, "公開の確認", "screening release confirm");
    await confirm.getByRole("button", { name: "公開する" }).click();
    await page.getByText(MSG.screeningReleased).waitFor();
    await expect.poll(() => held(page, HELD_RELEASED).count()).toBe(0);

    const token = await e2e.token("scrtaro");
    const before = await e2e.call<{ points: number }>(token, "profile.me", undefined, "GET");
    await held(page, HELD_REJECTED)
      .getByRole("button", { name: /を却下する$/ })
      .click();
    const dialog = await e2e.dialog(page, "メッセージの却下", "screening reject");
    await dialog.getByText(`消費された${SEND_COST}ptは会員に返還されます。`, { exact: false }).waitFor();
    await dialog.getByRole("button", { name: "却下する" }).click();
    await dialog.getByText(MSG.screeningReasonRequired).waitFor();
    await dialog.getByLabel(/却下の理由/).fill("金銭を伴う交際の勧誘");
    await settle(page);
    await e2e.screenshot(page, "screening-reject");
    await dialog.getByRole("button", { name: "却下する" }).click();
    await page.getByText(MSG.screeningRejected).waitFor();
    await dialog.waitFor({ state: "detached" });
    await expect.poll(() => page.getByTestId("held-card").count()).toBe(1);
    await expect.poll(() => nav.getByTestId("menu-count-screening").textContent()).toBe("1件の対応待ち");
    const after = await e2e.call<{ points: number }>(token, "profile.me", undefined, "GET");
    expect(after.points).toBe(before.points + SEND_COST);

    // 対応済み: both decisions, the reason kept for administrators.
    await page.getByText("対応済み", { exact: true }).click();
    await held(page, HELD_REJECTED).getByText("却下の理由: 金銭を伴う交際の勧誘", { exact: false }).waitFor();
    await held(page, HELD_RELEASED).getByText("公開済み").waitFor();
    await settle(page);
    await e2e.screenshot(page, "screening-decided");
  });

  it("at 1280 px B now has the released message; at 375 px A sees it delivered and the rejected one not delivered", async () => {
    const pageB = await e2e.memberPage("scrhanako");
    await pageB.goto(`${e2e.baseUrl}/user/messages/${a}`);
    await pageB.getByRole("heading", { name: "審査 太郎さんとのメッセージ" }).waitFor();
    await expect.poll(() => pageB.getByTestId("bubble").count()).toBe(2);
    expect(await pageB.getByTestId("thread").textContent()).not.toContain("パパ活");
    await e2e.screen(pageB, "conversation after release");

    const pageA = await e2e.memberPage("scrtaro", 375);
    await pageA.goto(`${e2e.baseUrl}/user/messages/${b}`);
    await pageA.getByRole("heading", { name: "審査 花子さんとのメッセージ" }).waitFor();
    await pageA.getByTestId("bubble-body").filter({ hasText: HELD_RELEASED }).waitFor();
    const rejected = pageA.getByTestId("held-bubble");
    await expect.poll(() => rejected.count()).toBe(1);
    expect(await rejected.getAttribute("data-status")).toBe("rejected");
    expect(await rejected.getByTestId("held-badge").textContent()).toBe("お届けできませんでした");
    await rejected.getByText("ポイントは返還済みです", { exact: false }).waitFor();
    expect(await rejected.textContent()).not.toContain("勧誘");
    await expect.poll(() => points(pageA)).toBe(`${100 - 2 * POST_COST - 2 * SEND_COST}pt`);
    await settle(pageA);
    await e2e.screenshot(pageA, "screening-conversation-decided");
  });

  it("at 1280 px the administrator adds a rule (an invalid pattern refused in Japanese); A's next message is refused, the text kept", async () => {
    const page = await adminPage(1280);
    await e2e.visit(page, "/admin/screening-rules", "このルールで確認します", "screening rules");
    await page.getByRole("table", { name: "検知ルール一覧" }).waitFor();
    await page.getByRole("button", { name: "ルールを追加" }).click();
    const dialog = await e2e.dialog(page, "ルールの追加", "screening rule add");
    await dialog.getByRole("radio", { name: "パターン（正規表現）" }).check();
    await dialog.getByRole("textbox", { name: /パターン（正規表現）/ }).fill("([0-9]");
    await dialog.getByRole("button", { name: "追加する" }).click();
    await dialog.getByText(MSG.screeningPatternInvalid).waitFor();
    await e2e.screen(page, "dialog screening rule refused");

    await dialog.getByRole("radio", { name: "言葉" }).check();
    await dialog.getByRole("textbox", { name: /言葉/ }).fill(NEW_WORD);
    await dialog.getByRole("combobox", { name: "分類" }).click();
    await page.getByRole("option", { name: "その他" }).click();
    await dialog.getByRole("combobox", { name: "対応" }).click();
    await page.getByRole("option", { name: "拒否" }).click();
    await dialog.getByLabel(/メモ/).fill("E2Eで追加");
    await settle(page);
    await e2e.screenshot(page, "screening-rule-form");
    await dialog.getByRole("button", { name: "追加する" }).click();
    await page.getByText(MSG.screeningRuleSaved).waitFor();
    await dialog.waitFor({ state: "detached" });

    await page.getByRole("textbox", { name: "キーワード" }).fill("合言葉");
    await page.getByRole("button", { name: "検索", exact: true }).click();
    const row = page.locator(`[data-testid="rule-row"][data-rule="${NEW_WORD}"]`);
    await row.waitFor();
    await row.getByText("拒否").waitFor();
    await settle(page);
    await e2e.screenshot(page, "screening-rules-added");

    const member = await e2e.memberPage("scrtaro", 375);
    await member.goto(`${e2e.baseUrl}/user/messages/${b}`);
    await member.getByRole("heading", { name: "審査 花子さんとのメッセージ" }).waitFor();
    const before = await points(member);
    await send(member, `${NEW_WORD}は？`, MSG.screeningRefusedOther);
    expect(await member.getByLabel("メッセージ", { exact: true }).inputValue()).toBe(`${NEW_WORD}は？`);
    expect(await points(member)).toBe(before);
    await e2e.screen(member, "conversation refused");
  });
});
