import {
  SCREENING_ACTIONS,
  SCREENING_CATEGORIES,
  type ScreeningAction,
  type ScreeningCategory,
  type ScreeningHoldKind,
  type ScreeningHoldStatus,
  type ScreeningRuleKind,
} from "@enmusubi/shared";
import type { RouterOutputs } from "../../lib/api-types";

/** The screening screens' words (decision 0042): the shared catalogue's labels, the rest ours. */

export type HeldItem = RouterOutputs["adminScreening"]["queue"]["items"][number];
export type ScreeningRule = RouterOutputs["adminScreening"]["rules"]["rules"][number];

export const CATEGORY_LABELS = Object.fromEntries(SCREENING_CATEGORIES.map((c) => [c.value, c.label])) as Record<
  ScreeningCategory,
  string
>;

export const ACTION_LABELS = Object.fromEntries(SCREENING_ACTIONS.map((a) => [a.value, a.label])) as Record<
  ScreeningAction,
  string
>;

/** What each action does, as the rule editor explains it. */
export const ACTION_HELP: Record<ScreeningAction, string> = {
  mask: "一致した部分を＊＊＊に置き換えて届けます。",
  hold: "届けずに保留し、「投稿・メッセージ確認」で公開するか却下するかを決めます。",
  refuse: "送信・投稿を受け付けず、会員に内容の種類を伝えます。",
};

export const ACTION_COLORS: Record<ScreeningAction, string> = { mask: "blue", hold: "orange", refuse: "red" };

export const RULE_KIND_LABELS: Record<ScreeningRuleKind, string> = {
  word: "言葉",
  pattern: "パターン（正規表現）",
};

export const HOLD_KIND_LABELS: Record<ScreeningHoldKind, string> = {
  message: "メッセージ",
  board_post: "掲示板の投稿",
};

export const HOLD_STATUS_LABELS: Record<ScreeningHoldStatus, string> = {
  held: "未対応",
  released: "公開済み",
  rejected: "却下",
};

/** A member as the queue names them: 「花子（hanako77）」. */
export function personLabel(person: { userID: string; name: string | null }): string {
  const name = person.name?.trim();
  return name ? `${name}（${person.userID}）` : person.userID;
}
