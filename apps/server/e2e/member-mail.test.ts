import { MSG } from "@enmusubi/shared";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { hasChromium, settle, useE2E } from "./harness";

const e2e = useE2E();

/** Test data goes through the API (the screens are driven in the browser). */

/** Over 100 characters: previewed at 4.5 lines with a fade (spec §9). */
const LONG = `長い自己紹介です。${"週末は散歩をしたりカフェで本を読んだりして過ごしています。".repeat(8)}最後まで読んでくれてありがとう。`;

const points = (page: Page) => page.getByLabel("所持ポイント").textContent();
/** A link of the member menu (the side menu, or the drawer at 768 px or less). */
const menuLink = (page: Page, name: RegExp) =>
  page.getByRole("navigation", { name: "会員メニュー" }).getByRole("link", { name });

describe.skipIf(!hasChromium)("member mail in the browser", () => {
  let a = "";
  let b = "";
  let cost = 0;
  let openCost = 0;

  // Seeding, before the tests: two members who have written before.
  beforeAll(async () => {
    const admin = await e2e.token(e2e.admin.userID, e2e.admin.password);
    a = await e2e.createMember(admin, "mailtaro", "メール 太郎");
    b = await e2e.createMember(admin, "mailhanako", "メール 花子");
    // B wrote to A once (sent as B by an administrator, free), so each is in the other's contacts.
    await e2e.call(admin, "adminMessages.sendAsUser", { fromUserId: b, toUserId: a, body: "はじめまして。花子です。" });
    await e2e.call(admin, "adminMessages.sendAsUser", { fromUserId: b, toUserId: a, body: LONG });
    const costs = await e2e.call<{ actionName: string; pointCost: number }[]>(
      admin,
      "reference.pointCosts.list",
      undefined,
      "GET",
    );
    cost = costs.find((c) => c.actionName === "send_message")?.pointCost ?? 0;
    expect(cost).toBeGreaterThan(0);
    openCost = costs.find((c) => c.actionName === "unread_mail_view")?.pointCost ?? 0;
    expect(openCost).toBeGreaterThan(0);
  });

  it("A writes to B (cost confirmed, balance drops); B's unread count rises live; B replies", async () => {
    const pageB = await e2e.memberPage("mailhanako");
    await menuLink(pageB, /^未読/).waitFor();
    // Nothing unread yet: no count in the header.
    expect(await pageB.getByTestId("header-unread-count").count()).toBe(0);

    const pageA = await e2e.memberPage("mailtaro");
    const before = await points(pageA);
    expect(before).toBe("100pt");
    // A's unread list holds B's first message.
    await menuLink(pageA, /^未読/).click();
    await pageA.getByRole("heading", { name: "未読メッセージ" }).waitFor();
    await pageA.getByText("はじめまして…").waitFor();
    await e2e.screen(pageA, "member unread");

    // A's sent screen: bulk send to B.
    await menuLink(pageA, /^送信/).click();
    await pageA.getByRole("heading", { name: "送信メッセージ" }).waitFor();
    await pageA.getByText("送信済みのメッセージはありません").waitFor();
    await e2e.screen(pageA, "member sent (empty)");
    await pageA.getByRole("button", { name: "一括送信" }).click();
    const dialog = await e2e.dialog(pageA, "一括送信", "member bulk send");
    // Blank text and no recipient: sending is disabled.
    expect(await dialog.getByRole("button", { name: "送信", exact: true }).isDisabled()).toBe(true);
    await dialog.getByRole("button", { name: "すべて選択" }).click();
    await dialog.getByText("1人選択中").waitFor();
    await dialog.getByRole("button", { name: "すべて解除" }).click();
    await dialog.getByText("0人選択中").waitFor();
    await dialog.getByLabel("メール 花子").check();
    const textarea = dialog.getByLabel("メッセージ");
    await textarea.fill("こんにちは花子さん");
    // The emoji goes where the caret is (after 「こんにちは」).
    await textarea.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(5, 5));
    await dialog.getByRole("button", { name: "絵文字" }).click();
    expect(await dialog.getByRole("button", { name: /^絵文字 .* を挿入$/ }).count()).toBe(60);
    await dialog.getByRole("button", { name: "絵文字 😊 を挿入" }).click();
    await expect.poll(() => textarea.inputValue()).toBe("こんにちは😊花子さん");
    await dialog.getByText(`1人に送信（${cost}ptが必要です）`).waitFor();
    await settle(pageA);
    await e2e.screenshot(pageA, "member-bulk-send");
    await dialog.getByRole("button", { name: "送信", exact: true }).click();

    // The paid-action confirmation shows the cost.
    const confirm = await e2e.dialog(pageA, "ポイントの消費", "member send cost");
    await confirm.getByText(`メッセージの送信には${cost}ptが必要です。続けますか？`).waitFor();
    await confirm.getByRole("button", { name: "続ける" }).click();
    await pageA.getByText("1人のユーザーにメッセージを送信しました").waitFor();
    await expect.poll(() => points(pageA)).toBe(`${100 - cost}pt`);
    const sentCard = pageA.getByTestId("message-card").filter({ hasText: "こんにちは😊花子さん" });
    await sentCard.waitFor();
    expect(await sentCard.getByTestId("read-marker").textContent()).toBe("未読");

    // B: the count rises without a reload (SSE).
    await expect
      .poll(() => pageB.getByTestId("header-unread-count").textContent(), { timeout: 10_000 })
      .toBe("未読 1件");
    expect(await pageB.getByTestId("menu-unread-count").textContent()).toBe("1件");
    await pageB.getByTestId("header-unread-count").click();
    await pageB.getByRole("heading", { name: "未読メッセージ" }).waitFor();
    const card = pageB.getByTestId("message-card").filter({ hasText: "こんにちは" });
    await card.waitFor();
    expect(await card.getAttribute("data-unread")).toBe("true");
    await expect.poll(() => pageB.getByTestId("mail-count").textContent()).toBe("1件");
    await card.waitFor({ state: "attached" }).catch(() => {});
    await settle(pageB);
    await e2e.screenshot(pageB, "member-unread");

    // Opening A's unopened message is paid (未読メッセージ閲覧, decision 0027): the price is confirmed,
    // the detail shows the body, the balance drops once.
    await card.getByTestId("message-preview").click();
    const confirmOpen = await e2e.dialog(pageB, "ポイントの消費", "member open cost");
    await confirmOpen.getByText(`未読メッセージの閲覧には${openCost}ptが必要です。続けますか？`).waitFor();
    await confirmOpen.getByRole("button", { name: "続ける" }).click();
    const detail = await e2e.dialog(pageB, "メッセージの詳細", "member message detail");
    await detail.getByTestId("message-detail-body").getByText("こんにちは😊花子さん").waitFor();
    await expect.poll(() => points(pageB)).toBe(`${100 - openCost}pt`);

    // B replies from the detail (opened, it is read and leaves the unread list; a reply to a member: the cost is confirmed too).
    await detail.getByRole("button", { name: "返信" }).click();
    const reply = await e2e.dialog(pageB, "メール 太郎さんへ返信", "member reply");
    await reply.getByText(`送信には${cost}ptが必要です`).waitFor();
    expect(await reply.getByRole("button", { name: "返信", exact: true }).isDisabled()).toBe(true);
    await reply.getByLabel("メッセージ").fill("お返事です。よろしくお願いします。");
    await reply.getByRole("button", { name: "返信", exact: true }).click();
    const confirmB = await e2e.dialog(pageB, "ポイントの消費");
    await confirmB.getByRole("button", { name: "続ける" }).click();
    await pageB.getByText(MSG.messageSent).first().waitFor();
    await expect.poll(() => points(pageB)).toBe(`${100 - openCost - cost}pt`);
    // Replied and read: gone from unread (no longer unread, not from an administrator); count gone.
    await card.waitFor({ state: "detached" });
    await expect.poll(() => pageB.getByTestId("header-unread-count").count()).toBe(0);

    // B's received screen shows it, replied (no reply button).
    await menuLink(pageB, /^受信/).click();
    await pageB.getByRole("heading", { name: "受信メッセージ" }).waitFor();
    const received = pageB.getByTestId("message-card").filter({ hasText: "こんにちは😊花子さん" });
    await received.getByText("返信済み").waitFor();
    expect(await received.getByRole("button", { name: "返信" }).count()).toBe(0);
    await settle(pageB);
    await e2e.screenshot(pageB, "member-received");

    // A sees B's reply arrive without a reload, and the message marked read.
    await expect
      .poll(() => pageA.getByTestId("header-unread-count").textContent(), { timeout: 10_000 })
      .toBe("未読 3件");
    await expect.poll(() => sentCard.getByTestId("read-marker").textContent()).toBe("既読");
    await settle(pageA);
    await e2e.screenshot(pageA, "member-sent");
  });

  it("at 375 px: the unread screen, the drawer with the count, a reply's draft kept, a scheduled reply listed and cancelled", async () => {
    const page = await e2e.memberPage("mailtaro", 375);
    await page.getByRole("button", { name: "メニューを開く" }).click();
    const drawer = await e2e.dialog(page, "メニュー", "member drawer");
    await expect.poll(() => drawer.getByTestId("menu-unread-count").textContent()).toBe("3件");
    await settle(page);
    await e2e.screenshot(page, "member-drawer");
    await drawer.getByRole("link", { name: /^未読/ }).click();
    await page.getByRole("heading", { name: "未読メッセージ" }).waitFor();
    const card = page.getByTestId("message-card").filter({ hasText: "お返事です" });
    await card.waitFor();
    // The long message, not opened yet, shows its preview line only (decision 0027); opening it
    // asks the price, the detail shows it whole, and the balance drops once.
    const long = page
      .getByTestId("message-card")
      .filter({ hasText: "長い自己紹介です" })
      .getByTestId("message-preview");
    expect(await long.textContent()).toBe(`${Array.from(LONG).slice(0, 20).join("")}…`);
    expect(await page.getByText("最後まで読んでくれてありがとう。", { exact: false }).count()).toBe(0);
    await settle(page);
    await e2e.screenshot(page, "member-unread");
    const before = Number.parseInt((await points(page)) ?? "", 10);
    await long.click();
    const confirmOpen = await e2e.dialog(page, "ポイントの消費");
    await confirmOpen.getByRole("button", { name: "続ける" }).click();
    const detail = await e2e.dialog(page, "メッセージの詳細");
    await detail.getByText("最後まで読んでくれてありがとう。", { exact: false }).waitFor();
    await expect.poll(() => points(page)).toBe(`${before - openCost}pt`);
    await page.keyboard.press("Escape");
    await detail.waitFor({ state: "detached" });

    // Keyboard: Enter opens the reply with the focus in the text; the emoji picker works with keys;
    // Escape closes and gives the focus back to the reply button.
    const replyButton = card.getByRole("button", { name: "返信" });
    await replyButton.focus();
    await page.keyboard.press("Enter");
    const keyed = await e2e.dialog(page, "メール 花子さんへ返信");
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe("TEXTAREA");
    await page.keyboard.type("鍵盤");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await keyed.getByRole("group", { name: "絵文字を選択" }).waitFor();
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await expect.poll(() => keyed.getByLabel("メッセージ").inputValue()).toBe("鍵盤😀");
    // The pick gives the focus back to the text, at once.
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("TEXTAREA");
    await page.keyboard.press("Escape");
    await keyed.waitFor({ state: "detached" });
    await expect.poll(() => replyButton.evaluate((el) => el === document.activeElement)).toBe(true);

    // What was typed is the draft to 花子 (one per partner): there again when the reply opens, and
    // in the conversation's reply box.
    await replyButton.click();
    const again = await e2e.dialog(page, "メール 花子さんへ返信");
    await expect.poll(() => again.getByLabel("メッセージ").inputValue()).toBe("鍵盤😀");
    await page.keyboard.press("Escape");
    await again.waitFor({ state: "detached" });
    await card.getByRole("link", { name: "メール 花子さんとのやりとりを見る" }).click();
    await page.getByRole("heading", { name: "メール 花子さんとのメッセージ" }).waitFor();
    await expect.poll(() => page.getByLabel("メッセージ", { exact: true }).inputValue()).toBe("鍵盤😀");
    await e2e.screen(page, "conversation with the reply's draft");
    await page.goBack();
    await page.getByRole("heading", { name: "未読メッセージ" }).waitFor();

    // Sender search (the name, searched on the server): 花子's two still unread (the long one,
    // opened above, is read now).
    await page.getByLabel("差出人のニックネームで検索").fill("花子");
    await page.getByLabel("差出人のニックネームで検索").press("Enter");
    await expect.poll(() => page.getByTestId("mail-count").textContent()).toBe("2件");

    // The opening and the send above left less than a send costs: the operator adds points.
    const admin = await e2e.token(e2e.admin.userID, e2e.admin.password);
    await e2e.call(admin, "adminUsers.updateLegacy", { id: a, points: 200 });

    // A scheduled reply: the button reads 予約, the entry is listed, then cancelled.
    await card.getByRole("button", { name: "返信" }).click();
    const reply = await e2e.dialog(page, "メール 花子さんへ返信");
    await reply.getByLabel("メッセージ").fill("また後で送ります");
    await reply.getByLabel("予約送信する").check();
    await reply.getByRole("button", { name: "予約", exact: true }).waitFor();
    await settle(page);
    await e2e.screenshot(page, "member-reply-scheduled");
    await reply.getByRole("button", { name: "予約", exact: true }).click();
    const confirm = await e2e.dialog(page, "ポイントの消費");
    await confirm.getByText(/予約したメッセージの送信には\d+ptが必要です/).waitFor();
    await confirm.getByRole("button", { name: "続ける" }).click();
    await page.getByText(MSG.replyScheduled).waitFor();
    const entry = page.getByTestId("scheduled-entry").filter({ hasText: "また後で送ります" });
    await entry.waitFor();
    await settle(page);
    await e2e.screenshot(page, "member-unread-scheduled");
    await entry.getByRole("button", { name: "予約を取り消す" }).click();
    const cancel = await e2e.dialog(page, "予約の取り消し");
    await cancel.getByRole("button", { name: "取り消す" }).click();
    await entry.waitFor({ state: "detached" });

    // Mark as read: the card stays only if from an administrator; this one leaves.
    await card.getByRole("button", { name: "既読にする" }).click();
    await page.getByText(MSG.markedRead).waitFor();
    await card.waitFor({ state: "detached" });
  });
});
