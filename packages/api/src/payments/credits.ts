import { type Db, purchaseTransactions } from "@enmusubi/db";
import { and, asc, eq, gte, sql } from "drizzle-orm";

/**
 * Payments credited to a member lately: what the member's live stream (messages.onUnreadCount,
 * decision 0031) announces as 「{n}ポイントが加算されました」 when a balance change arrives. The
 * stream remembers the ones it has seen (those credited before it opened included), so each is
 * announced once per open screen, whichever process credited it; the window only bounds the read
 * (a member's orders, through purchase_user_created_idx).
 */
export const RECENT_CREDIT_MINUTES = 10;

export interface Credit {
  transactionId: string;
  points: number;
}

export async function recentCredits(db: Db, userId: string): Promise<Credit[]> {
  return db
    .select({ transactionId: purchaseTransactions.transactionId, points: purchaseTransactions.points })
    .from(purchaseTransactions)
    .where(
      and(
        eq(purchaseTransactions.userId, userId),
        eq(purchaseTransactions.status, "paid"),
        gte(purchaseTransactions.confirmedAt, sql`now() - make_interval(mins => ${RECENT_CREDIT_MINUTES})`),
      ),
    )
    .orderBy(asc(purchaseTransactions.confirmedAt));
}
