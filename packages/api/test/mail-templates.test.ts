import { FREE_POINT_VALIDITY_DAYS, SIGNUP_BONUS_POINTS } from "@enmusubi/shared";
import { describe, expect, it } from "vitest";
import { SECRET_PLACEHOLDER } from "../src/mail/outbox";
import {
  alreadyRegisteredMail,
  emailChangeConfirmMail,
  emailChangedMail,
  emailChangeRequestedMail,
  inquiryRepliedMail,
  MAIL_FOOTER,
  MAIL_SUBJECTS,
  type MailText,
  newMessagesMail,
  passwordReissueMail,
  pointsExpiringMail,
  profileRejectedMail,
  reportHandledMail,
  signupDoneMail,
  verificationResultMail,
} from "../src/mail/templates";

const URL = "https://enmusubi.example.jp";

/** Every template, filled in once. */
const ALL: Record<string, MailText> = {
  signupDone: signupDoneMail(URL, "hanako01"),
  alreadyRegistered: alreadyRegisteredMail(URL),
  passwordReissue: passwordReissueMail(URL, "hanako01", 24),
  emailChangeConfirm: emailChangeConfirmMail(URL, 24),
  emailChangeRequested: emailChangeRequestedMail(URL, "ha***@example.jp", 24),
  emailChanged: emailChangedMail(URL),
  verificationApproved: verificationResultMail(URL, "approved", null),
  verificationRejected: verificationResultMail(URL, "rejected", "生年月日が読み取れませんでした。"),
  profileRejected: profileRejectedMail(URL, "photo", "other", "補足の文"),
  reportActed: reportHandledMail(URL, "acted"),
  reportNoViolation: reportHandledMail(URL, "noViolation"),
  pointsExpiring: pointsExpiringMail(URL, [{ paid: true, remaining: 40, expiresAt: new Date("2027-01-10T03:00:00Z") }]),
  inquiryReplied: inquiryRepliedMail(URL, "花子", "退会方法"),
  newMessages: newMessagesMail(URL, {
    total: 2,
    senders: "ひかるさん",
    link: `${URL}/user/unread-emails`,
    windowMinutes: 15,
  }),
};

describe("mail templates", () => {
  it("every mail ends with the one footer, once, and carries a 【縁結び】 subject", () => {
    const footer = MAIL_FOOTER.join("\n");
    for (const [name, mail] of Object.entries(ALL)) {
      expect(mail.text.endsWith(`\n${footer}`), name).toBe(true);
      expect(mail.text.split("縁結び (Enmusubi)"), name).toHaveLength(2);
      expect(mail.text, name).not.toContain("縁結び 運営事務局");
      expect(mail.subject.startsWith("【縁結び】"), name).toBe(true);
    }
  });

  it("the sign-up mail: credentials with the password as the secret's placeholder, the free points, the footer", () => {
    expect(ALL.signupDone).toEqual({
      subject: "【縁結び】会員登録が完了しました",
      text: [
        "縁結びへのご登録ありがとうございます。ログイン情報をお送りします。",
        "",
        `ログイン後に携帯電話番号の確認（SMS認証）を済ませると、登録特典として${SIGNUP_BONUS_POINTS}pt（無料ポイント）を差し上げます（1アカウント1回）。無料ポイントの有効期限は付与日から${FREE_POINT_VALIDITY_DAYS}日間です。期限はダッシュボードでご確認いただけます。`,
        "",
        "ユーザーID: hanako01",
        `パスワード: ${SECRET_PLACEHOLDER}`,
        "",
        `ログイン: ${URL}/login`,
        "",
        "ログイン後、ダッシュボードの「プロフィール編集」でパスワードを変更できます。",
        "このメールにお心当たりがない場合は破棄してください。",
        "",
        "縁結び (Enmusubi)",
      ].join("\n"),
    });
  });

  it("the inquiry reply names the inquiry, never the reply, and signs with the common footer", () => {
    expect(ALL.inquiryReplied?.text).toBe(
      [
        "花子 様",
        "",
        "縁結びをご利用いただきありがとうございます。",
        "お問い合わせ「退会方法」に運営事務局から返信がありました。",
        "返信の内容は、ログイン後の「お問い合わせ履歴」でご確認ください。",
        "",
        `${URL}/user/inquiry-history`,
        "",
        "※このメールは送信専用です。ご返信いただいてもお答えできません。",
        "",
        "縁結び (Enmusubi)",
      ].join("\n"),
    );
    expect(inquiryRepliedMail(URL, null, "件名").text.startsWith("会員 様\n")).toBe(true);
  });

  it("the new-message notice counts in its subject and keeps the stop link's token as the secret", () => {
    expect(ALL.newMessages?.subject).toBe(MAIL_SUBJECTS.newMessages(2));
    expect(ALL.newMessages?.subject).toBe("【縁結び】新着メッセージが2件あります");
    expect(ALL.newMessages?.text).toContain(`${URL}/notice-mail/stop?token=${SECRET_PLACEHOLDER}`);
    expect(ALL.newMessages?.text).toContain("※通知は15分に1回までお送りします。");
  });
});
