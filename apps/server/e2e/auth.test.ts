import { LEGAL, MSG } from "@enmusubi/shared";
import { describe, expect, it } from "vitest";
import { hasChromium, loginThroughUi, useE2E } from "./harness";

const e2e = useE2E();

describe.skipIf(!hasChromium)("authentication in the browser", () => {
  it("signs a member up with the mail captured, then the member logs in and lands on /user", async () => {
    const page = await e2e.page();
    await page.goto(`${e2e.baseUrl}/login`);
    await page.getByRole("button", { name: "女性" }).click();
    await page.waitForURL(/\/signup/);
    await page.getByText("女性会員登録").first().waitFor();
    await page.getByLabel("メールアドレス").fill("hanako@example.jp");
    await page.getByRole("checkbox", { name: /利用規約/ }).check();
    await page.getByRole("checkbox", { name: /18歳以上/ }).check();
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
    // /admin opens on the operator's dashboard (decision 0036).
    await page.getByRole("heading", { name: "ダッシュボード" }).waitFor();
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
    await page.getByRole("checkbox", { name: /利用規約/ }).check();
    await page.getByRole("checkbox", { name: /18歳以上/ }).check();
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
    // The notifications' container is loaded at the visitor's first action on /login (main.tsx).
    await page.getByText(MSG.forgotSent).waitFor();

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

  it("login errors are announced and tied to both fields; signup's back link is a themed link", async () => {
    const page = await e2e.page(375);
    await e2e.visit(page, "/login", "ユーザーID");
    await page.getByRole("button", { name: "ログイン", exact: true }).click();
    const alert = page.getByRole("alert").filter({ hasText: MSG.loginRequired });
    await alert.waitFor();
    const alertId = await alert.getAttribute("id");
    expect(alertId).toBeTruthy();
    for (const label of ["ユーザーID", "パスワード"]) {
      const field = page.getByLabel(new RegExp(`^${label}`));
      expect(await field.getAttribute("aria-invalid")).toBe("true");
      expect(await field.getAttribute("aria-errormessage")).toBe(alertId);
    }
    await e2e.screen(page, "login (error)");

    await e2e.visit(page, "/signup", "男性会員登録");
    await page.getByRole("button", { name: "登録する" }).click();
    const emailError = page.getByText(MSG.emailRequired);
    await emailError.waitFor();
    expect(await emailError.getAttribute("role")).toBe("alert");
    expect(await page.getByLabel("メールアドレス").getAttribute("aria-describedby")).toContain(
      (await emailError.getAttribute("id")) ?? "-",
    );
    await e2e.screen(page, "signup (error)");
    // Not the browser's default blue link: the theme's link colour, like the other links.
    const back = page.getByRole("link", { name: "ログイン画面へ戻る" });
    const color = await back.evaluate((el) => getComputedStyle(el).color);
    const themeLink = await page.evaluate(() => {
      const probe = document.createElement("span");
      probe.style.color = "var(--mantine-color-anchor)";
      document.body.append(probe);
      const value = getComputedStyle(probe).color;
      probe.remove();
      return value;
    });
    expect(color).toBe(themeLink);
    expect(color).not.toBe("rgb(0, 0, 238)");
    expect(await back.getAttribute("class")).toContain("mantine-Anchor-root");
    await back.click();
    await page.waitForURL(/\/login$/);
  });

  it("below 320 px the registration buttons stack at full width instead of shrinking", async () => {
    for (const [width, stacked] of [
      [300, true],
      [375, false],
    ] as const) {
      const page = await e2e.page(width);
      await e2e.visit(page, "/login", "新規会員登録", `login-${width}`);
      const [male, female] = await Promise.all(
        ["男性", "女性"].map((name) => page.getByRole("button", { name, exact: true }).boundingBox()),
      );
      const card = await page.getByRole("heading", { name: "新規会員登録（無料）" }).boundingBox();
      if (!male || !female || !card) throw new Error("missing boxes");
      if (stacked) {
        expect(female.y).toBeGreaterThan(male.y + male.height - 1);
        expect(male.width).toBeGreaterThan(card.width * 0.9);
        expect(female.width).toBeCloseTo(male.width, 0);
      } else {
        expect(female.y).toBeCloseTo(male.y, 0);
        expect(male.width).toBeGreaterThan(card.width * 0.4);
      }
      expect(male.height).toBeGreaterThanOrEqual(36);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await e2e.screenshot(page, "login-registration");
      await page.close();
    }
  });

  it("renders the public pages at 375 px and 1280 px", async () => {
    const pages = [
      ["login", "/login", "ユーザーID"],
      ["signup", "/signup", "男性会員登録"],
      ["legal-age-verification", "/legal/age-verification", LEGAL.lastUpdated],
      ["legal-terms-of-service", "/legal/terms-of-service", LEGAL.lastUpdated],
      ["legal-transaction-law", "/legal/transaction-law", "特定商取引法"],
      ["legal-privacy-policy", "/legal/privacy-policy", LEGAL.lastUpdated],
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
