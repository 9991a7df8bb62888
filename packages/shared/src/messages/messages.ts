/** Member and administrator messaging (spec §5 messaging, §8 message send/fetch/read/bulk; the rest ours). */
export const MESSAGING_MSG = {
  messageRequired: "メッセージを入力してください",
  /** The profile path's variant (spec §5). */
  messageRequiredDot: "メッセージを入力してください。",
  recipientsRequired: "送信先のユーザーを選択してください",
  sendFailedAdmin: "メッセージ送信に失敗しました",
  sendFailedMember: "メッセージの送信に失敗しました",
  replyFailed: "返信の送信に失敗しました",
  unreadFetchFailed: "未読メッセージの取得に失敗しました",
  receivedFetchFailed: "受信済みメッセージの取得に失敗しました",
  sentFetchFailed: "送信済みメッセージの取得に失敗しました",
  markedRead: "メッセージを既読にしました",
  markReadFailed: "メッセージの既読処理に失敗しました",
  messageUpdateFailed: "メッセージの更新に失敗しました",
  messageDeleteFailed: "メッセージの削除に失敗しました",
  messageSendFailed: "メッセージの送信に失敗しました",
  bulkSendFailed: "一括メッセージの送信に失敗しました",
  replyScheduled: "返信を予約しました",
  /** ours */
  messageTooLong: "メッセージは2000文字以内で入力してください。",
  messageSent: "メッセージを送信しました",
  messageUpdated: "メッセージを更新しました",
  messageDeleted: "メッセージを削除しました",
  messageScheduled: "メッセージを予約しました",
  tooManyRecipients: "一度に送信できるのは100人までです。",
  recipientUnavailable: "送信先のユーザーが見つかりません。",
  /** A member recipient whose age verification is not approved cannot read members' messages (decision 0025). */
  recipientCannotRead:
    "このユーザーは年齢確認が完了していないため、メッセージを受け取れません。ポイントは消費されていません。",
  cannotMessageSelf: "自分自身にはメッセージを送信できません。",
  adminRecipientRefused: "管理者にはこの画面からメッセージを送信できません。",
  senderMustBeMember: "送信元には会員を指定してください。",
  replyTargetInvalid: "返信元のメッセージが見つかりません。",
  /** A sealed message could not be opened (unread_mail_view, decision 0027); not enough points has its own. */
  messageOpenFailed: "メッセージを開けませんでした。",
  /** The conversation list and one conversation (decision 0030). */
  conversationsFetchFailed: "メッセージの取得に失敗しました",
  threadFetchFailed: "やりとりの取得に失敗しました",
  /** `before` of messages.thread names no message of this conversation. */
  threadCursorInvalid: "読み込み位置が正しくありません。もう一度開き直してください。",
  /** The reply box of a conversation with someone who can no longer be written to. */
  conversationClosed: "このお相手にはメッセージを送信できません。",
  /** The mail screens' sender / recipient name search (50 characters, as a name). */
  partnerSearchTooLong: "検索するニックネームは50文字以内で入力してください。",
} as const;

/** The member's notice when a payment is credited (the header balance follows it live). */
export function pointsCredited(points: number): string {
  return `${points.toLocaleString("ja-JP")}ptが加算されました`;
}

/** A batch send sent in parts stopped at a failure (decision 0036): what went out and what did not. */
export function bulkSendStopped(sent: number, rest: number): string {
  return `${sent}人に送信した後、送信を中止しました。残りの${rest}人には送信されていません。`;
}

/** The question before a batch send (decision 0036), naming its recipients. */
export function bulkSendQuestion(count: number, scheduled: boolean): string {
  return `${count.toLocaleString("ja-JP")}人のユーザーにメッセージを${scheduled ? "予約送信" : "送信"}しますか？`;
}

/** '{n}人のユーザーにメッセージを送信しました' (spec §8 Bulk). */
export function bulkSent(count: number): string {
  return `${count}人のユーザーにメッセージを送信しました`;
}
