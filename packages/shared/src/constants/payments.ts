/** Purchase settings' defaults and the bounds an order must keep. */

export const EXCHANGE_RATE_DEFAULT = { yenAmount: 1000, pointAmount: 500, isActive: true } as const;
export const PURCHASE_LIMIT_DEFAULTS = { minimumPurchase: 1000, maximumPurchase: 100000 } as const;
export const BANK_TRANSFER_BALANCE_DEFAULT = 0;
/**
 * Points one order may buy at most: the settings are refused when the maximum purchase at the rate
 * would buy more (the same bound as an administrator's balance edit, 100,000,000).
 */
export const POINTS_PER_ORDER_MAX = 100_000_000;
/**
 * A member's balance plus the points of their pending orders may not pass this: an order that would
 * is refused when it is placed, before anyone pays, so a confirmation always fits the balance column
 * (PostgreSQL integer, 2,147,483,647) with room to spare (docs/decisions/0018).
 */
export const POINT_BALANCE_CEILING = 1_000_000_000;
