import type { BonusKind } from "./constants/bonuses";
import { BONUS_KIND_LABELS } from "./constants/bonuses";
import type { PaymentMethod } from "./constants/states";

/**
 * The one rule that decides a purchase's bonus (decision 0047). The server credits with it (at the
 * order's creation time, in the confirming transaction), quotes with it (now), and the
 * administrators' preview runs it over the rules being edited; the legal pages and the purchase
 * screen describe the same rule rows. Pure: no clock, no database.
 */

/** A bonus rule as stored (purchase_bonus_rules), in force from `startsAt` until before `endsAt`. */
export interface BonusRule {
  id: string;
  kind: BonusKind;
  /** A campaign's name (shown to members); empty for the other kinds. */
  name: string;
  /** A campaign limited to one payment method; null: every method. */
  paymentMethod: PaymentMethod | null;
  /** An amount tier's threshold in yen (the purchase amount must reach it); 0 for the other kinds. */
  minAmount: number;
  /** Exactly one of the two: a percentage of the purchased points, or a fixed number of points. */
  ratePercent: number | null;
  fixedPoints: number | null;
  startsAt: Date;
  /** Null: open (first-purchase and tier rules until replaced); a campaign always has an end. */
  endsAt: Date | null;
}

export interface BonusPurchase {
  /** Yen paid. */
  amount: number;
  /** Points the amount buys at the rate (the paid lot). */
  points: number;
  paymentMethod: PaymentMethod;
  /** The instant whose rules count: the order's creation (decision 0047). */
  at: Date;
  /** No purchase of the member's has completed before this one. */
  firstPurchase: boolean;
}

export interface BonusItem {
  kind: BonusKind;
  ruleId: string;
  /** What the member reads: 初回購入ボーナス, 金額別ボーナス（5,000円以上）, or the campaign's name. */
  label: string;
  points: number;
  /** The rule's end (a campaign's), null when open. */
  endsAt: Date | null;
}

export interface Bonus {
  /** At most one of each kind, in BONUS_KINDS order; none worth 0 points. */
  items: BonusItem[];
  /** The sum of the items. */
  points: number;
}

/** Whether `rule` is in force at `at`: from its start (included) until its end (excluded). */
export function ruleInForce(rule: Pick<BonusRule, "startsAt" | "endsAt">, at: Date): boolean {
  const t = at.getTime();
  return rule.startsAt.getTime() <= t && (rule.endsAt === null || t < rule.endsAt.getTime());
}

/** Whether a campaign applies to a payment method (null: every method). */
export const appliesToMethod = (rule: Pick<BonusRule, "paymentMethod">, method: PaymentMethod): boolean =>
  rule.paymentMethod === null || rule.paymentMethod === method;

/** The points one rule gives for `points` purchased: the rate's share rounded down, or its fixed figure. */
export function rulePoints(rule: Pick<BonusRule, "ratePercent" | "fixedPoints">, points: number): number {
  if (rule.fixedPoints !== null) return rule.fixedPoints;
  return Math.floor((points * (rule.ratePercent ?? 0)) / 100);
}

const yen = (value: number) => `${value.toLocaleString("ja-JP")}円`;

/** The label a member reads for a rule's bonus. */
export function bonusLabel(rule: Pick<BonusRule, "kind" | "name" | "minAmount">): string {
  if (rule.kind === "campaign") return rule.name;
  if (rule.kind === "tier") return `${BONUS_KIND_LABELS.tier}（${yen(rule.minAmount)}以上）`;
  return BONUS_KIND_LABELS.first_purchase;
}

/** The rule of `kind` that counts among those in force: the highest tier reached; the richest otherwise. */
function pick(rules: readonly BonusRule[], purchase: BonusPurchase, kind: BonusKind): BonusRule | undefined {
  const candidates = rules.filter(
    (r) =>
      r.kind === kind &&
      ruleInForce(r, purchase.at) &&
      (kind !== "campaign" || appliesToMethod(r, purchase.paymentMethod)) &&
      purchase.amount >= r.minAmount,
  );
  const order = (a: BonusRule, b: BonusRule) =>
    kind === "tier"
      ? b.minAmount - a.minAmount
      : rulePoints(b, purchase.points) - rulePoints(a, purchase.points) || a.id.localeCompare(b.id);
  return candidates.sort(order)[0];
}

/**
 * The bonus of a purchase: the first-purchase bonus (when it is the member's first completed
 * purchase), the highest amount tier the amount reaches, and the campaign of its payment method,
 * each from the rules in force at `purchase.at`; they add up.
 */
export function decideBonus(rules: readonly BonusRule[], purchase: BonusPurchase): Bonus {
  const items: BonusItem[] = [];
  for (const kind of ["first_purchase", "tier", "campaign"] as const) {
    if (kind === "first_purchase" && !purchase.firstPurchase) continue;
    const rule = pick(rules, purchase, kind);
    if (!rule) continue;
    const points = rulePoints(rule, purchase.points);
    if (points > 0) items.push({ kind, ruleId: rule.id, label: bonusLabel(rule), points, endsAt: rule.endsAt });
  }
  return { items, points: items.reduce((sum, i) => sum + i.points, 0) };
}
