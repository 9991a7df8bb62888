import { BANNER_MS, MSG } from "@enmusubi/shared";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { hasChromium, loginThroughUi, settle, useE2E } from "./harness";

const e2e = useE2E();

const PASSWORD = "member-pass-1";
const MEMBER = "inqtaro";
const TITLE = "ポイントが反映されません";
/** Longer than 100 characters (several lines even at 1280 px): the history and the admin card collapse it. */
const MESSAGE = `昨日コンビニで購入したポイントがまだ反映されていません。${"お手数ですがご確認をお願いいたします。".repeat(20)}`;
const REPLY = "ご不便をおかけしました。入金を確認し、ポイントを反映いたしました。";

async function login(userID: string, password: string, width: number): Promise<Page> {
  const page = await e2e.page(width);
  await loginThroughUi(page, e2e.baseUrl, userID, password);
  return page;
}

describe.skipIf(!hasChromium)("support inquiries in the browser", () => {
  // Seeding, before the tests: a member.
  beforeAll(async () => {
    const admin = await e2e.token(e2e.admin.userID, e2e.admin.password);
    await e2e.call(admin, "adminUsers.create", {
      userID: MEMBER,
      password: PASSWORD,
      name: "問い合わせ 太郎",
      email: `${MEMBER}@example.jp`,
      gender: "male",
    });
  });

  it("at 375 px the member is told what is missing in red, then sends an inquiry (green, gone after 3 s)", async () => {
    const page = await login(MEMBER, PASSWORD, 375);
    await e2e.visit(page, "/user/inquiry", "ご利用にあたって", "inquiry form");
    await settle(page);
    await e2e.screenshot(page, "inquiry-form");

    const status = page.getByTestId("inquiry-status");
    await page.getByRole("button", { name: "送信する" }).click();
    await expect.poll(() => status.textContent()).toBe(MSG.inquiryTitleRequired);
    const red = await status.evaluate((el) => getComputedStyle(el).color);
    await page.getByLabel("タイトル").fill(TITLE);
    await page.getByRole("button", { name: "送信する" }).click();
    await expect.poll(() => status.textContent()).toBe(MSG.inquiryMessageRequired);
    await e2e.screen(page, "inquiry form (error)");

    await page.getByLabel("メッセージ").fill(MESSAGE);
    await page.getByRole("button", { name: "送信する" }).click();
    await expect.poll(() => status.textContent()).toBe(MSG.inquirySent);
    const green = await status.evaluate((el) => getComputedStyle(el).color);
    // Red for エラー, green for success: the two colours differ and the red one leans red.
    expect(green).not.toBe(red);
    const [r, g] = (red.match(/\d+/g) ?? []).map(Number);
    expect(r).toBeGreaterThan(g ?? 255);
    expect(await page.getByLabel("タイトル").inputValue()).toBe("");
    await settle(page);
    await e2e.screenshot(page, "inquiry-form-sent");
    await expect.poll(() => status.textContent(), { timeout: BANNER_MS + 3000 }).toBe("");
  });

  it("at 1280 px the administrator sees the counts, marks the inquiry read and replies", async () => {
    const page = await login(e2e.admin.userID, e2e.admin.password, 1280);
    await page
      .getByRole("navigation", { name: "管理メニュー" })
      .getByRole("link", { name: "お問い合わせ一覧" })
      .click();
    await page.getByRole("heading", { name: "お問い合わせ一覧" }).waitFor();
    await e2e.screen(page, "admin inquiry list");
    await expect.poll(() => page.getByTestId("inquiry-total").textContent()).toBe("1件");
    await expect.poll(() => page.getByTestId("inquiry-unread").textContent()).toBe("1件");
    const card = page.getByTestId("admin-inquiry-card").filter({ hasText: TITLE });
    await card.getByText(`投稿者: 問い合わせ 太郎（${MEMBER}）`).waitFor();
    await card.getByText("未読", { exact: true }).waitFor();
    // The long message is collapsed until asked for.
    await card.getByRole("button", { name: "続きを読む" }).click();
    await card.getByRole("button", { name: "閉じる" }).waitFor();
    await settle(page);
    await e2e.screenshot(page, "admin-inquiry-list");

    await card.getByRole("button", { name: `「${TITLE}」を既読にする` }).click();
    await card.getByText("既読", { exact: true }).waitFor();
    await expect.poll(() => page.getByTestId("inquiry-unread").textContent()).toBe("0件");

    await card.getByRole("button", { name: `「${TITLE}」に返信` }).click();
    const dialog = await e2e.dialog(page, "お問い合わせへの返信", "admin inquiry reply");
    const send = dialog.getByRole("button", { name: "返信を送信" });
    expect(await send.isDisabled()).toBe(true);
    await dialog.getByLabel("返信内容").fill(REPLY);
    await settle(page);
    await e2e.screenshot(page, "admin-inquiry-reply");
    await send.click();
    await page.getByText(MSG.inquiryReplied).first().waitFor();
    await dialog.waitFor({ state: "detached" });
    await card.getByText("返信履歴（1件）").waitFor();
    await card.getByText(REPLY).waitFor();

    // The member is told by mail (the real outbox job over SMTP); the reply itself is read on the site.
    const mail = await e2e.waitForMail(`${MEMBER}@example.jp`);
    expect(mail.subject).toBe("【縁結び】お問い合わせへの返信のお知らせ");
    expect(mail.text).toContain(TITLE);
    expect(mail.text).toContain("/user/inquiry-history");
  });

  for (const width of [375, 1280]) {
    it(`at ${width} px the member sees the new reply marked until opened`, async () => {
      const page = await login(MEMBER, PASSWORD, width);
      await e2e.visit(page, "/user/inquiry-history", "お問い合わせ履歴", "inquiry history");
      const card = page.getByTestId("inquiry-card").filter({ hasText: TITLE });
      await card.waitFor();
      if (width === 375) {
        await card.getByTestId("reply-unread").waitFor();
        await page.getByText("未読の返信 1件").waitFor();
      }
      expect(await card.getByTestId("inquiry-read").textContent()).toBe("既読");
      await settle(page);
      await e2e.screenshot(page, "inquiry-history");

      await card.getByRole("button", { name: /運営からの返信を見る（1件）|返信を閉じる/ }).click();
      await card.getByTestId("inquiry-reply").filter({ hasText: REPLY }).waitFor({ state: "visible" });
      await card.getByTestId("reply-unread").waitFor({ state: "detached" });
      await settle(page);
      await e2e.screenshot(page, "inquiry-history-reply");
    });
  }

  it("the administrator finds the reply in the audit log by administrator and date", async () => {
    const page = await login(e2e.admin.userID, e2e.admin.password, 1280);
    await e2e.visit(page, "/admin/audit-log", "監査ログ", "audit log");
    const table = page.getByRole("table", { name: "監査ログ" });
    await table.getByText("お問い合わせ返信").first().waitFor();
    const today = new Intl.DateTimeFormat("sv-SE", { timeZone: "Asia/Tokyo" }).format(new Date());
    await page.getByLabel("管理者ID").fill(e2e.admin.userID);
    await page.getByLabel("開始日").fill(today);
    await page.getByLabel("開始日").press("Tab");
    await page.getByLabel("終了日").fill(today);
    await page.getByLabel("終了日").press("Tab");
    await page.getByRole("button", { name: "検索", exact: true }).click();
    const row = table.locator("tbody tr", { hasText: "お問い合わせ返信" });
    await row.waitFor();
    await row.getByText("isRead: true → true").or(row.getByText("isRead: false → true")).first().waitFor();
    await table.locator("tbody tr", { hasText: "お問い合わせ既読" }).getByText("isRead: false → true").waitFor();
    await settle(page);
    await e2e.screenshot(page, "admin-audit-log");

    await page.getByLabel("管理者ID").fill("no-such-admin");
    await page.getByRole("button", { name: "検索", exact: true }).click();
    await page.getByText("条件に一致する記録はありません").waitFor();
    await e2e.screen(page, "audit log (empty)");

    const narrow = await login(e2e.admin.userID, e2e.admin.password, 375);
    await e2e.visit(narrow, "/admin/audit-log", "監査ログ", "audit log");
    await narrow.getByRole("table", { name: "監査ログ" }).getByText("お問い合わせ返信").first().waitFor();
    await settle(narrow);
    await e2e.screenshot(narrow, "admin-audit-log");
  });

  it("the member deletes the inquiry after confirming; the history is empty", async () => {
    const page = await login(MEMBER, PASSWORD, 1280);
    await e2e.visit(page, "/user/inquiry-history", "お問い合わせ履歴", "inquiry history");
    await page.getByRole("button", { name: `「${TITLE}」を削除` }).click();
    const confirm = await e2e.dialog(page, "お問い合わせの削除", "inquiry delete confirm");
    await confirm.getByText("この操作は取り消せません。").waitFor();
    await confirm.getByRole("button", { name: "削除する" }).click();
    await page.getByText("お問い合わせはまだありません").waitFor();
    await e2e.screen(page, "inquiry history (empty)");
  });
});
