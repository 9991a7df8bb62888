import {
  SCREENING_ACTIONS,
  SCREENING_CATEGORIES,
  type ScreeningAction,
  type ScreeningCategory,
  type ScreeningHoldKind,
  type ScreeningHoldStatus,
  type ScreeningRuleKind,
} from "@enmusubi/shared";

/** The screening screens' text catalogue (decision 0042): the shared catalogue's labels, the rest ours. */
export const SCREENING_TEXT = {
  categories: Object.fromEntries(SCREENING_CATEGORIES.map((c) => [c.value, c.label])) as Record<
    ScreeningCategory,
    string
  >,
  actions: Object.fromEntries(SCREENING_ACTIONS.map((a) => [a.value, a.label])) as Record<ScreeningAction, string>,
  /** What each action does, as the rule editor explains it. */
  actionHelp: {
    mask: "一致した部分を＊＊＊に置き換えて届けます。",
    hold: "届けずに保留し、「投稿・メッセージ確認」で公開するか却下するかを決めます。",
    refuse: "送信・投稿を受け付けず、会員に内容の種類を伝えます。",
  } satisfies Record<ScreeningAction, string>,
  ruleKinds: { word: "言葉", pattern: "パターン（正規表現）" } satisfies Record<ScreeningRuleKind, string>,
  /** How each kind of rule is matched, under the kind's choice in the rule editor. */
  ruleKindHelp: {
    word: "ひらがな・カタカナ、全角・半角、大文字・小文字の違いや、文字の間の空白・記号は無視して照合します。",
    pattern:
      "JavaScriptの正規表現です。空白を除き、「あっと」を@、漢数字・かな数字を数字に直した文に対して照合します（大文字は小文字に）。",
  } satisfies Record<ScreeningRuleKind, string>,
  holdKinds: { message: "メッセージ", board_post: "掲示板の投稿" } satisfies Record<ScreeningHoldKind, string>,
  holdStatuses: { held: "未対応", released: "公開済み", rejected: "却下" } satisfies Record<
    ScreeningHoldStatus,
    string
  >,
  noRules: "該当するルールはありません。",
  queueFailed: "確認待ちの一覧の取得に失敗しました。",
  releaseFailed: "公開に失敗しました。",
  rejectFailed: "却下に失敗しました。",
} as const;
