import { EMOJI_PICKER_SIZES, MESSAGE_HISTORY_COUNT, MSG } from "@enmusubi/shared";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { hasChromium, loginThroughUi, settle, useE2E } from "./harness";

const e2e = useE2E();

async function adminPage(width = 1280) {
  const page = await e2e.page(width);
  await loginThroughUi(page, e2e.baseUrl, e2e.admin.userID, e2e.admin.password);
  // /admin opens on the dashboard (decision 0036); these tests start from user management.
  await page.goto(`${e2e.baseUrl}/admin/user-management`);
  return page;
}

function messageRow(page: Page, text: string) {
  return page.getByRole("table", { name: "メッセージ一覧" }).locator("tbody tr", { hasText: text });
}

describe.skipIf(!hasChromium)("admin messages in the browser", () => {
  let taro = "";
  let hanako = "";

  // Seeding, before the tests: two members and their conversation.
  beforeAll(async () => {
    const token = await e2e.token(e2e.admin.userID, e2e.admin.password);
    taro = await e2e.createMember(token, "msgtaro", "メッセージ 太郎");
    hanako = await e2e.createMember(token, "msghanako", "メッセージ 花子");
    // Seven messages between the pair: the send-as-user popup shows only the last five.
    for (let i = 1; i <= 7; i++) {
      const [fromUserId, toUserId] = i % 2 ? [taro, hanako] : [hanako, taro];
      await e2e.call(token, "adminMessages.sendAsUser", { fromUserId, toUserId, body: `やりとり${i}通目` });
    }
    await e2e.call(token, "adminMessages.sendAsUser", { fromUserId: taro, toUserId: hanako, body: "編集前の本文" });
    await e2e.call(token, "adminMessages.sendAsUser", { fromUserId: hanako, toUserId: taro, body: "削除される本文" });
    // Markup in a body is shown as text, never interpreted.
    await e2e.call(token, "adminMessages.sendAsUser", {
      fromUserId: hanako,
      toUserId: taro,
      body: "<b>太字ではない</b>",
    });
    // A member writes to the administrator (the inbox), before the administrator writes to them.
    const admins = await e2e.call<{ users: { id: string }[] }>(
      token,
      "adminUsers.list",
      { field: "userID", search: e2e.admin.userID },
      "GET",
    );
    const adminId = admins.users[0]?.id;
    await e2e.call(token, "adminMessages.sendAsUser", {
      fromUserId: taro,
      toUserId: adminId,
      body: "管理者への質問です",
    });
    await e2e.call(token, "adminMessages.send", { recipientIds: [taro, hanako], body: "運営からのお知らせです" });
  });

  it("the admin opens email management from the message group, edits, deletes and sends as a user", async () => {
    const page = await adminPage();
    await page.getByRole("heading", { name: "ユーザー管理" }).waitFor();
    // The member row offers a message button; the admin's own row does not.
    await page.locator('tr[data-userid="msgtaro"]').getByRole("button", { name: "メッセージ" }).waitFor();
    expect(
      await page.locator(`tr[data-userid="${e2e.admin.userID}"]`).getByRole("button", { name: "メッセージ" }).count(),
    ).toBe(0);

    // The メッセージ管理 group expands to its three screens.
    const menu = page.getByRole("navigation", { name: "管理メニュー" });
    expect(await menu.getByRole("link", { name: "メール管理" }).count()).toBe(0);
    const group = menu.getByRole("button", { name: "メッセージ管理" });
    expect(await group.getAttribute("aria-expanded")).toBe("false");
    // By keyboard: Enter opens the group, Space closes it, a click opens it again.
    await group.focus();
    await page.keyboard.press("Enter");
    await menu.getByRole("link", { name: "メール管理" }).waitFor();
    expect(await group.getAttribute("aria-expanded")).toBe("true");
    await page.keyboard.press("Space");
    await expect.poll(() => group.getAttribute("aria-expanded")).toBe("false");
    await expect.poll(() => menu.getByRole("link", { name: "メール管理" }).isVisible()).toBe(false);
    await group.click();
    await menu.getByRole("link", { name: "メール管理" }).click();
    await page.getByRole("heading", { name: "メール管理" }).waitFor();
    await e2e.screen(page, "admin email management");
    await messageRow(page, "編集前の本文").waitFor();
    expect(await page.getByText("<b>太字ではない</b>").count()).toBe(1);
    expect(await menu.getByRole("link", { name: "送信済みメッセージ" }).isVisible()).toBe(true);
    await e2e.screenshot(page, "admin-email-management");

    // Edit: update is disabled while the body is blank.
    await messageRow(page, "編集前の本文").getByRole("button", { name: "編集" }).click();
    const edit = await e2e.dialog(page, "メッセージを編集");
    const editBody = edit.getByLabel("内容");
    expect(await editBody.inputValue()).toBe("編集前の本文");
    await editBody.fill("   ");
    expect(await edit.getByRole("button", { name: "更新" }).isDisabled()).toBe(true);
    await editBody.fill("編集後の本文");
    await edit.getByRole("button", { name: "更新" }).click();
    await page.getByText(MSG.messageUpdated).waitFor();
    await edit.waitFor({ state: "detached" });
    await messageRow(page, "編集後の本文").waitFor();
    expect(await messageRow(page, "編集前の本文").count()).toBe(0);

    // Delete after confirmation; cancelling keeps the message.
    await messageRow(page, "削除される本文").getByRole("button", { name: "削除" }).click();
    let confirm = await e2e.dialog(page, "メッセージの削除");
    await confirm.getByRole("button", { name: "キャンセル" }).click();
    await confirm.waitFor({ state: "detached" });
    expect(await messageRow(page, "削除される本文").count()).toBe(1);
    await messageRow(page, "削除される本文").getByRole("button", { name: "削除" }).click();
    confirm = await e2e.dialog(page, "メッセージの削除");
    await confirm.getByRole("button", { name: "削除する" }).click();
    await page.getByText(MSG.messageDeleted).waitFor();
    await expect.poll(() => messageRow(page, "削除される本文").count()).toBe(0);

    // Detail shows the whole body as text.
    await messageRow(page, "編集後の本文").getByRole("button", { name: "詳細" }).click();
    const detail = await e2e.dialog(page, "メッセージの詳細");
    expect(await detail.getByTestId("message-detail-body").textContent()).toBe("編集後の本文");
    await detail.getByRole("button", { name: "閉じる" }).last().click();
    await detail.waitFor({ state: "detached" });

    // Send as 太郎 to 花子 from the small button on 太郎's avatar.
    await messageRow(page, "編集後の本文")
      .getByRole("button", { name: "メッセージ 太郎（msgtaro）としてメッセージ 花子に送信" })
      .click();
    const sendAs = await e2e.dialog(page, "ユーザーとして送信");
    await expect.poll(() => sendAs.getByTestId("history-item").count()).toBe(MESSAGE_HISTORY_COUNT);
    const history = (await sendAs.getByTestId("history-item").allTextContents()).join("\n");
    expect(history).toContain("編集後の本文");
    expect(history).not.toContain("削除される本文");
    expect(history).not.toContain("やりとり4通目");
    const send = sendAs.getByRole("button", { name: "送信", exact: true });
    expect(await send.isDisabled()).toBe(true);
    await sendAs.getByRole("button", { name: "絵文字" }).click();
    const emojis = sendAs.getByRole("group", { name: "絵文字を選択" }).getByRole("button");
    expect(await emojis.count()).toBe(EMOJI_PICKER_SIZES.large);
    // The schedule checkbox turns the button into 予約 (a time in the future), and back.
    await sendAs.getByLabel("予約送信する").check();
    await sendAs.getByRole("button", { name: "予約" }).waitFor();
    await sendAs.getByLabel("予約送信する").uncheck();
    await sendAs.getByLabel("メッセージ").fill("代理で送るメッセージ");
    await emojis.first().click();
    expect(await sendAs.getByLabel("メッセージ").inputValue()).toBe("代理で送るメッセージ😀");
    await settle(page);
    await e2e.screenshot(page, "admin-send-as-user");
    await send.click();
    await page.getByText(MSG.messageSent).waitFor();
    await sendAs.waitFor({ state: "detached" });
    const sent = messageRow(page, "代理で送るメッセージ😀");
    await sent.waitFor();
    expect(await sent.locator("td").nth(1).textContent()).toContain("msgtaro");
    expect(await sent.locator("td").nth(2).textContent()).toContain("msghanako");

    // Search narrows the list; the status filter and page size go back to page 1.
    await page.getByRole("search").getByLabel("検索").fill("やりとり");
    await page.getByRole("search").getByRole("button", { name: "検索" }).click();
    await expect.poll(() => page.getByRole("table", { name: "メッセージ一覧" }).locator("tbody tr").count()).toBe(7);
    expect(await page.getByTestId("message-total").textContent()).toContain("7件");
  });

  it("sent and inbox screens list the administrator's messages", async () => {
    const page = await adminPage();
    await e2e.visit(page, "/admin/sent-messages", "運営からのお知らせです", "admin sent messages");
    expect(await page.getByRole("table", { name: "送信済みメッセージの一覧" }).locator("tbody tr").count()).toBe(2);
    await e2e.screenshot(page, "admin-sent-messages");
    await page.getByRole("button", { name: "一括送信" }).click();
    const batch = await e2e.dialog(page, "一括送信");
    await batch.getByRole("button", { name: "送信", exact: true }).click();
    await batch.getByText(MSG.recipientsRequired).waitFor();
    await batch.getByLabel("メッセージ 太郎（msgtaro）").check();
    await batch.getByRole("button", { name: "送信", exact: true }).click();
    await batch.getByText(MSG.messageRequired).waitFor();
    await batch.getByLabel("メッセージ", { exact: true }).fill("一括のお知らせ");
    await batch.getByRole("button", { name: "送信", exact: true }).click();
    // It asks first, naming the recipients (decision 0036).
    const asked = await e2e.dialog(page, "一括送信の確認");
    await asked.getByText("1人のユーザーにメッセージを送信しますか？").waitFor();
    await asked.getByRole("button", { name: "送信する" }).click();
    await page.getByText("1人のユーザーにメッセージを送信しました").waitFor();
    await page.getByRole("table", { name: "送信済みメッセージの一覧" }).getByText("一括のお知らせ").waitFor();

    // The inbox: the member's question is unread; the reply goes to the member and marks it replied.
    await e2e.visit(page, "/admin/inbox-messages", "管理者への質問です", "admin inbox messages");
    const inbox = page.getByRole("table", { name: "受信メッセージの一覧" });
    const question = inbox.locator("tbody tr", { hasText: "管理者への質問です" });
    expect(await question.getAttribute("data-unread")).toBe("true");
    await e2e.screenshot(page, "admin-inbox-messages");
    await question.getByRole("button", { name: "返信" }).click();
    const reply = await e2e.dialog(page, "返信");
    expect(await reply.getByRole("button", { name: "返信する" }).isDisabled()).toBe(true);
    await reply.getByLabel("返信メッセージ").fill("ご質問ありがとうございます");
    await settle(page);
    await e2e.screenshot(page, "admin-inbox-reply");
    await reply.getByRole("button", { name: "返信する" }).click();
    await page.getByText(MSG.messageSent).waitFor();
    await reply.waitFor({ state: "detached" });
    await question.getByText("返信済み").waitFor();
    expect(await question.getAttribute("data-unread")).toBeNull();
    expect(await question.getByRole("button", { name: "返信" }).count()).toBe(0);

    // The reply is the administrator's message to the member.
    await page
      .getByRole("navigation", { name: "管理メニュー" })
      .getByRole("link", { name: "送信済みメッセージ" })
      .click();
    const sentTable = page.getByRole("table", { name: "送信済みメッセージの一覧" });
    const answer = sentTable.locator("tbody tr", { hasText: "ご質問ありがとうございます" });
    await answer.waitFor();
    expect(await answer.textContent()).toContain("msgtaro");
  });

  it("user management: a scheduled message to a member appears in the pending panel and is cancelled", async () => {
    const page = await adminPage();
    await page.getByRole("heading", { name: "ユーザー管理" }).waitFor();
    const panel = page.getByRole("region", { name: "予約中のメッセージ" });
    await panel.getByText("予約中のメッセージはありません。").waitFor();
    await page.locator('tr[data-userid="msgtaro"]').getByRole("button", { name: "メッセージ" }).click();
    const dialog = await e2e.dialog(page, "メッセージを送信");
    await dialog.getByText("宛先: メッセージ 太郎（msgtaro）").waitFor();
    await dialog.getByLabel("メッセージ").fill("明日のお知らせ");
    await dialog.getByLabel("予約送信する").check();
    await dialog.getByRole("button", { name: "予約" }).click();
    await page.getByText(MSG.messageScheduled).waitFor();
    await dialog.waitFor({ state: "detached" });
    const entry = panel.getByRole("listitem").filter({ hasText: "明日のお知らせ" });
    await entry.waitFor();
    expect(await entry.textContent()).toContain("宛先: メッセージ 太郎");
    await e2e.screenshot(page, "admin-user-management-scheduled");

    await entry.getByRole("button", { name: "取消" }).click();
    const confirm = await e2e.dialog(page, "予約の取り消し");
    await confirm.getByRole("button", { name: "取り消す" }).click();
    await panel.getByText("予約中のメッセージはありません。").waitFor();
  });

  it("email management at 375 px", async () => {
    const page = await adminPage(375);
    // The collapsed menu opens from the burger; the message group collapses again.
    await page.getByRole("button", { name: "メニューを開く" }).click();
    const menu = page.getByRole("navigation", { name: "管理メニュー" });
    await menu.getByRole("button", { name: "メッセージ管理" }).click();
    await menu.getByRole("link", { name: "受信メッセージ" }).waitFor();
    await e2e.screenshot(page, "admin-menu-messages");
    await menu.getByRole("button", { name: "メッセージ管理" }).click();
    await expect.poll(() => menu.getByRole("link", { name: "受信メッセージ" }).isVisible()).toBe(false);
    await e2e.visit(page, "/admin/email-management", "代理で送るメッセージ😀", "admin email management 375");
    await e2e.screenshot(page, "admin-email-management");
    await messageRow(page, "編集後の本文").getByRole("button", { name: "編集" }).click();
    await e2e.dialog(page, "メッセージを編集");
    await settle(page);
    await e2e.screenshot(page, "admin-edit-message");
    await page.keyboard.press("Escape");

    await e2e.visit(page, "/admin/sent-messages", "運営からのお知らせです", "admin sent messages 375");
    await e2e.screenshot(page, "admin-sent-messages");
    await page.getByRole("button", { name: "一括送信" }).click();
    await e2e.dialog(page, "一括送信");
    await settle(page);
    await e2e.screenshot(page, "admin-batch-send");
    await page.keyboard.press("Escape");
    await e2e.visit(page, "/admin/inbox-messages", "管理者への質問です", "admin inbox messages 375");
    await e2e.screenshot(page, "admin-inbox-messages");
  });
});
