import { MSG } from "@enmusubi/shared";
import { describe, expect, it } from "vitest";
import { apiToken, hasChromium, loginThroughUi, trpcCall, useE2E } from "./harness";

/**
 * The settings screen and the new-message notice mail (decision 0033) in the browser,
 * at 375 and 1280 px: change the password and sign in with the new one; turn the notice off and
 * on; another member writes and the notice mail arrives (sender's name, a link, never the body);
 * its stop link works once and says so the second time. Every screen is checked by axe.
 */
const e2e = useE2E();

const call = <T>(token: string, path: string, input: unknown) => trpcCall<T>(e2e.baseUrl, token, path, input);

describe.skipIf(!hasChromium)("settings and the notice mail", () => {
  for (const width of [375, 1280]) {
    it(`walks the settings at ${width} px and follows a notice's stop link`, async () => {
      const admin = await apiToken(e2e.baseUrl, e2e.admin.userID, e2e.admin.password);
      const userID = `notice${width}`;
      const email = `${userID}@example.jp`;
      const create = (id: string, name: string) =>
        call<{ id: string }>(admin, "adminUsers.create", {
          userID: id,
          password: "first-pass-1",
          name,
          email: `${id}@example.jp`,
          gender: "female",
        });
      const { id: myId } = await create(userID, "通知 花子");
      const writer = await create(`writer${width}`, "送信 太郎");

      // The password: current one required; the screen says other devices are signed out.
      const page = await e2e.page(width);
      await loginThroughUi(page, e2e.baseUrl, userID, "first-pass-1");
      await e2e.visit(page, "/user/profile-settings", "パスワードの変更", "settings");
      await page.getByText("この端末以外でログインしている端末はすべてログアウトされます").waitFor();
      const passwordCard = page.getByRole("region", { name: "パスワードの変更" });
      await passwordCard.getByLabel("現在のパスワード").fill("wrong-pass-1");
      await passwordCard.getByLabel(/^新しいパスワード\s*\*?$/).fill("second-pass-2");
      await passwordCard.getByLabel("新しいパスワード（確認）").fill("second-pass-2");
      await passwordCard.getByRole("button", { name: "パスワードを変更" }).click();
      await passwordCard.getByText(MSG.currentPasswordWrong).waitFor();
      await e2e.screen(page, "settings password refused");
      await passwordCard.getByLabel("現在のパスワード").fill("first-pass-1");
      await passwordCard.getByRole("button", { name: "パスワードを変更" }).click();
      await passwordCard.getByText(MSG.passwordChanged).waitFor();
      await e2e.screenshot(page, "settings-password-changed");

      // The notice: off, then on again.
      const toggle = page.getByRole("switch", { name: "新着メッセージをメールで通知する" });
      await expect.poll(() => toggle.isChecked()).toBe(true);
      await toggle.click({ force: true });
      await page.getByText(MSG.noticeMailOff).waitFor();
      await expect.poll(() => toggle.isChecked()).toBe(false);
      await toggle.click({ force: true });
      await page.getByText(MSG.noticeMailOn).waitFor();
      await expect.poll(() => toggle.isChecked()).toBe(true);

      // Signed in again with the new password (the old one no longer works).
      await page.context().clearCookies();
      await page.evaluate(() => localStorage.clear());
      await loginThroughUi(page, e2e.baseUrl, userID, "second-pass-2");
      await page.getByTestId("dashboard-points").waitFor();

      // Another member writes (as the member, by an administrator): the notice mail arrives.
      await call(admin, "adminMessages.sendAsUser", {
        fromUserId: writer.id,
        toUserId: myId,
        body: "本文は通知に載りません",
      });
      const notice = await e2e.waitForMail(email, 60_000);
      expect(notice.subject).toBe("【縁結び】新着メッセージが1件あります");
      expect(notice.text).toContain("送信 太郎さん");
      expect(notice.text).not.toContain("本文は通知に載りません");
      const stopLink = /https?:\/\/\S+\/notice-mail\/stop\?token=\S+/.exec(notice.text)?.[0];
      expect(stopLink).toBeTruthy();
      const stopUrl = new URL(stopLink ?? "");

      // The stop link, without a login: works once, then says it was used.
      const visitor = await e2e.page(width);
      await e2e.visit(visitor, `/notice-mail/stop${stopUrl.search}`, MSG.noticeStopDone, "notice stop");
      await e2e.screenshot(visitor, "notice-stop-done");
      await visitor.goto(`${e2e.baseUrl}/notice-mail/stop${stopUrl.search}`);
      await visitor.getByText(MSG.noticeStopUsed).waitFor();
      await visitor.goto(`${e2e.baseUrl}/notice-mail/stop?token=broken`);
      await visitor.getByText(MSG.noticeStopInvalid).waitFor();
      await e2e.screen(visitor, "notice stop invalid");
      // The member's setting now says off.
      await page.goto(`${e2e.baseUrl}/user/profile-settings`);
      await expect.poll(() => toggle.isChecked()).toBe(false);
    }, 180_000);
  }
});
