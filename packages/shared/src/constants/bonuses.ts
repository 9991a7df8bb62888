/**
 * Purchase bonuses (decision 0047): the packs the purchase screen offers and the bounds of a bonus
 * rule. A bonus is free points (their own lots, FREE_POINT_VALIDITY_DAYS), never paid-for ones.
 */

/** The amounts (yen) offered as one-tap packs on the purchase screen; those outside the limits are not shown. */
export const PURCHASE_PACKS = [1000, 3000, 5000, 10000, 30000, 50000] as const;

/** The kinds of purchase bonus, in the order they are listed and booked. */
export const BONUS_KINDS = ["first_purchase", "tier", "campaign"] as const;
export type BonusKind = (typeof BONUS_KINDS)[number];

export const BONUS_KIND_LABELS: Record<BonusKind, string> = {
  first_purchase: "初回購入ボーナス",
  tier: "金額別ボーナス",
  campaign: "キャンペーンボーナス",
};

/** A rate bonus: whole percent of the purchased points, 1–100. */
export const BONUS_RATE_MAX_PERCENT = 100;
/** A fixed bonus: at most this many points per purchase. */
export const BONUS_FIXED_POINTS_MAX = 1_000_000;
/** Amount tiers at most. */
export const BONUS_TIERS_MAX = 10;
/** A campaign's name, shown to members. */
export const CAMPAIGN_NAME_MAX = 60;
