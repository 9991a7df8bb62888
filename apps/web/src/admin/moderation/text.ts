/** The moderation screens' text catalogue. */
export const MODERATION_TEXT = {
  failed: "報告一覧の取得に失敗しました。",
  actionFailed: "操作に失敗しました。",
  dismissed: "報告を「対応不要」にしました。報告者に結果を通知しました。",
  removed: "内容を削除しました。報告者に結果を通知しました。",
  suspended: "会員を利用停止にしました。報告者に結果を通知しました。",
} as const;
