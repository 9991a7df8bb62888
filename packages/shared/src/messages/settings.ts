/** The settings screen: notice mails, e-mail change (decision 0033). All ours. */
export const SETTINGS_MSG = {
  noticeMailOn: "メール受信通知をオンにしました。",
  noticeMailOff: "メール受信通知をオフにしました。",
  noticeStopDone: "メール受信通知を停止しました。設定画面からいつでも再開できます。",
  noticeStopUsed: "この停止リンクはすでに使用されています。メール受信通知の設定は設定画面から変更できます。",
  noticeStopInvalid: "停止リンクが正しくないか、有効期限が切れています。設定画面から通知を停止してください。",
  emailChangeSent: "確認メールを新しいメールアドレスに送信しました。メール内のリンクを開くと変更が完了します。",
  emailChangeSame: "現在と同じメールアドレスです。",
  emailInUse: "このメールアドレスはすでに使用されています。",
  emailChangeDone: "メールアドレスを変更しました。",
  emailChangeInvalid: "確認リンクが正しくないか、有効期限が切れています。もう一度変更手続きをしてください。",
  emailChangeUsed: "この確認リンクはすでに使用されています。",
  emailChangeCancelled:
    "この確認リンクは無効になりました（パスワードの変更・再発行または退会により、変更手続きが取り消されました）。必要な場合は、もう一度変更手続きをしてください。",
  tokenRequired: "リンクが正しくありません。",
  passwordChanged: "パスワードを変更しました。ほかの端末ではログアウトされました。",
} as const;
