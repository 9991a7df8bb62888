/** The conversations' text catalogue. */

export const CONVERSATIONS_TEXT = {
  /** What the member is told of their own held message (decision 0042): that it waits, or was not delivered — never why. */
  held: {
    held: { badge: "確認中", note: "確認が終わりしだいお届けします。" },
    rejected: {
      badge: "お届けできませんでした",
      note: "このメッセージはお届けできませんでした（ポイントは返還済みです）。",
    },
  },
} as const;
