import type { PaymentMethod } from "@enmusubi/shared";
import { formatDateTime, formatPoints } from "../../lib/format";
import { yen } from "./calc";
import { METHOD_LABELS } from "./StatusBadge";
import type { LegalInfo } from "./types";

/**
 * The purchase bonuses' wording (decision 0047), once for every screen: the purchase screen's
 * packs and confirmation, the history, the administrators' preview and the legal pages all print
 * these, from the same rule rows (`legal.info`, `purchase.bonusQuote`, `adminPayments.bonusRules`).
 */
export const BONUS_TEXT = {
  heading: "購入ボーナス",
  firstPurchaseNote: "初回購入ボーナスは、お支払いが最初に確認されたご注文に付与します。",
  orderTimeNote:
    "ボーナスはご注文（お申込み）の時点で実施中のものが適用されます。キャンペーン終了前にお申込みいただければ、お支払いが終了後になっても付与します。",
  stackNote:
    "初回購入ボーナス・金額別ボーナス・キャンペーンボーナスは合算して付与します（金額別ボーナスは達した最も高い段階のみ）。",
  none: "現在、購入ボーナスはありません。",
} as const;

/** 「+500pt ボーナス」: what a pack or an order gets on top. */
export const bonusBadge = (points: number): string => `+${formatPoints(points)} ボーナス`;

/** A campaign's end as members read it: 「2026/3/31 23:59まで」 (orders placed before it count). */
export const campaignEndText = (endsAt: Date | string): string => `${formatDateTime(endsAt)}まで`;

/** A rule's worth: 「購入ポイントの10%」 or 「300pt」. */
export function worthText(rule: { ratePercent: number | null; fixedPoints: number | null }): string {
  return rule.fixedPoints !== null ? formatPoints(rule.fixedPoints) : `購入ポイントの${rule.ratePercent ?? 0}%`;
}

/** Free points' validity, said for the bonus. */
export const bonusValidityText = (days: number): string =>
  `ボーナスポイントは無料ポイントとして付与し、有効期限は付与日から${days}日間です。`;

const methodText = (method: PaymentMethod | null) =>
  method ? `${METHOD_LABELS[method]}でのご購入` : "すべての支払方法";

type Bonuses = LegalInfo["bonuses"];

/**
 * The bonus rules in force and the campaigns announced, as sentences: the 特商法 page, the terms and
 * the purchase screen print these. Empty rules: one sentence saying there is none.
 */
export function bonusRuleSentences(bonuses: Bonuses): string[] {
  const lines: string[] = [];
  if (bonuses.firstPurchase)
    lines.push(`初回購入ボーナス：はじめてのご購入で${worthText(bonuses.firstPurchase)}を追加で付与します。`);
  for (const tier of bonuses.tiers) {
    lines.push(`金額別ボーナス：1回のご購入が${yen(tier.minAmount)}以上で${worthText(tier)}を追加で付与します。`);
  }
  for (const c of bonuses.campaigns) {
    lines.push(
      `キャンペーン「${c.name}」：${formatDateTime(c.startsAt)}から${formatDateTime(c.endsAt)}まで（終了日時ちょうど以降のお申込みは対象外）、${methodText(c.paymentMethod)}に${worthText(c)}を追加で付与します。`,
    );
  }
  if (lines.length === 0) return [BONUS_TEXT.none];
  return lines;
}

/** The notes that go with the rules (when there are any). */
export function bonusNotes(bonuses: Bonuses): string[] {
  const any = bonuses.firstPurchase !== null || bonuses.tiers.length > 0 || bonuses.campaigns.length > 0;
  if (!any) return [];
  return [
    ...(bonuses.firstPurchase ? [BONUS_TEXT.firstPurchaseNote] : []),
    BONUS_TEXT.stackNote,
    BONUS_TEXT.orderTimeNote,
    bonusValidityText(bonuses.validityDays),
  ];
}
