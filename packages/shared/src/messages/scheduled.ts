/** Scheduled messages (spec §5 scheduling, §8 point deduction / scheduled reply; the rest ours). */
export const SCHEDULED_MSG = {
  /** spec §5 'recipients required' */
  scheduledRecipientsRequired: "送信先を指定してください",
  /** spec §5 'content required' */
  scheduledContentRequired: "本文を入力してください",
  /** spec §5 'invalid scheduledAt' */
  scheduledAtInvalid: "予約日時が正しくありません",
  /** spec §8: the scheduled entry is marked failed with the server message, else this. */
  scheduledDeductionFailed: "ポイント不足または減算に失敗しました",
  /** ours */
  scheduledCancelled: "予約を取り消しました",
  scheduledSenderGone: "送信元のユーザーが見つかりません。",
  /** A member's pending entries are capped (SCHEDULED_PENDING_MAX in packages/api/src/scheduled/entries.ts). */
  scheduledPendingLimit: "送信待ちの予約は30件までです。予約を取り消すか、予約が送信されてから新しく予約してください。",
} as const;
