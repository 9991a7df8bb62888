import { type Db, pointLots, users } from "@enmusubi/db";
import { and, eq, gt, lte, sql } from "drizzle-orm";
import { expireMemberLots } from "./ledger";

export interface ExpiryRun {
  /** Members with expired lots found by this run (= `batch` when more may be waiting). */
  due: number;
  /** Members whose expired points left the balance in this run. */
  members: number;
  points: number;
  failed: Array<{ userId: string; error: unknown }>;
}

/**
 * Takes the unspent remainder of lots past their expiry out of the balance: one `expire` ledger row
 * per member per run (the debit takes the expired lots, being the earliest), never below 0. Each
 * member in their own transaction, their row claimed with SKIP LOCKED, so several workers never
 * expire the same points twice and one failure does not hold back the others. Accounts that have
 * left are included, so their books still add up.
 */
export async function expireLots(db: Db, batch = 100): Promise<ExpiryRun> {
  const due = await db
    .selectDistinct({ userId: pointLots.userId })
    .from(pointLots)
    .where(and(gt(pointLots.remaining, 0), lte(pointLots.expiresAt, sql`now()`)))
    .limit(batch);
  const run: ExpiryRun = { due: due.length, members: 0, points: 0, failed: [] };
  for (const { userId } of due) {
    try {
      const taken = await db.transaction(async (tx) => {
        const [owner] = await tx
          .select({ points: users.points })
          .from(users)
          .where(eq(users.id, userId))
          .for("update", { skipLocked: true });
        if (!owner) return 0;
        return owner.points - (await expireMemberLots(tx, userId));
      });
      if (taken > 0) {
        run.members += 1;
        run.points += taken;
      }
    } catch (error) {
      run.failed.push({ userId, error });
    }
  }
  return run;
}
