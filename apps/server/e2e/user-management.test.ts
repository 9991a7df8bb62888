import { TRPC_MAX_URL_LENGTH } from "@enmusubi/shared";
import { beforeAll, describe, expect, it } from "vitest";
import { hasChromium, loginThroughUi, settle, useE2E } from "./harness";
import { inViewport, noSidewaysScroll } from "./viewport";

/**
 * User management with a full page (50 rows): every member row draws its 利用停止 / 停止解除
 * button. Each row read its standing in its own query, batched into one GET whose path passed the
 * server's limit (414), and the buttons drew nothing (decision 0014). No request of the page may be
 * refused or longer than the web app's batches are allowed to be. At 320 px each user is a card
 * with its buttons in view (the table hid them behind a sideways scroll).
 */
const e2e = useE2E();

const MEMBERS = 55;
const SUSPENDED = new Set([3, 17, 42]);

describe.skipIf(!hasChromium)("user management with a full page", () => {
  // Seeding, before the tests: 55 members, three of them suspended.
  beforeAll(async () => {
    const admin = await e2e.token(e2e.admin.userID, e2e.admin.password);
    for (let start = 0; start < MEMBERS; start += 5) {
      await Promise.all(
        Array.from({ length: Math.min(5, MEMBERS - start) }, async (_, k) => {
          const i = start + k;
          const userID = `row${String(i).padStart(2, "0")}`;
          const created = await e2e.call<{ id: string }>(admin, "adminUsers.create", {
            userID,
            password: "member-pass-1",
            name: `会員${i}`,
            email: `${userID}@example.jp`,
          });
          if (SUSPENDED.has(i)) {
            await e2e.call(admin, "adminModeration.suspend", { userId: created.id, reason: "テスト" });
          }
        }),
      );
    }
  });

  it("at 1280 px every member row of a 50-row page has its 利用停止 or 停止解除 button", async () => {
    const page = await e2e.page(1280);
    const refused: string[] = [];
    const tooLong: string[] = [];
    page.on("request", (request) => {
      const url = new URL(request.url());
      const relative = `${url.pathname}${url.search}`;
      if (url.pathname.startsWith("/trpc/") && relative.length > TRPC_MAX_URL_LENGTH) tooLong.push(relative);
    });
    page.on("response", (response) => {
      if (response.url().includes("/trpc/") && response.status() >= 400) {
        refused.push(`${response.status()} ${response.url().slice(0, 120)}`);
      }
    });
    await loginThroughUi(page, e2e.baseUrl, e2e.admin.userID, e2e.admin.password);
    await e2e.visit(page, "/admin/user-management", "ユーザー管理", "user management full page");
    const rows = page.locator("tr[data-userid]");
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(50);
    const memberIds = (await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-userid") ?? ""))).filter(
      (id) => id.startsWith("row"),
    );
    expect(memberIds.length).toBeGreaterThanOrEqual(49);
    for (const userID of memberIds) {
      const row = page.locator(`tr[data-userid="${userID}"]`);
      const suspended = SUSPENDED.has(Number(userID.slice(3)));
      const name = suspended ? `${userID}の停止解除` : `${userID}を利用停止`;
      await row.getByRole("button", { name, exact: true }).waitFor({ timeout: 5_000 });
    }
    await settle(page);
    await e2e.screenshot(page, "user-management-full-page");
    expect(refused).toEqual([]);
    expect(tooLong).toEqual([]);

    // The second page too (the remaining members and the administrator).
    await page.getByRole("button", { name: "2ページ目", exact: true }).click();
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(MEMBERS + 1 - 50);
    for (const userID of (
      await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-userid") ?? ""))
    ).filter((id) => id.startsWith("row"))) {
      const suspended = SUSPENDED.has(Number(userID.slice(3)));
      const name = suspended ? `${userID}の停止解除` : `${userID}を利用停止`;
      await page.locator(`tr[data-userid="${userID}"]`).getByRole("button", { name, exact: true }).waitFor();
    }
    expect(refused).toEqual([]);
  });

  it("at 320 px each user is a card with its buttons in view and working, and nothing scrolls sideways", async () => {
    const page = await e2e.page(320);
    await loginThroughUi(page, e2e.baseUrl, e2e.admin.userID, e2e.admin.password);
    await e2e.visit(page, "/admin/user-management", "ユーザー管理", "user management at 320 px");
    const card = page.locator('[data-userid^="row"]').first();
    await card.waitFor();
    const userID = (await card.getAttribute("data-userid")) ?? "";
    const suspend = SUSPENDED.has(Number(userID.slice(3))) ? `${userID}の停止解除` : `${userID}を利用停止`;
    await noSidewaysScroll(page);
    await card.scrollIntoViewIfNeeded();
    for (const name of ["編集", "履歴", "メッセージ", suspend, "削除", `${userID}の送信ポイントを編集`])
      await inViewport(page, card.getByRole("button", { name, exact: true }));
    expect(await page.getByRole("table", { name: "ユーザー一覧" }).count()).toBe(0);
    await settle(page);
    await e2e.screenshot(page, "user-management-cards");
    await card.getByRole("button", { name: "編集", exact: true }).click();
    const dialog = await e2e.dialog(page, `ユーザー編集: ${userID}`, "edit user at 320 px");
    await dialog.getByLabel("名前").waitFor();
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    await card.getByRole("button", { name: "履歴", exact: true }).click();
    await e2e.dialog(page, `ポイント履歴: ${userID}`, "ledger at 320 px");
  });
});
