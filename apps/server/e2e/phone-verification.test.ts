import { MSG, PHONE_VERIFICATION, phoneCodeWrongLeft, TERMS_VERSION } from "@enmusubi/shared";
import { describe, expect, it } from "vitest";
import { checkScreen, hasChromium, loginThroughUi, useE2E } from "./harness";

/**
 * Phone verification in the browser at 375 px (decision 0048): a member who signed up by
 * themselves sees on the dashboard what verifying unlocks, opens 電話番号認証, types a number in
 * full-width digits, reads the code from the development sink (DATA_DIR/sms), gets a wrong code
 * refused in Japanese, then verifies with the right one: the sign-up bonus (100 free points) shows
 * on the dashboard. Every screen visited is checked by axe and the layout guard.
 */
const e2e = useE2E();
let verifiedUserID = "";

describe.skipIf(!hasChromium)("phone verification in the browser", () => {
  it("at 375 px: dashboard reminder → number → code from DATA_DIR/sms → verified, the sign-up bonus credited", async () => {
    const email = "phone375@example.jp";
    const joined = await fetch(`${e2e.baseUrl}/trpc/auth.join`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        json: { email, gender: "male", acceptTerms: true, adult: true, termsVersion: TERMS_VERSION },
      }),
    });
    expect(joined.ok).toBe(true);
    const mail = await e2e.waitForMail(email);
    const userID = /ユーザーID: (\S+)/.exec(mail.text)?.[1] ?? "";
    verifiedUserID = userID;
    const password = /パスワード: (\S+)/.exec(mail.text)?.[1] ?? "";
    expect(mail.text).toContain("携帯電話番号の確認（SMS認証）");

    const page = await e2e.page(375, { touch: true });
    await loginThroughUi(page, e2e.baseUrl, userID, password, { consent: false });
    await page.getByTestId("phone-notice").waitFor();
    expect(await page.getByTestId("dashboard-points").textContent()).toBe("0pt");
    expect(await page.getByTestId("phone-notice").textContent()).toContain("登録特典100pt");
    await checkScreen(page, "dashboard (phone not verified)");
    await e2e.screenshot(page, "phone-dashboard-reminder");

    await page.getByRole("link", { name: "電話番号を認証する" }).click();
    await page.getByRole("heading", { name: "電話番号認証", level: 2 }).waitFor();
    await page.getByLabel(/携帯電話番号/).waitFor();
    await checkScreen(page, "phone verification (number)");

    // Not a mobile number: refused in Japanese, nothing sent.
    await page.getByLabel(/携帯電話番号/).fill("03-1234-5678");
    await page.getByRole("button", { name: "確認コードを送信" }).click();
    await page.getByTestId("phone-error").getByText(MSG.phoneInvalid).waitFor();
    await checkScreen(page, "phone verification (invalid number)");
    expect(e2e.smsCount()).toBe(0);

    const before = e2e.smsCount();
    await page.getByLabel(/携帯電話番号/).fill("０９０ー３７５０ー００７５");
    await page.getByRole("button", { name: "確認コードを送信" }).click();
    await page.getByTestId("phone-code-sent").waitFor();
    expect(await page.getByTestId("phone-code-sent").textContent()).toContain("090-3750-0075");
    // The resend waits, and says how long.
    await page.getByRole("button", { name: /再送信まであと\d+秒/ }).waitFor();
    await checkScreen(page, "phone verification (code)");
    await e2e.screenshot(page, "phone-verification-code");
    const code = await e2e.waitForSmsCode("+819037500075", { after: before });

    const wrong = code === "000000" ? "111111" : "000000";
    await page.getByLabel(/確認コード/).fill(wrong);
    await page.getByRole("button", { name: "認証する" }).click();
    await page
      .getByTestId("phone-error")
      .getByText(phoneCodeWrongLeft(PHONE_VERIFICATION.maxAttempts - 1))
      .waitFor();
    await checkScreen(page, "phone verification (wrong code)");

    await page.getByLabel(/確認コード/).fill(code);
    await page.getByRole("button", { name: "認証する" }).click();
    await page.getByTestId("phone-verified").waitFor();
    expect(await page.getByTestId("phone-verified").textContent()).toContain("090-****-0075");
    await page.getByText("登録特典は受け取り済みです").waitFor();
    await checkScreen(page, "phone verification (verified)");
    await e2e.screenshot(page, "phone-verification-done");

    await e2e.visit(page, "/user/dashboard", "ダッシュボード", "dashboard (phone verified)");
    await expect.poll(() => page.getByTestId("dashboard-points").textContent()).toBe("100pt");
    expect(await page.getByTestId("phone-notice").count()).toBe(0);
  });

  it("at 375 px an administrator sees the member's phone, clears it (asked first), and sets the login bonus", async () => {
    expect(verifiedUserID).not.toBe("");
    const page = await e2e.page(375);
    await loginThroughUi(page, e2e.baseUrl, e2e.admin.userID, e2e.admin.password);
    await e2e.visit(page, "/admin/user-management", "ユーザー管理", "user management (phone)");
    const card = page.locator(`[data-userid="${verifiedUserID}"]`);
    await card.getByRole("button", { name: /電話認証（認証済み）/ }).click();
    const dialog = await e2e.dialog(page, /電話番号認証/, "dialog 電話番号認証");
    await dialog.getByTestId("admin-phone-number").getByText("090-3750-0075").waitFor();
    await dialog.getByRole("button", { name: "認証を解除" }).click();
    const confirm = await e2e.dialog(page, "電話番号認証の解除", "dialog 電話番号認証の解除");
    await confirm.getByRole("button", { name: "認証を解除" }).click();
    await page.getByText(MSG.phoneCleared).waitFor();
    await dialog.getByText("未認証").waitFor();
    await checkScreen(page, "dialog 電話番号認証 (cleared)");

    await e2e.visit(page, "/admin/point-costs", "ログインボーナス", "point costs (login bonus)");
    await page.getByLabel("1日のログインボーナス（pt）").fill("5");
    await page.getByRole("button", { name: "保存" }).click();
    await page.getByText(MSG.loginBonusSaved).waitFor();
    await checkScreen(page, "point costs (login bonus saved)");
  });
});
