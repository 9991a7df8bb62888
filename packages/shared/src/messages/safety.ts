/** Blocking, reports and moderation (ours: the spec has no such screens). */
export const SAFETY_MSG = {
  /** Sending to, or any exchange with, a member when either has blocked the other. */
  blockedEitherWay: "このメンバーとはやり取りできません。",
  blockSelf: "自分自身をブロックすることはできません。",
  blockAdmin: "運営者をブロックすることはできません。",
  blockDone: "ブロックしました。",
  unblockDone: "ブロックを解除しました。",
  reportSelf: "自分自身を報告することはできません。",
  /** Content written by the operator (an administrator's message) is not reported to the operator. */
  reportAdmin: "運営者からの内容は報告できません。お問い合わせをご利用ください。",
  reportTargetInvalid: "報告する対象を選択してください。",
  reportReasonInvalid: "報告の理由を選択してください。",
  reportDetailRequired: "「その他」を選んだ場合は、詳しい内容を入力してください。",
  reportDetailTooLong: "詳しい内容は1000文字以内で入力してください。",
  /** One open report per reporter and target. */
  reportDuplicate: "この内容はすでに報告済みです。運営の確認をお待ちください。",
  reportDone: "ご報告ありがとうございます。運営で内容を確認いたします。",
  /** Reports per member per hour / day (RATE_LIMITS.reportPerMemberHour / Day) are used up. */
  reportTooMany:
    "短時間に多くの報告が送信されたため、受け付けを一時停止しています。しばらくしてから再度お試しいただくか、お問い合わせをご利用ください。",
  /** An administrator acts on a report someone else already handled. */
  reportAlreadyHandled: "この報告はすでに対応済みです。",
  /** Remove content on a report about a member (there is no content to remove). */
  reportNothingToRemove: "会員についての報告には削除できる内容がありません。利用停止または対応不要を選んでください。",
  moderationNoteTooLong: "メモは500文字以内で入力してください。",
  suspendReasonRequired: "利用停止の理由を入力してください。",
  suspendReasonTooLong: "利用停止の理由は500文字以内で入力してください。",
  suspendAdmin: "管理者アカウントは利用停止にできません。",
  suspendDone: "アカウントを利用停止にしました。",
  unsuspendDone: "アカウントの利用停止を解除しました。",
} as const;
