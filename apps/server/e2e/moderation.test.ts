import { MSG } from "@enmusubi/shared";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { hasChromium, loginThroughUi, MEMBER_PASSWORD, settle, useE2E } from "./harness";

/**
 * Block, report and moderation in the browser: member A reports member B's message, the
 * administrator removes it from the moderation queue (A is told by mail), A blocks B from B's
 * profile and B leaves A's search; the blocked list unblocks. 375 and 1280 px.
 */
const e2e = useE2E();

const BODY = "お小遣いあげるので会いませんか";

async function adminPage(width = 1280): Promise<Page> {
  const page = await e2e.page(width);
  await loginThroughUi(page, e2e.baseUrl, e2e.admin.userID, e2e.admin.password);
  return page;
}

describe.skipIf(!hasChromium)("block, report and moderation in the browser", () => {
  let messageId = "";
  let aId = "";

  // Seeding, before the tests: two members and B's message to A.
  beforeAll(async () => {
    const admin = await e2e.token(e2e.admin.userID, e2e.admin.password);
    aId = await e2e.createMember(admin, "reporttaro", "報告 太郎", "male");
    await e2e.createMember(admin, "nuisancehanako", "迷惑 花子", "female");
    const b = await e2e.token("nuisancehanako");
    const sent = await e2e.call<{ messageIds: string[] }>(b, "messages.send", { recipientIds: [aId], body: BODY });
    messageId = sent.messageIds[0] as string;
    // A has opened (paid for, decision 0027) and so read it: it is on A's 受信 screen, body shown.
    await e2e.call(await e2e.token("reporttaro"), "messages.open", { id: messageId });
  });

  it("at 1280 px member A reports B's message from the mail detail", async () => {
    const page = await e2e.memberPage("reporttaro");
    await e2e.visit(page, "/user/received-emails", "受信メッセージ", "received mail");
    const card = page.getByTestId("message-card").filter({ hasText: BODY });
    await card.getByTestId("message-preview").click();
    const detail = await e2e.dialog(page, "メッセージの詳細", "mail detail with report");
    await detail.getByRole("button", { name: "迷惑 花子さんからのメッセージを報告" }).click();
    const dialog = await e2e.dialog(page, "運営に報告する", "report dialog");
    // その他 needs a detail: the dialog says so before anything is sent.
    await dialog.getByLabel("その他").check();
    await dialog.getByRole("button", { name: "報告する" }).click();
    await dialog.getByText(MSG.reportDetailRequired).waitFor();
    await dialog.getByLabel("援助交際・売買春の勧誘").check();
    await dialog.getByLabel("詳しい内容").fill("金銭の見返りを持ちかけられました。");
    await settle(page);
    await e2e.screenshot(page, "report-dialog");
    await dialog.getByRole("button", { name: "報告する" }).click();
    await page.getByText(MSG.reportDone).waitFor();
    await dialog.waitFor({ state: "detached" });

    // Reporting it again is refused with the server's message.
    await detail.getByRole("button", { name: "迷惑 花子さんからのメッセージを報告" }).click();
    const again = await e2e.dialog(page, "運営に報告する");
    await again.getByLabel("業者・勧誘").check();
    await again.getByRole("button", { name: "報告する" }).click();
    await again.getByText(MSG.reportDuplicate).first().waitFor();
    await again.getByRole("button", { name: "キャンセル" }).click();
  });

  it("at 375 px the dialog fits and the administrator's queue shows the report in context", async () => {
    const page = await adminPage(375);
    await e2e.visit(page, "/admin/moderation", "通報の確認", "moderation queue");
    const card = page.getByTestId("report-card").filter({ hasText: BODY });
    await card.waitFor();
    await card.getByText("援助交際・売買春の勧誘").waitFor();
    await card.getByText("金銭の見返りを持ちかけられました。").waitFor();
    await settle(page);
    await e2e.screenshot(page, "moderation-queue");
  });

  it("at 1280 px the administrator removes the message; it is gone for A, and A is told by mail", async () => {
    const page = await adminPage();
    await e2e.visit(page, "/admin/moderation", "通報の確認", "moderation queue");
    const card = page.getByTestId("report-card").filter({ hasText: BODY });
    await card.getByText("報告 太郎（reporttaro）").first().waitFor();
    await card.getByText("迷惑 花子（nuisancehanako）").first().waitFor();
    await settle(page);
    await e2e.screenshot(page, "moderation-queue");
    await card.getByRole("button", { name: "内容を削除" }).click();
    const confirm = await e2e.dialog(page, "内容の削除", "moderation remove confirm");
    await confirm.getByRole("button", { name: "削除する" }).click();
    await page.getByText("内容を削除しました。報告者に結果を通知しました。").waitFor();
    await page.getByText("未対応の報告はありません。").waitFor();

    // The handled report under 削除済み, the message marked removed.
    await page.getByText("削除済み", { exact: true }).first().click();
    const handled = page.getByTestId("report-card").filter({ hasText: BODY });
    await handled.waitFor();
    await handled.getByText("削除済み").first().waitFor();
    await settle(page);
    await e2e.screenshot(page, "moderation-removed");

    const mail = await e2e.waitForMail("reporttaro@example.jp");
    expect(mail.subject).toBe("【縁結び】ご報告への対応について");
    expect(mail.text).toContain("ご報告いただいた内容を確認し、対応いたしました");

    const a = await e2e.token("reporttaro");
    const inbox = await e2e.call<{ messages: { id: string }[] }>(a, "messages.list", { box: "inbox" }, "GET");
    expect(inbox.messages.map((m) => m.id)).not.toContain(messageId);
  });

  it("at 1280 px A blocks B from B's profile and B leaves A's search", async () => {
    const page = await e2e.memberPage("reporttaro");
    await e2e.visit(page, "/user/profile-search", "プロフィール検索", "profile search");
    const results = page.getByTestId("search-result");
    await results.filter({ hasText: "迷惑 花子" }).waitFor();
    await page.getByRole("button", { name: "迷惑 花子さんの詳細" }).click();
    const cost = await e2e.dialog(page, "ポイントの消費");
    await cost.getByRole("button", { name: "続ける" }).click();
    const detail = await e2e.dialog(page, "迷惑 花子さんのプロフィール", "profile detail with block");
    await detail.getByRole("button", { name: "迷惑 花子さんをブロック" }).click();
    const confirm = await e2e.dialog(page, "ブロック", "block confirm");
    await settle(page);
    await e2e.screenshot(page, "block-confirm");
    await confirm.getByRole("button", { name: "ブロックする" }).click();
    await page.getByText("迷惑 花子さんをブロックしました。").waitFor();
    await detail.waitFor({ state: "detached" });
    await expect.poll(() => results.filter({ hasText: "迷惑 花子" }).count()).toBe(0);

    // B cannot write to A any more (refused by the server, nothing charged).
    const b = await e2e.token("nuisancehanako");
    const before = await e2e.call<{ points: number }>(b, "profile.me", undefined, "GET");
    await expect(e2e.call(b, "messages.send", { recipientIds: [aId], body: "まだ？" })).rejects.toThrow(
      MSG.blockedEitherWay,
    );
    const after = await e2e.call<{ points: number }>(b, "profile.me", undefined, "GET");
    expect(after.points).toBe(before.points);
  });

  it("at 375 px the blocked list (設定 menu) shows B and unblocks after a confirmation", async () => {
    const page = await e2e.memberPage("reporttaro", 375);
    await page.getByRole("button", { name: "メニューを開く" }).click();
    const drawer = await e2e.dialog(page, "メニュー", "member drawer");
    await drawer.getByRole("link", { name: "ブロックリスト" }).click();
    await page.getByRole("heading", { name: "ブロックリスト" }).waitFor();
    const card = page.getByTestId("blocked-card").filter({ hasText: "迷惑 花子" });
    await card.waitFor();
    await settle(page);
    await e2e.screenshot(page, "blocked-list");
    await card.getByRole("button", { name: "迷惑 花子さんのブロックを解除" }).click();
    const confirm = await e2e.dialog(page, "ブロックの解除", "unblock confirm");
    await confirm.getByRole("button", { name: "解除する" }).click();
    await page.getByText("迷惑 花子さんのブロックを解除しました。").waitFor();
    await page.getByText("ブロックしている会員はいません。").waitFor();
    await settle(page);
    await e2e.screenshot(page, "blocked-list-empty");
  });
  it("at 1280 px the administrator suspends B from user management: B's session ends, login says so; 停止解除 lets B in", async () => {
    const pageB = await e2e.memberPage("nuisancehanako");
    const admin = await adminPage();
    await e2e.visit(admin, "/admin/user-management", "ユーザー管理", "user management");
    const row = admin.locator('tr[data-userid="nuisancehanako"]');
    await row.getByRole("button", { name: "nuisancehanakoを利用停止" }).click();
    const dialog = await e2e.dialog(admin, "会員の利用停止", "suspend dialog");
    await dialog.getByRole("button", { name: "利用停止にする" }).click();
    await dialog.getByText(MSG.suspendReasonRequired).waitFor();
    await dialog.getByLabel(/利用停止の理由/).fill("未成年の勧誘の疑い");
    await settle(admin);
    await e2e.screenshot(admin, "suspend-dialog");
    await dialog.getByRole("button", { name: "利用停止にする" }).click();
    await admin.getByText(MSG.suspendDone).waitFor();
    await row.getByRole("button", { name: "nuisancehanakoの停止解除" }).waitFor();

    // B's open session stops at once: the next call returns B to the login page.
    await pageB.goto(`${e2e.baseUrl}/user/received-emails`);
    await pageB.waitForURL(/\/login/);
    await pageB.getByLabel("ユーザーID").fill("nuisancehanako");
    await pageB.getByLabel("パスワード").fill(MEMBER_PASSWORD);
    await pageB.getByRole("button", { name: "ログイン", exact: true }).click();
    await pageB.getByText(MSG.accountSuspended).waitFor();
    await e2e.screen(pageB, "login suspended");

    await row.getByRole("button", { name: "nuisancehanakoの停止解除" }).click();
    const confirm = await e2e.dialog(admin, "利用停止の解除", "unsuspend confirm");
    await confirm.getByRole("button", { name: "解除する" }).click();
    await admin.getByText(MSG.unsuspendDone).waitFor();
    await row.getByRole("button", { name: "nuisancehanakoを利用停止" }).waitFor();
    await loginThroughUi(pageB, e2e.baseUrl, "nuisancehanako", MEMBER_PASSWORD);
    await pageB.getByTestId("dashboard-points").waitFor();
  });
});
