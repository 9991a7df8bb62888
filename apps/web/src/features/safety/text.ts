/** The safety screens' text catalogue (reporting and blocking): what the shared MSG catalogue does not hold. */
export const SAFETY_TEXT = {
  reportFailed: "報告の送信に失敗しました。時間をおいてもう一度お試しください。",
  blockFailed: "ブロックに失敗しました。",
  unblockFailed: "ブロックの解除に失敗しました。",
  blockedListFailed: "ブロックリストの取得に失敗しました。",
} as const;
