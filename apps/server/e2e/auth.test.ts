import { describe, expect, it } from "vitest";
import { hasChromium, loginThroughUi, useE2E } from "./harness";

const e2e = useE2E();

describe.skipIf(!hasChromium)("authentication in the browser", () => {
  it("signs a member up with the mail captured, then the member logs in and lands on /user", async () => {
    const page = await e2e.page();
    await page.goto(`${e2e.baseUrl}/login`);
    await page.getByRole("button", { name: "女性" }).click();
    await page.waitForURL(/\/signup/);
    await expect(page.getByText("女性会員登録").first().isVisible()).resolves.toBe(true);
    await page.getByLabel("メールアドレス").fill("hanako@example.jp");
    await page.getByRole("button", { name: "登録する" }).click();
    const success = page.getByText(/完了/).first();
    await success.waitFor();
    const color = await success.evaluate((el) => getComputedStyle(el).color);
    const [r, g, b] = (color.match(/\d+/g) ?? []).map(Number) as [number, number, number];
    expect(g).toBeGreaterThan(r);
    expect(g).toBeGreaterThan(b);
    await page.waitForURL(/\/login$/, { timeout: 6000 });

    const mail = await e2e.waitForMail("hanako@example.jp");
    expect(mail.subject).toContain("会員登録");
    const userID = /ユーザーID: (\S+)/.exec(mail.text)?.[1] ?? "";
    const password = /パスワード: (\S+)/.exec(mail.text)?.[1] ?? "";
    expect(userID).not.toBe("");
    await loginThroughUi(page, e2e.baseUrl, userID, password);
    expect(new URL(page.url()).pathname).toMatch(/^\/user/);
    await page.getByText("100").first().waitFor();
    await e2e.screenshot(page, "member-dashboard");

    // A member who opens an admin route is sent home.
    await page.goto(`${e2e.baseUrl}/admin/user-management`);
    await page.waitForURL(/\/user(\/|$)/);

    // Logout removes the session and returns to /login; guarded routes then redirect there.
    await page.getByRole("button", { name: "ログアウト" }).first().click();
    await page.waitForURL(/\/login$/);
    expect(await page.evaluate(() => [localStorage.getItem("token"), localStorage.getItem("role")])).toEqual([
      null,
      null,
    ]);
    await page.goto(`${e2e.baseUrl}/user/dashboard`);
    await page.waitForURL(/\/login$/);
  });

  it("an administrator lands on /admin and is sent home from member routes", async () => {
    const page = await e2e.page();
    await loginThroughUi(page, e2e.baseUrl, e2e.admin.userID, e2e.admin.password);
    expect(new URL(page.url()).pathname).toMatch(/^\/admin/);
    await page.goto(`${e2e.baseUrl}/user/dashboard`);
    await page.waitForURL(/\/admin(\/|$)/);
    await e2e.screenshot(page, "admin-home");
    await page.getByRole("button", { name: "ログアウト" }).first().click();
    await page.waitForURL(/\/login$/);
  });

  it("shows the spec's message on wrong credentials", async () => {
    const page = await e2e.page();
    await page.goto(`${e2e.baseUrl}/login`);
    await page.getByLabel("ユーザーID").fill(e2e.admin.userID);
    await page.getByLabel("パスワード").fill("not-the-password");
    await page.getByRole("button", { name: "ログイン", exact: true }).click();
    await page.getByText("ログインに失敗しました。").waitFor();
    expect(new URL(page.url()).pathname).toBe("/login");
  });

  it("reissues a password through the forgot-password modal", async () => {
    const page = await e2e.page();
    await page.goto(`${e2e.baseUrl}/signup`, { waitUntil: "networkidle" });
    await page.getByLabel("メールアドレス").fill("taro@example.jp");
    await page.getByRole("button", { name: "登録する" }).click();
    const first = await e2e.waitForMail("taro@example.jp");
    const userID = /ユーザーID: (\S+)/.exec(first.text)?.[1] ?? "";

    await page.goto(`${e2e.baseUrl}/login`);
    await page.getByText("パスワードをお忘れの方はこちら").click();
    const dialog = await e2e.dialog(page, "パスワードの再発行");
    const confirm = dialog.getByRole("button", { name: "確認" });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel("ユーザーID").fill(userID);
    await dialog.getByLabel("メールアドレス").fill("   ");
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel("メールアドレス").fill("taro@example.jp");
    await confirm.click();
    await dialog.waitFor({ state: "detached", timeout: 5000 });

    const deadline = Date.now() + 15_000;
    while (e2e.mails.filter((m) => m.to === "taro@example.jp").length < 2 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
    }
    const second = e2e.mails.filter((m) => m.to === "taro@example.jp")[1];
    expect(second?.subject).toContain("パスワード再発行");
    const password = /パスワード: (\S+)/.exec(second?.text ?? "")?.[1] ?? "";
    await loginThroughUi(page, e2e.baseUrl, userID, password);
    expect(new URL(page.url()).pathname).toMatch(/^\/user/);
  });

  it("renders the public pages at 375 px and 1280 px", async () => {
    const pages = [
      ["login", "/login", "ユーザーID"],
      ["signup", "/signup", "男性会員登録"],
      ["legal-age-verification", "/legal/age-verification", "2025年8月20日"],
      ["legal-terms-of-service", "/legal/terms-of-service", "2025年8月20日"],
      ["legal-transaction-law", "/legal/transaction-law", "特定商取引法"],
      ["legal-privacy-policy", "/legal/privacy-policy", "2025年8月20日"],
    ] as const;
    for (const width of [375, 1280]) {
      const page = await e2e.page(width);
      for (const [name, route, text] of pages) {
        await page.goto(`${e2e.baseUrl}${route}`);
        await page.getByText(text).first().waitFor();
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${route} overflows horizontally at ${width}px`).toBeLessThanOrEqual(0);
        await e2e.screenshot(page, name);
      }
    }
  });
});
