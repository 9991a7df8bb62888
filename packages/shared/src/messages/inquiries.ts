/** Support inquiries (spec §5 Inquiry, §8 Inquiry) and the audit log screen. Ours unless marked. */
export const INQUIRIES_MSG = {
  /** spec §5 */
  inquiryTitleRequired: "エラー : タイトルを入力してください",
  /** spec §5 */
  inquiryMessageRequired: "エラー : メッセージを入力してください",
  inquiryTitleTooLong: "エラー : タイトルは100文字以内で入力してください",
  inquiryMessageTooLong: "エラー : メッセージは1000文字以内で入力してください",
  /** spec §8 */
  inquirySent: "お問い合わせが正常に送信されました！",
  /** spec §8 */
  inquirySendFailed: "エラーが発生しました。もう一度お試しください。",
  /** spec §8 */
  inquiryDeleteFailed: "削除に失敗しました。もう一度お試しください。",
  inquiryDeleted: "お問い合わせを削除しました。",
  inquiryFetchFailed: "お問い合わせの取得に失敗しました。",
  inquiryMarkedRead: "既読にしました。",
  inquiryMarkReadFailed: "既読処理に失敗しました。",
  inquiryReplyRequired: "返信内容を入力してください。",
  inquiryReplyTooLong: "返信は1000文字以内で入力してください。",
  inquiryReplied: "返信を送信しました。",
  inquiryReplyFailed: "返信の送信に失敗しました。",
  auditFetchFailed: "監査ログの取得に失敗しました。",
  auditDateRangeInvalid: "期間の開始日は終了日以前の日付を指定してください。",
} as const;
