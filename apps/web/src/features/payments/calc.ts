import { MSG, purchaseAboveMaximum, purchaseBelowMinimum } from "@enmusubi/shared";
import { formatPoints } from "../../lib/format";

/**
 * The purchase arithmetic and the wording every screen shares, so the purchase screen, 特商法,
 * the terms and the admin settings can never state a rate differently. The server recomputes the
 * points from its own rate whatever the client shows (it is authoritative).
 */

export interface ExchangeRate {
  yenAmount: number;
  pointAmount: number;
}

export interface PurchaseLimits {
  minimumPurchase: number;
  maximumPurchase: number;
}

/**
 * Spec §5: points = floor(amount / (yenAmount / pointAmount)). Computed as
 * floor(amount × pointAmount / yenAmount) in integers, which is the same number without the
 * rounding error of the division (1,000 / 300 is not exact in floating point).
 */
export function pointsFor(amount: number, rate: ExchangeRate): number {
  if (!Number.isFinite(amount) || amount <= 0 || rate.yenAmount <= 0) return 0;
  return Math.floor((Math.floor(amount) * rate.pointAmount) / rate.yenAmount);
}

/** Spec §9: the displayed rate is points ÷ yen to 4 decimals. */
export function displayRate(rate: ExchangeRate): string {
  return (rate.pointAmount / rate.yenAmount).toFixed(4);
}

export function yen(amount: number): string {
  return `${amount.toLocaleString("ja-JP")}円`;
}

/** An amount of points (the one way: formatPoints). */
export function pointsText(points: number): string {
  return formatPoints(points);
}

/** The price of one point, to two decimals at most (1,000円で300ポイント → 約3.33円). */
export function yenPerPoint(rate: ExchangeRate): string {
  const exact = rate.yenAmount / rate.pointAmount;
  const rounded = Math.round(exact * 100) / 100;
  return `${rounded === exact ? "" : "約"}${rounded.toLocaleString("ja-JP", { maximumFractionDigits: 2 })}円`;
}

/**
 * The one sentence stating the price of points (税込). The purchase screen, 特商法 and the terms
 * all print exactly this, from the same settings.
 */
export function rateText(rate: ExchangeRate): string {
  return `${yen(rate.yenAmount)}（税込）で${pointsText(rate.pointAmount)}（1ポイントあたり${yenPerPoint(rate)}）`;
}

/** The purchase range sentence, from the same settings. */
export function limitsText(limits: PurchaseLimits): string {
  return `1回のご購入は${yen(limits.minimumPurchase)}から${yen(limits.maximumPurchase)}までです。`;
}

/** The yen value of a number of points at the rate (for the fee table). */
export function yenValueOf(points: number, rate: ExchangeRate): string {
  const exact = (points * rate.yenAmount) / rate.pointAmount;
  const rounded = Math.round(exact * 100) / 100;
  return `${rounded === exact ? "" : "約"}${rounded.toLocaleString("ja-JP", { maximumFractionDigits: 2 })}円`;
}

/** The amount's problem in the catalogue's words (spec §5, §8), or null when it can be ordered. */
export function amountError(amount: number | string, limits: PurchaseLimits): string | null {
  const value = typeof amount === "number" ? amount : Number.NaN;
  if (!Number.isFinite(value) || value <= 0 || !Number.isInteger(value)) return MSG.amountInvalid;
  if (value < limits.minimumPurchase) return purchaseBelowMinimum(limits.minimumPurchase);
  if (value > limits.maximumPurchase) return purchaseAboveMaximum(limits.maximumPurchase);
  return null;
}
