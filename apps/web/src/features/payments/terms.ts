import type { ExchangeRate, PurchaseLimits } from "./calc";
import { limitsText, rateText } from "./calc";

/**
 * What 特商法 requires the buyer to read before ordering (price, timing, cancellation, validity),
 * worded once: the final confirmation screen and the 特商法 page print these same sentences.
 */
export const CREDIT_TIMING =
  "ポイントはお支払いの確認後に付与します（スマートピットはお支払いの確認後、銀行振込は当事務局が入金を確認した後）。";

export const CANCELLATION_RULES = [
  "お支払い前のお申込みは無料でキャンセルできます。お支払いがない場合、ポイントは付与されず、料金も発生しません。",
  "お支払い済みの料金は返金いたしません。ただし、誤って購入し、ポイントを使用する前にご連絡いただいた場合は、協議のうえ返金します。",
] as const;

export const PAID_IN_ADVANCE = "いずれも前払い（お支払いの確認後にポイントを付与）です。";

export function validityText(years: number): string {
  return `ポイントの有効期限は購入日から${years}年間です。期限を過ぎたポイントは失効します。`;
}

/** Free points (the sign-up bonus, an administrator's grant) and what happens to unused points at 退会 (decision 0034). */
export function freeValidityText(days: number): string {
  return `登録特典や運営からの付与による無料ポイントの有効期限は付与日から${days}日間です。期限を過ぎたポイントは失効します。`;
}

export const FORFEIT_ON_WITHDRAWAL =
  "退会した場合、未使用のポイント（購入ポイント・無料ポイントとも）は失効し、払い戻しはいたしません。";

export function priceText(rate: ExchangeRate, limits: PurchaseLimits): string {
  return `ポイントの販売価格は${rateText(rate)}です。${limitsText(limits)}`;
}
