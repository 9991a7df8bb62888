import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { apiToken, checkScreen, hasChromium, loginThroughUi, trpcCall, useE2E } from "./harness";

/**
 * The operator's back-office (decision 0036) in the browser, at 1280 and 375 px: /admin
 * opens on the dashboard (figures, work waiting, the two charts) with the menu's waiting counts;
 * the user list finds 「佐藤」 by name and tells the total and the matches apart; the filtered
 * members download as CSV with a BOM; a batch send to everyone asks first (focus inside the
 * question, naming the recipients) and shows its progress. Every screen and dialog is checked by axe.
 */
const e2e = useE2E();

const PASSWORD = "member-pass-1";
const BATCH_MEMBERS = 24;

async function adminPage(width: number): Promise<Page> {
  const page = await e2e.page(width);
  await loginThroughUi(page, e2e.baseUrl, e2e.admin.userID, e2e.admin.password);
  return page;
}

describe.skipIf(!hasChromium)("the operator's dashboard and back-office", () => {
  beforeAll(async () => {
    const admin = await apiToken(e2e.baseUrl, e2e.admin.userID, e2e.admin.password);
    const create = (userID: string, name: string) =>
      trpcCall<{ id: string }>(e2e.baseUrl, admin, "adminUsers.create", {
        userID,
        password: PASSWORD,
        name,
        email: `${userID}@example.jp`,
      });
    await create("satohana", "佐藤花子");
    await create("suzuki01", "鈴木一郎");
    for (let start = 1; start <= BATCH_MEMBERS; start += 6) {
      await Promise.all(
        Array.from({ length: 6 }, (_, k) => create(`batch${String(start + k).padStart(2, "0")}`, `会員${start + k}`)),
      );
    }
    // Work waiting: one unread inquiry.
    const member = await apiToken(e2e.baseUrl, "suzuki01", PASSWORD);
    await trpcCall(e2e.baseUrl, member, "inquiries.create", { title: "ポイントについて", message: "教えてください。" });
  }, 120_000);

  for (const width of [1280, 375]) {
    it(`at ${width} px /admin opens on the dashboard, with the work waiting as links and the menu's counts`, async () => {
      const page = await adminPage(width);
      await page.getByRole("heading", { name: "ダッシュボード" }).waitFor();
      expect(new URL(page.url()).pathname).toMatch(/^\/admin\/?$/);
      await page.getByTestId("signups-chart").waitFor();
      await expect.poll(() => page.getByTestId("waiting-inquiries").textContent()).toContain("1件");
      await page.getByText("会員数", { exact: true }).waitFor();
      await checkScreen(page, "dashboard");
      await e2e.screenshot(page, "admin-dashboard");
      if (width < 768) await page.getByRole("button", { name: "メニューを開く" }).click();
      const menu = page.getByRole("navigation", { name: "管理メニュー" });
      await expect
        .poll(() => menu.getByRole("link", { name: /お問い合わせ一覧/ }).textContent())
        .toContain("1件の対応待ち");
      await checkScreen(page, "dashboard with the menu");
      expect(await page.getByTestId("waiting-inquiries").getAttribute("href")).toBe("/admin/inquiry-list");
      if (width >= 768) {
        await page.getByTestId("waiting-inquiries").click();
        await page.waitForURL(/\/admin\/inquiry-list$/);
      }
    });

    it(`at ${width} px the user list finds 佐藤 by name and downloads the matches as CSV`, async () => {
      const page = await adminPage(width);
      await e2e.visit(page, "/admin/user-management", "総ユーザー数", "user management");
      await page.getByLabel("検索キーワード").fill("佐藤");
      await page.getByRole("button", { name: "検索", exact: true }).click();
      await expect.poll(() => page.getByTestId("user-total").textContent()).toMatch(/／該当: 1人$/);
      await page.locator("[data-userid='satohana']").waitFor();
      await checkScreen(page, "user search");
      await e2e.screenshot(page, "admin-user-search");
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("button", { name: "CSVダウンロード" }).click(),
      ]);
      const file = await readFile((await download.path()) as string);
      expect([...file.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const lines = file.toString("utf8").slice(1).split("\r\n").filter(Boolean);
      expect(lines).toHaveLength(2);
      expect(lines[1]).toMatch(/^satohana,佐藤花子,satohana@example\.jp,男性,/);
      await page.getByText("会員一覧をCSVでダウンロードしました。").waitFor();
      await checkScreen(page, "csv download");
    });
  }

  it("at 375 px a batch send to everyone asks first, focus inside the question, and cancelling sends nothing", async () => {
    const page = await adminPage(375);
    await e2e.visit(page, "/admin/sent-messages", "送信済みメッセージ", "sent messages");
    await page.getByRole("button", { name: "一括送信" }).click();
    const modal = await e2e.dialog(page, "一括送信", "batch send");
    await modal.getByLabel("会員24（batch24）").waitFor();
    await modal.getByRole("button", { name: "全て選択" }).click();
    await modal.getByLabel("メッセージ", { exact: true }).fill("メンテナンスのお知らせです。");
    await modal.getByRole("button", { name: "送信", exact: true }).click();
    const question = await e2e.dialog(page, "一括送信の確認", "batch confirmation");
    await question.getByText("26人のユーザーにメッセージを送信しますか？").waitFor();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.closest('[role="dialog"]')?.textContent ?? ""))
      .toContain("26人のユーザーにメッセージを送信しますか？");
    await e2e.screenshot(page, "admin-batch-confirmation");
    await question.getByRole("button", { name: "キャンセル" }).click();
    await question.waitFor({ state: "hidden" });
    await modal.getByRole("button", { name: "送信", exact: true }).waitFor();
  });

  it("at 1280 px the confirmed batch send goes out in parts and says so", async () => {
    const page = await adminPage(1280);
    await e2e.visit(page, "/admin/sent-messages", "送信済みメッセージ", "sent messages");
    await page.getByRole("button", { name: "一括送信" }).click();
    const modal = await e2e.dialog(page, "一括送信", "batch send");
    await modal.getByLabel("会員24（batch24）").waitFor();
    await modal.getByRole("button", { name: "全て選択" }).click();
    await modal.getByLabel("メッセージ", { exact: true }).fill("メンテナンスのお知らせです。");
    await modal.getByRole("button", { name: "送信", exact: true }).click();
    const question = await e2e.dialog(page, "一括送信の確認", "batch confirmation");
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.closest('[role="dialog"]')?.textContent ?? ""))
      .toContain("26人");
    await question.getByRole("button", { name: "送信する" }).click();
    await page.getByText("26人のユーザーにメッセージを送信しました").waitFor({ timeout: 30_000 });
    await checkScreen(page, "batch sent");
  });
});
