import { MAIL_SUBJECTS } from "@enmusubi/api/testing";
import { MSG } from "@enmusubi/shared";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { hasChromium, loginThroughUi, settle, useE2E } from "./harness";

/**
 * Age verification in the browser (decision 0006): a member who just signed up is told by a banner
 * that writing and reading members' messages need verification (a locked message offers the way
 * to verify instead of a reply that would fail), submits an ID photo, an administrator approves it
 * in the queue, and the member then reads and writes.
 */

const e2e = useE2E();

const EMAIL = "verify-me@example.jp";
const PEER_PASSWORD = "peer-pass-123";
const menuLink = (page: Page, name: RegExp) =>
  page.getByRole("navigation", { name: "会員メニュー" }).getByRole("link", { name });

async function idPhoto(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="400"><rect width="640" height="400" fill="#e8f0ff"/><rect x="20" y="20" width="180" height="220" fill="#9ab"/><text x="240" y="120" font-size="36" fill="#123">DRIVER LICENSE</text><text x="240" y="200" font-size="28" fill="#123">1990-05-01</text></svg>`;
  return sharp(Buffer.from(svg)).jpeg().toBuffer();
}

describe.skipIf(!hasChromium)("age verification in the browser", () => {
  let userID = "";
  let password = "";
  let peerId = "";
  let admin = "";

  // Seeding, before the tests: the peer, a member an administrator made (so verified).
  beforeAll(async () => {
    admin = await e2e.token(e2e.admin.userID, e2e.admin.password);
    const peer = await e2e.call<{ id: string }>(admin, "adminUsers.create", {
      userID: "verifypeer",
      password: PEER_PASSWORD,
      name: "先輩 花子",
      email: "verifypeer@example.jp",
      gender: "female",
    });
    peerId = peer.id;
  });

  it("a new member is told, not failed: banner, locked message with the way to verify", async () => {
    // Sign up through the screen; the credentials come by mail.
    const setup = await e2e.page();
    await e2e.visit(setup, "/signup", "男性会員登録");
    await setup.getByLabel("メールアドレス").fill(EMAIL);
    await setup.getByRole("checkbox", { name: /利用規約/ }).check();
    await setup.getByRole("checkbox", { name: /18歳以上/ }).check();
    await setup.getByRole("button", { name: "登録する" }).click();
    const mail = await e2e.waitForMail(EMAIL);
    userID = /ユーザーID: (\S+)/.exec(mail.text)?.[1] ?? "";
    password = /パスワード: (\S+)/.exec(mail.text)?.[1] ?? "";
    await setup.close();
    const memberToken = await e2e.token(userID, password);
    const me = await e2e.call<{ id: string }>(memberToken, "profile.me", undefined, "GET");
    // The sign-up bonus, which pays for reading and writing below, waits for the phone (decision 0048).
    const phone = "+819037512345";
    const sent = e2e.smsCount();
    await e2e.call(memberToken, "phone.requestCode", { phone });
    await e2e.call(memberToken, "phone.confirmCode", { code: await e2e.waitForSmsCode(phone, { after: sent }) });

    // The peer (verified: created by an administrator) may not write to a member who cannot read
    // (decision 0025: refused before any charge) ...
    const peerToken = await e2e.token("verifypeer", PEER_PASSWORD);
    await expect(
      e2e.call(peerToken, "messages.send", { recipientIds: [me.id], body: "はじめまして、よろしくお願いします。" }),
    ).rejects.toThrow(MSG.recipientCannotRead);
    // ... so the member's message waiting for them is written as the peer by the operator (free).
    await e2e.call(admin, "adminMessages.sendAsUser", {
      fromUserId: peerId,
      toUserId: me.id,
      body: "はじめまして、よろしくお願いします。",
    });

    for (const width of [375, 1280]) {
      const page = await e2e.page(width);
      await loginThroughUi(page, e2e.baseUrl, userID, password);
      const banner = page.getByTestId("verification-banner");
      await banner.waitFor();
      expect(await banner.getAttribute("data-status")).toBe("unverified");
      await banner.getByText(MSG.verificationBannerUnverified).waitFor();
      await settle(page);
      await e2e.screenshot(page, "verification-banner");
      await page.close();
    }

    const page = await e2e.page();
    await loginThroughUi(page, e2e.baseUrl, userID, password);
    await menuLink(page, /^未読/).click();
    await page.getByRole("heading", { name: "未読メッセージ" }).waitFor();
    const card = page.getByTestId("message-card").filter({ hasText: "先輩 花子" });
    await card.waitFor();
    // The body stays on the server; the notice and the way to verify are shown instead of a reply.
    await card.getByText(MSG.lockedMessageNotice).waitFor();
    expect(await page.getByText("はじめまして、よろしくお願いします。").count()).toBe(0);
    expect(await card.getByRole("button", { name: "返信" }).count()).toBe(0);
    await settle(page);
    await e2e.screenshot(page, "verification-locked-message");
    // Trying to write from the sent screen: the dialog says why and links to the page, sending disabled.
    await menuLink(page, /^送信/).click();
    await page.getByRole("heading", { name: "送信メッセージ" }).waitFor();
    await page.getByRole("button", { name: "一括送信" }).click();
    const compose = await e2e.dialog(page, "一括送信", "member bulk send (not verified)");
    await compose.getByTestId("send-lock-notice").waitFor();
    await compose.getByText("年齢確認が完了するまで送信できません。").waitFor();
    await compose.getByLabel("メッセージ").fill("こんにちは");
    expect(await compose.getByRole("button", { name: "送信", exact: true }).isDisabled()).toBe(true);
    await e2e.screenshot(page, "verification-compose-locked");
    await compose.getByRole("button", { name: "キャンセル" }).click();
    await compose.waitFor({ state: "detached" });
    await menuLink(page, /^未読/).click();
    await card.waitFor();
    // Writing anyway (an API client) is refused with the message that points to the page.
    await expect(
      e2e.call(memberToken, "messages.send", { recipientIds: [peerId], body: "こんにちは" }),
    ).rejects.toThrow(/\/user\/verification/);
    await card.getByRole("link", { name: "年齢確認して読む" }).click();
    await page.waitForURL(/\/user\/verification$/);
    await page.getByRole("heading", { name: "年齢確認", exact: true }).waitFor();
    await e2e.screen(page, "member verification page");
  });

  it("the member submits an ID photo (preview, then 審査中)", async () => {
    for (const width of [375, 1280]) {
      const page = await e2e.page(width);
      await loginThroughUi(page, e2e.baseUrl, userID, password);
      await e2e.visit(page, "/user/verification", "なぜ年齢確認が必要なのですか", "member verification page");
      await page.getByTestId("verification-status").waitFor();
      await settle(page);
      await e2e.screenshot(page, "verification-page");
      if (width === 375) {
        await page.close();
        continue;
      }
      expect(await page.getByTestId("verification-submit").isDisabled()).toBe(true);
      await page.locator('input[type="file"]').setInputFiles({
        name: "license.jpg",
        mimeType: "image/jpeg",
        buffer: await idPhoto(),
      });
      await page.getByTestId("verification-preview").waitFor();
      await e2e.screenshot(page, "verification-preview");
      await page.getByTestId("verification-submit").click();
      await page.getByText(MSG.verificationSubmitted).first().waitFor();
      await expect.poll(() => page.getByTestId("verification-status").getAttribute("data-status")).toBe("pending");
      await page.getByTestId("verification-status").getByText("審査中", { exact: true }).waitFor();
      await expect.poll(() => page.getByTestId("verification-banner").getAttribute("data-status")).toBe("pending");
      await page.getByTestId("verification-banner").getByText(MSG.verificationBannerPending).waitFor();
      // Nothing more to submit while pending.
      expect(await page.getByTestId("verification-submit").count()).toBe(0);
      await settle(page);
      await e2e.screenshot(page, "verification-pending");
    }
  });

  it("the administrator approves it in the queue; the image is gone; the member is mailed", async () => {
    for (const width of [375, 1280]) {
      const page = await e2e.page(width);
      await loginThroughUi(page, e2e.baseUrl, e2e.admin.userID, e2e.admin.password);
      await e2e.visit(page, "/admin/verification", "審査待ち", "admin verification queue");
      const entry = page.getByTestId("verification-entry").filter({ hasText: userID });
      await entry.waitFor();
      await entry.getByTestId("verification-image").waitFor();
      await settle(page);
      await e2e.screenshot(page, "admin-verification-queue");
      if (width === 375) {
        // The reject dialog (opened and cancelled): a reason is required.
        await entry.getByRole("button", { name: "却下する" }).click();
        const dialog = await e2e.dialog(page, "年齢確認の却下", "admin verification reject");
        await dialog.getByRole("button", { name: "却下する" }).click();
        await dialog.getByText(MSG.rejectReasonRequired).waitFor();
        await e2e.screenshot(page, "admin-verification-reject");
        await dialog.getByRole("button", { name: "キャンセル" }).click();
        await dialog.waitFor({ state: "detached" });
        await page.close();
        continue;
      }
      const imageId = await e2e
        .call<{ entries: Array<{ id: string; user: { userID: string } }> }>(
          admin,
          "adminVerification.queue",
          { page: 1 },
          "GET",
        )
        .then((q) => q.entries.find((e) => e.user.userID === userID)?.id ?? "");
      await entry.getByRole("button", { name: "承認する" }).click();
      const confirm = await e2e.dialog(page, "年齢確認の承認", "admin verification approve");
      // The member registered no birth date: the one read from the ID is required (decision 0043).
      await confirm.getByRole("button", { name: "承認する" }).click();
      await confirm.getByText(MSG.idBirthdayRequired).waitFor();
      const birthday = confirm.getByLabel("身分証の生年月日");
      const minor = new Date();
      minor.setFullYear(minor.getFullYear() - 17);
      await birthday.fill(minor.toISOString().slice(0, 10));
      await birthday.press("Tab");
      await confirm.getByRole("button", { name: "承認する" }).click();
      await confirm.getByText(MSG.idBirthdayUnderAge).waitFor();
      await e2e.screenshot(page, "admin-verification-approve-under-age");
      await birthday.fill("1992-07-07");
      await birthday.press("Tab");
      await confirm.getByRole("button", { name: "承認する" }).click();
      await page.getByText(MSG.verificationApproved).first().waitFor();
      await page.getByText("審査待ちの申請はありません").waitFor();
      await e2e.screenshot(page, "admin-verification-empty");
      // The image was deleted with the approval.
      const image = await fetch(`${e2e.baseUrl}/api/admin/verifications/${imageId}/image`, {
        headers: { authorization: `Bearer ${admin}` },
      });
      expect(image.status).toBe(404);
    }
    await expect
      .poll(() => e2e.mails.some((m) => m.to === EMAIL && m.subject === MAIL_SUBJECTS.verificationApproved), {
        timeout: 15_000,
      })
      .toBe(true);
  });

  it("the member, now verified, reads the message and writes", async () => {
    const page = await e2e.page();
    await loginThroughUi(page, e2e.baseUrl, userID, password);
    await page.getByTestId("dashboard-points").waitFor();
    await settle(page);
    expect(await page.getByTestId("verification-banner").count()).toBe(0);
    await menuLink(page, /^未読/).click();
    const card = page.getByTestId("message-card").filter({ hasText: "先輩 花子" });
    // Readable now, and sealed until opened (decision 0027): the preview line, then the paid open.
    await card.getByText("はじめまして、よろ…").waitFor();
    await card.getByTestId("message-preview").click();
    const confirmOpen = await e2e.dialog(page, "ポイントの消費");
    await confirmOpen.getByRole("button", { name: "続ける" }).click();
    const detail = await e2e.dialog(page, "メッセージの詳細");
    await detail.getByTestId("message-detail-body").getByText("はじめまして、よろしくお願いします。").waitFor();
    await detail.getByRole("button", { name: "返信" }).click();
    const reply = await e2e.dialog(page, "先輩 花子さんへ返信", "member reply");
    await reply.getByLabel("メッセージ").fill("ありがとうございます。こちらこそよろしくお願いします。");
    await reply.getByRole("button", { name: "返信", exact: true }).click();
    const confirm = await e2e.dialog(page, "ポイントの消費");
    await confirm.getByRole("button", { name: "続ける" }).click();
    await page.getByText(MSG.messageSent).first().waitFor();
    await e2e.screenshot(page, "verification-verified-reply");
    const peerToken = await e2e.token("verifypeer", PEER_PASSWORD);
    const inbox = await e2e.call<{ messages: Array<{ preview: string | null }> }>(
      peerToken,
      "messages.list",
      { box: "inbox" },
      "GET",
    );
    // Not opened by the peer yet: listed with its preview line (decision 0027).
    const replyText = "ありがとうございます。こちらこそよろしくお願いします。";
    expect(inbox.messages.map((m) => m.preview)).toContain(`${replyText.slice(0, 13)}…`);
  });
});
