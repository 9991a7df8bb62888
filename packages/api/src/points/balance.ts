import { type Db, pointLots } from "@enmusubi/db";
import { japanDayOf } from "@enmusubi/shared";
import { and, asc, eq, gt } from "drizzle-orm";

/**
 * The balance by expiry (decision 0034): purchased points (paid lots, 3 years from the
 * purchase) and free points (the sign-up bonus, an administrator's grant: 180 days; a refund's
 * excess), the next expiry and what expires then, and the days on which points expire. Lots past
 * their expiry are left out (they are not spendable; the expiry job books them), so `total` is what
 * the member can spend now.
 */
export interface ExpiryDay {
  /** The Japanese calendar day the points expire at the end of (yyyy-mm-dd). */
  day: string;
  /** The exact instant of the earliest lot expiring that day. */
  expiresAt: Date;
  purchased: number;
  free: number;
}

export interface PointBalance {
  total: number;
  purchased: number;
  free: number;
  /** The first day on which points expire, with how many; null when there are none. */
  nextExpiry: ExpiryDay | null;
  /** Up to `days` expiry days, soonest first. */
  schedule: ExpiryDay[];
}

export async function pointBalance(db: Db, userId: string, now = new Date(), days = 12): Promise<PointBalance> {
  const lots = await db
    .select({ paid: pointLots.paid, remaining: pointLots.remaining, expiresAt: pointLots.expiresAt })
    .from(pointLots)
    .where(and(eq(pointLots.userId, userId), gt(pointLots.remaining, 0), gt(pointLots.expiresAt, now)))
    .orderBy(asc(pointLots.expiresAt), asc(pointLots.createdAt));
  const schedule: ExpiryDay[] = [];
  let purchased = 0;
  let free = 0;
  for (const lot of lots) {
    if (lot.paid) purchased += lot.remaining;
    else free += lot.remaining;
    const day = japanDayOf(lot.expiresAt);
    let entry = schedule[schedule.length - 1];
    if (entry?.day !== day) {
      entry = { day, expiresAt: lot.expiresAt, purchased: 0, free: 0 };
      schedule.push(entry);
    }
    if (lot.paid) entry.purchased += lot.remaining;
    else entry.free += lot.remaining;
  }
  return {
    total: purchased + free,
    purchased,
    free,
    nextExpiry: schedule[0] ?? null,
    schedule: schedule.slice(0, days),
  };
}
