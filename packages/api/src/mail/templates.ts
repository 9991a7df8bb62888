import {
  FREE_POINT_VALIDITY_DAYS,
  japanDayOf,
  POINT_EXPIRY_NOTICE_DAYS,
  type ProfileRejectReason,
  type ProfileReviewKind,
  profileRejectReasonLabel,
  SIGNUP_BONUS_POINTS,
} from "@enmusubi/shared";
import { SECRET_PLACEHOLDER } from "./outbox";

/**
 * Every mail the service sends: its subject and its text, here and nowhere else. A service picks a
 * template, gives it the facts (addresses, counts, its own time limits) and queues what it answers
 * with `enqueueMail`. Each text ends with the one footer, `MAIL_FOOTER`.
 */

export interface MailText {
  subject: string;
  text: string;
}

export const MAIL_SUBJECTS = {
  signupDone: "【縁結び】会員登録が完了しました",
  signupAlreadyRegistered: "【縁結び】新規登録のお申し込みについて",
  passwordReissue: "【縁結び】パスワード再発行のお知らせ",
  emailChangeConfirm: "【縁結び】メールアドレス変更の確認",
  emailChangeRequested: "【縁結び】メールアドレス変更のお申し込みがありました",
  emailChanged: "【縁結び】メールアドレスが変更されました",
  verificationApproved: "【縁結び】年齢確認が完了しました",
  verificationRejected: "【縁結び】年齢確認が完了しませんでした",
  profileRejected: "【縁結び】プロフィールの変更が承認されませんでした",
  reportHandled: "【縁結び】ご報告への対応について",
  pointsExpiring: "【縁結び】ポイントの有効期限が近づいています",
  inquiryReplied: "【縁結び】お問い合わせへの返信のお知らせ",
  /** The new-message notice names the count: `newMessages(3)`. */
  newMessages: (total: number) => `【縁結び】新着メッセージが${total}件あります`,
} as const;

/** The last lines of every mail. */
export const MAIL_FOOTER = ["", "縁結び (Enmusubi)"] as const;

/** A mail's text: its lines, then the footer. */
const withFooter = (lines: readonly string[]) => [...lines, ...MAIL_FOOTER].join("\n");

// ---- accounts -----------------------------------------------------------------------------------

/** What a new member is told about the points they start with: free points and their validity. */
function welcomePointsText(): string {
  return `ログイン後に携帯電話番号の確認（SMS認証）を済ませると、登録特典として${SIGNUP_BONUS_POINTS}pt（無料ポイント）を差し上げます（1アカウント1回）。無料ポイントの有効期限は付与日から${FREE_POINT_VALIDITY_DAYS}日間です。期限はダッシュボードでご確認いただけます。`;
}

/** The user ID and the password (the mail's secret, written as SECRET_PLACEHOLDER), after `intro`. */
function credentialsText(publicUrl: string, userID: string, intro: string) {
  return withFooter([
    intro,
    "",
    `ユーザーID: ${userID}`,
    `パスワード: ${SECRET_PLACEHOLDER}`,
    "",
    `ログイン: ${publicUrl}/login`,
    "",
    "ログイン後、ダッシュボードの「プロフィール編集」でパスワードを変更できます。",
    "このメールにお心当たりがない場合は破棄してください。",
  ]);
}

export const signupDoneMail = (publicUrl: string, userID: string): MailText => ({
  subject: MAIL_SUBJECTS.signupDone,
  text: credentialsText(
    publicUrl,
    userID,
    `縁結びへのご登録ありがとうございます。ログイン情報をお送りします。\n\n${welcomePointsText()}`,
  ),
});

/** To the owner of an address someone tried to register again (the form answers as for a new one). */
export const alreadyRegisteredMail = (publicUrl: string): MailText => ({
  subject: MAIL_SUBJECTS.signupAlreadyRegistered,
  text: withFooter([
    "このメールアドレスで縁結びへの新規登録のお申し込みがありましたが、このアドレスは既に登録されています。",
    "",
    "パスワードをお忘れの場合は、ログイン画面の「パスワードをお忘れの方」から再発行できます。",
    `ログイン: ${publicUrl}/login`,
    "",
    "このメールにお心当たりがない場合は破棄してください。お客様の登録内容は変更されていません。",
  ]),
});

/** `pendingHours`: how long the new password can be taken into use. */
export const passwordReissueMail = (publicUrl: string, userID: string, pendingHours: number): MailText => ({
  subject: MAIL_SUBJECTS.passwordReissue,
  text: credentialsText(
    publicUrl,
    userID,
    `パスワードの再発行を受け付けました。新しいログイン情報をお送りします。新しいパスワードは${pendingHours}時間以内に一度ログインすると有効になり、それまでは現在のパスワードもご利用いただけます。`,
  ),
});

/** To the new address: the confirmation link (its token is the mail's secret), valid `hours`. */
export const emailChangeConfirmMail = (publicUrl: string, hours: number): MailText => ({
  subject: MAIL_SUBJECTS.emailChangeConfirm,
  text: withFooter([
    "縁結びのメールアドレス変更のお申し込みを受け付けました。",
    `${hours}時間以内に次のリンクを開くと、このアドレスへの変更が完了します。`,
    "",
    `${publicUrl}/email-change/confirm?token=${SECRET_PLACEHOLDER}`,
    "",
    "お心当たりのない場合は、このメールを破棄してください（変更は行われません）。",
  ]),
});

/** To the current address, at once: a change to `maskedNewAddress` was asked. */
export const emailChangeRequestedMail = (publicUrl: string, maskedNewAddress: string, hours: number): MailText => ({
  subject: MAIL_SUBJECTS.emailChangeRequested,
  text: withFooter([
    `縁結びに登録されたメールアドレスを ${maskedNewAddress} に変更するお申し込みがありました。`,
    `新しいアドレスに送った確認リンクが${hours}時間以内に開かれると、変更が完了します。`,
    "",
    "お心当たりのない場合は、すぐにログインしてパスワードを変更してください（変更手続きは取り消されます）。",
    "ログインできない場合は、ログイン画面の「パスワードをお忘れの方」から再発行するか、お問い合わせからご連絡ください：",
    `${publicUrl}/login`,
  ]),
});

/** To the old address, once the change is done. */
export const emailChangedMail = (publicUrl: string): MailText => ({
  subject: MAIL_SUBJECTS.emailChanged,
  text: withFooter([
    "縁結びに登録されたメールアドレスが変更されました。",
    "今後のお知らせは新しいアドレスにお送りします。このアドレスには今後お送りしません。",
    "",
    "お心当たりのない場合は、お問い合わせからご連絡ください：",
    `${publicUrl}/user/inquiry`,
  ]),
});

// ---- reviews ------------------------------------------------------------------------------------

/** The age verification's outcome; `reason` is the rejection's (an administrator's or the expiry's). */
export function verificationResultMail(
  publicUrl: string,
  outcome: "approved" | "rejected",
  reason: string | null,
): MailText {
  const lines =
    outcome === "approved"
      ? [
          "年齢確認の審査が完了しました。",
          "メッセージの送受信と掲示板をご利用いただけます。",
          "",
          "お送りいただいた身分証の画像は削除しました。",
        ]
      : [
          "お送りいただいた身分証では年齢確認を完了できませんでした。",
          "",
          `理由: ${reason ?? ""}`,
          "",
          "お手数ですが、年齢確認ページからもう一度提出してください。",
          "お送りいただいた身分証の画像は削除しました。",
        ];
  return {
    subject: outcome === "approved" ? MAIL_SUBJECTS.verificationApproved : MAIL_SUBJECTS.verificationRejected,
    text: withFooter([...lines, "", `年齢確認: ${publicUrl}/user/verification`]),
  };
}

const REVIEW_KIND_LABEL: Record<ProfileReviewKind, string> = { photo: "プロフィール写真", introduction: "自己紹介" };

/** A photo or 自己紹介 change an administrator did not approve (never the photo or the text itself). */
export const profileRejectedMail = (
  publicUrl: string,
  kind: ProfileReviewKind,
  reason: ProfileRejectReason,
  note: string,
): MailText => ({
  subject: MAIL_SUBJECTS.profileRejected,
  text: withFooter([
    `${REVIEW_KIND_LABEL[kind]}の変更を確認しましたが、承認できませんでした。`,
    "ほかの会員には、以前の内容が引き続き表示されます。",
    "",
    `理由: ${profileRejectReasonLabel(reason)}`,
    ...(note ? [`補足: ${note}`] : []),
    "",
    "内容をご確認のうえ、ダッシュボードの「プロフィールを編集」からもう一度変更してください。",
    `ダッシュボード: ${publicUrl}/user/dashboard`,
  ]),
});

const REPORT_OUTCOME_TEXT = {
  acted: "ご報告いただいた内容を確認し、対応いたしました。",
  noViolation: "確認の結果、規約違反は確認されませんでした。",
} as const;
export type ReportOutcome = keyof typeof REPORT_OUTCOME_TEXT;

/** To a reporter: the outcome in general terms, never what was done to whom. */
export const reportHandledMail = (publicUrl: string, outcome: ReportOutcome): MailText => ({
  subject: MAIL_SUBJECTS.reportHandled,
  text: withFooter([
    "縁結びをご利用いただきありがとうございます。",
    "",
    REPORT_OUTCOME_TEXT[outcome],
    "個別の対応内容についてはお答えできませんので、ご了承ください。",
    "",
    "今後も安心してご利用いただけるよう努めてまいります。",
    `縁結び: ${publicUrl}`,
  ]),
});

// ---- notices ------------------------------------------------------------------------------------

/** The lots of a member's points that expire within POINT_EXPIRY_NOTICE_DAYS, soonest first. */
export function pointsExpiringMail(
  publicUrl: string,
  lots: ReadonlyArray<{ paid: boolean; remaining: number; expiresAt: Date }>,
): MailText {
  const lines = lots.map(
    (l) => `・${japanDayOf(l.expiresAt)} まで：${l.remaining}pt（${l.paid ? "購入ポイント" : "無料ポイント"}）`,
  );
  return {
    subject: MAIL_SUBJECTS.pointsExpiring,
    text: withFooter([
      "縁結びをご利用いただきありがとうございます。",
      `お持ちのポイントの一部が${POINT_EXPIRY_NOTICE_DAYS}日以内に有効期限を迎えます。`,
      "",
      ...lines,
      "",
      "有効期限を過ぎたポイントは失効し、払い戻しはできません。",
      `ポイントの内訳: ${publicUrl}/user/points-usage`,
    ]),
  };
}

/** An administrator answered the member's inquiry `title`: the mail names it, the reply is read after signing in. */
export const inquiryRepliedMail = (publicUrl: string, name: string | null, title: string): MailText => ({
  subject: MAIL_SUBJECTS.inquiryReplied,
  text: withFooter([
    `${name ?? "会員"} 様`,
    "",
    "縁結びをご利用いただきありがとうございます。",
    `お問い合わせ「${title}」に運営事務局から返信がありました。`,
    "返信の内容は、ログイン後の「お問い合わせ履歴」でご確認ください。",
    "",
    `${publicUrl}/user/inquiry-history`,
    "",
    "※このメールは送信専用です。ご返信いただいてもお答えできません。",
  ]),
});

/**
 * The new-message notice: how many, who wrote (`senders`, already worded), a link to read them and
 * the stop link (its token is the mail's secret); never a message's text. `windowMinutes`: at most
 * one notice in that long.
 */
export const newMessagesMail = (
  publicUrl: string,
  notice: { total: number; senders: string; link: string; windowMinutes: number },
): MailText => ({
  subject: MAIL_SUBJECTS.newMessages(notice.total),
  text: withFooter([
    "縁結びをご利用いただきありがとうございます。",
    "",
    `新着メッセージが${notice.total}件あります。`,
    `送信者：${notice.senders}`,
    "",
    "メッセージを確認する：",
    notice.link,
    "",
    "※このメールにはメッセージの本文は含まれていません。",
    `※通知は${notice.windowMinutes}分に1回までお送りします。サイトをご覧の間はお送りしません。`,
    "",
    "メール受信通知を停止する（ログイン不要）：",
    `${publicUrl}/notice-mail/stop?token=${SECRET_PLACEHOLDER}`,
    `設定画面からも変更できます：${publicUrl}/user/profile-settings`,
  ]),
});
