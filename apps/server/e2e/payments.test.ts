import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { hasChromium, loginThroughUi, settle, useE2E } from "./harness";
import { inViewport, noSidewaysScroll } from "./viewport";

const e2e = useE2E();

const PASSWORD = "buyer-pass-1";
/** The rate the administrator sets in the test (not the default), so every page must read it from the settings. */
const RATE_TEXT = "3,000円（税込）で1,000pt（1ポイントあたり3円）";

async function adminPage(width = 1280): Promise<Page> {
  const page = await e2e.page(width);
  await loginThroughUi(page, e2e.baseUrl, e2e.admin.userID, e2e.admin.password);
  return page;
}

async function memberPage(width: number): Promise<Page> {
  const page = await e2e.page(width);
  await loginThroughUi(page, e2e.baseUrl, "buyer01", PASSWORD);
  await page.getByTestId("dashboard-points").waitFor();
  return page;
}

const headerPoints = (page: Page) => page.getByLabel("所持ポイント").textContent();

/** Presses Tab until the focused control's name matches; the flow below is done with the keyboard alone. */
async function tabTo(page: Page, name: RegExp): Promise<void> {
  const seen: string[] = [];
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press("Tab");
    const focus = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return (el?.getAttribute("aria-label") ?? el?.textContent ?? "").trim();
    });
    seen.push(focus);
    if (name.test(focus)) return;
  }
  throw new Error(`${name} not reached with the keyboard: ${seen.join(" → ")}`);
}

describe.skipIf(!hasChromium)("points purchase in the browser", () => {
  let transactionId = "";

  it("before any method is configured, the purchase screen says purchases are not available and where to configure one", async () => {
    const admin = await e2e.token(e2e.admin.userID, e2e.admin.password);
    await e2e.call(admin, "adminUsers.create", {
      userID: "buyer01",
      password: PASSWORD,
      name: "購入 太郎",
      email: "buyer01@example.jp",
      gender: "male",
    });
    const page = await memberPage(375);
    await e2e.visit(page, "/user/point-purchase", "購入履歴", "point purchase without a method");
    const notice = page.getByTestId("purchase-unavailable");
    await notice.getByText("現在ポイントはご購入いただけません。").waitFor();
    await notice.getByText(/管理画面の「決済設定」/).waitFor();
    await notice.getByRole("link", { name: "お問い合わせ" }).waitFor();
    expect(await page.getByRole("button", { name: "確認画面へ進む" }).count()).toBe(0);
    await settle(page);
    await e2e.screenshot(page, "point-purchase-no-method");
  });

  it("the administrator sets the rate and switches SmartPit on, each tab saved on its own", async () => {
    const admin = await e2e.token(e2e.admin.userID, e2e.admin.password);
    const page = await adminPage();
    await page.getByRole("link", { name: "決済設定" }).click();
    await page.getByRole("tab", { name: "為替レート" }).waitFor();
    await e2e.screen(page, "payment settings");
    await page.getByLabel("金額（円）").fill("3000");
    await page.getByLabel("付与ポイント").fill("1000");
    await expect.poll(() => page.getByTestId("exchange-rate-display").textContent()).toContain("0.3333");
    // Below the §5 minimum: the spec's rule, nothing saved.
    await page.getByLabel("付与ポイント").fill("0");
    await page.getByRole("button", { name: "保存する" }).click();
    await page.getByText("換金レートは1以上の整数で入力してください。").waitFor();
    await page.getByLabel("付与ポイント").fill("1000");
    await page.getByRole("button", { name: "保存する" }).click();
    await page.getByText("設定を保存しました").first().waitFor();

    await page.getByRole("tab", { name: "SmartPit" }).click();
    await page.getByLabel("スマートピットID").fill("SP-E2E-001");
    await page.getByLabel("APIキー").fill("e2e-smartpit-api-key-0001");
    const enable = page.getByRole("switch", { name: "スマートピット（コンビニ払い）を有効にする" });
    if (!(await enable.isChecked())) await enable.check({ force: true });
    await page.getByRole("button", { name: "保存する" }).click();
    await expect.poll(async () => (await page.getByText("設定を保存しました").count()) > 0).toBe(true);
    await page.getByText(/登録済み（.*0001）/).waitFor();
    await settle(page);
    await e2e.screenshot(page, "payment-settings-smartpit");

    const saved = await e2e.call<{
      exchange: { yenAmount: number; pointAmount: number };
      smartPit: { isActive: boolean };
    }>(admin, "adminPayments.getSettings", undefined, "GET");
    expect(saved.exchange).toMatchObject({ yenAmount: 3000, pointAmount: 1000 });
    expect(saved.smartPit.isActive).toBe(true);
  });

  it("at 375 px a member reaches the purchase from the header, confirms, and sees the payment code and barcode", async () => {
    const page = await memberPage(375);
    expect(await headerPoints(page)).toBe("100pt");
    await page.getByRole("link", { name: "ポイント購入" }).click();
    await page.getByRole("heading", { name: "ポイント購入" }).waitFor();
    await page.getByText("購入履歴はありません").waitFor();
    expect(await page.getByTestId("purchase-rate").textContent()).toBe(RATE_TEXT);
    await e2e.screen(page, "point purchase");

    await page.getByLabel(/購入金額/).fill("500");
    await page.getByRole("button", { name: "確認画面へ進む" }).click();
    await page.getByText("購入金額は1,000円以上で入力してください").waitFor();

    await page.getByRole("button", { name: "3,000円" }).click();
    expect(await page.getByTestId("purchase-computed-points").textContent()).toContain("1,000pt");
    await page.getByRole("button", { name: "確認画面へ進む" }).click();
    const confirmation = page.getByTestId("purchase-confirmation");
    await confirmation.waitFor();
    for (const text of ["1,000pt", "3,000円", "スマートピット（コンビニ払い）", "購入日から3年間"])
      await confirmation.getByText(text).first().waitFor();
    await page.getByText("1,000ptを3,000円で購入しますか？").waitFor();
    await settle(page);
    await e2e.screenshot(page, "point-purchase-confirm");

    await page.getByRole("button", { name: "購入を確定する" }).click();
    await page.getByText("お申込みを受け付けました").waitFor();
    const code = (await page.getByTestId("purchase-payment-code").textContent()) ?? "";
    expect(code).toMatch(/\S{6,}/);
    transactionId = (await page.getByTestId("purchase-transaction-id").textContent()) ?? "";
    const barcode = page.getByRole("img", { name: new RegExp(`支払番号 ${code} のバーコード`) });
    await barcode.waitFor();
    expect(await barcode.locator("rect[data-bar]").count()).toBeGreaterThan(20);
    // Drawn by the app: no image is fetched from anywhere for it.
    expect(await page.locator("img[src*='http']").count()).toBe(0);
    await page.getByTestId("purchase-history-row").filter({ hasText: transactionId }).getByText("処理中").waitFor();
    await settle(page);
    await e2e.screenshot(page, "point-purchase-result");
    // The pending order's payment details again, from the history.
    await page.getByRole("button", { name: `表示（取引 ${transactionId} のお支払い方法）` }).click();
    const again = await e2e.dialog(page, "お支払い方法", "payment details");
    await again.getByRole("img", { name: new RegExp(`支払番号 ${code} のバーコード`) }).waitFor();
    await page.keyboard.press("Escape");
    await again.waitFor({ state: "detached" });
    // Nothing credited before the payment is confirmed.
    expect(await headerPoints(page)).toBe("100pt");
  });

  it("the administrator confirms it in the transactions screen; the member's balance rises", async () => {
    const page = await adminPage();
    await page.getByRole("link", { name: "決済取引" }).click();
    const row = page.getByTestId("transaction-row").filter({ hasText: transactionId });
    await row.getByText("処理中").waitFor();
    await page.getByTestId("sales-chart").or(page.getByText("この期間の売上はありません")).first().waitFor();
    await e2e.screen(page, "payment transactions");
    await row.getByRole("button", { name: `入金確認（取引 ${transactionId}）` }).click();
    const dialog = await e2e.dialog(page, "入金の確認", "confirm payment");
    await dialog.getByText(/3,000円・1,000pt/).waitFor();
    await dialog.getByRole("button", { name: "入金を確認する" }).click();
    await page.getByText("入金を確認し、ポイントを付与しました").waitFor();
    await row.getByText("支払済").waitFor();
    await row.getByTestId("confirmed-by").waitFor();
    expect(await row.getByRole("button").count()).toBe(0);
    await page.getByTestId("sales-chart").waitFor();
    expect(await page.getByTestId("sales-table").textContent()).toContain("3,000円");
    await page.getByText("月別", { exact: true }).click();
    await page.getByRole("columnheader", { name: "月" }).waitFor();
    await settle(page);
    await e2e.screenshot(page, "payment-transactions");

    // 資金決済法 report: no 3/31 or 9/30 has passed since today's first purchase.
    await page.getByRole("link", { name: "未使用残高報告" }).click();
    await page.getByText("まだ基準日を迎えた有償ポイントはありません").waitFor();
    await e2e.screen(page, "unused balance report");
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "CSVをダウンロード" }).click(),
    ]);
    const csvPath = await download.path();
    const csv = csvPath ? await readFile(csvPath, "utf8") : "";
    expect(csv).toContain("基準日");

    const member = await memberPage(1280);
    await expect.poll(() => headerPoints(member)).toBe("1,100pt");
    await e2e.visit(member, "/user/point-purchase", "購入履歴", "point purchase history");
    await member.getByTestId("purchase-history-row").filter({ hasText: transactionId }).getByText("支払済").waitFor();
  });

  it("at 375 px the purchase history shows each purchase's amount and status in view, with no sideways scroll", async () => {
    const page = await memberPage(375);
    await e2e.visit(page, "/user/point-purchase", "購入履歴", "point purchase history at 375 px");
    const entry = page.getByTestId("purchase-history-row").filter({ hasText: transactionId });
    await entry.getByText("支払済").waitFor();
    await entry.scrollIntoViewIfNeeded();
    for (const text of ["3,000円", "1,000pt", "支払済", "スマートピット（コンビニ払い）"])
      await inViewport(page, entry.getByText(text, { exact: true }));
    await noSidewaysScroll(page);
    await settle(page);
    await e2e.screenshot(page, "point-purchase-history");
  });

  it("特商法 and the terms state the very rate the purchase screen shows", async () => {
    const page = await e2e.page(1280);
    await e2e.visit(page, "/legal/transaction-law", "販売価格", "transaction law");
    const law = (await page.locator("main").textContent()) ?? "";
    expect(law).toContain(RATE_TEXT);
    expect(law).not.toContain("1ポイントあたり10円");
    // Only the methods offered are named: no card provider exists (decision 0043).
    expect(law).not.toContain("クレジットカード");
    expect(law).toContain("インターネット異性紹介事業 届出番号");
    await e2e.visit(page, "/legal/terms-of-service", "第4条（ポイント）", "terms");
    expect((await page.locator("main").textContent()) ?? "").toContain(RATE_TEXT);

    // At 375 px the figures' tables wrap instead of running off the screen.
    const narrow = await e2e.page(375);
    await e2e.visit(narrow, "/legal/transaction-law", "販売価格", "transaction law");
    const overflow = await narrow.evaluate(() => {
      const tables = Array.from(document.querySelectorAll("main table"));
      return Math.max(0, ...tables.map((t) => t.scrollWidth - (t.parentElement?.clientWidth ?? 0)));
    });
    expect(overflow).toBeLessThanOrEqual(1);
    await settle(narrow);
    await e2e.screenshot(narrow, "transaction-law-figures");
  });

  it("with the keyboard alone a member orders and the administrator, at 375 px, cancels the order", async () => {
    const member = await memberPage(1280);
    await e2e.visit(member, "/user/point-purchase", "購入履歴", "point purchase (keyboard)");
    await tabTo(member, /^5,000円$/);
    await member.keyboard.press("Enter");
    expect(await member.getByTestId("purchase-computed-points").textContent()).toContain("1,666pt");
    await tabTo(member, /^確認画面へ進む$/);
    await member.keyboard.press("Enter");
    await member.getByTestId("purchase-confirmation").waitFor();
    await tabTo(member, /^購入を確定する$/);
    await member.keyboard.press("Enter");
    await member.getByText("お申込みを受け付けました").waitFor();
    const cancelled = (await member.getByTestId("purchase-transaction-id").textContent()) ?? "";

    const admin = await adminPage(375);
    await e2e.visit(admin, "/admin/payment-transactions", "決済取引", "payment transactions");
    const row = admin.getByTestId("transaction-row").filter({ hasText: cancelled });
    await row.getByText("処理中").waitFor();
    await tabTo(admin, new RegExp(`キャンセル（取引 ${cancelled}）`));
    await admin.keyboard.press("Enter");
    await e2e.dialog(admin, "取引のキャンセル", "cancel transaction");
    await tabTo(admin, /^取引をキャンセルする$/);
    await admin.keyboard.press("Enter");
    await admin.getByText("取引をキャンセルしました").waitFor();
    // The row's actions read 「キャンセル」 too: wait for them to go, not for the word.
    await row.getByRole("button").first().waitFor({ state: "detached" });
    await row.getByText("キャンセル", { exact: true }).waitFor();
    expect(await row.getByRole("button").count()).toBe(0);
    await settle(admin);
    await e2e.screenshot(admin, "payment-transactions");
    await e2e.visit(admin, "/admin/payment-settings", "為替レート", "payment settings");
    await e2e.screenshot(admin, "payment-settings");
    await admin.getByRole("tab", { name: "銀行振込" }).click();
    await admin.getByLabel("口座名義").waitFor();
    await e2e.screen(admin, "payment settings bank tab");
    await admin.getByRole("tab", { name: "一般" }).click();
    await admin.getByLabel("最低購入金額").waitFor();
    await e2e.screen(admin, "payment settings general tab");

    // Nothing credited for a cancelled order; the history says so.
    await member.reload();
    await member.getByTestId("purchase-history-row").filter({ hasText: cancelled }).getByText("キャンセル").waitFor();
    expect(await headerPoints(member)).toBe("1,100pt");
  });
});
