import { sql } from "drizzle-orm";
import { index, pgTable, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { id } from "./columns";
import { pointLedger } from "./points";
import { users } from "./users";

/**
 * One row per 退会 (decision 0034, amended by 0038): the ledger rows that forfeited the member's
 * balance point to it through these two columns (null when nothing was forfeited on that account),
 * so an administrator's restoration gives back exactly what this withdrawal took, once. A member
 * may withdraw, be restored and withdraw again: each withdrawal is its own row; at most one is open
 * (not restored) at a time.
 */
export const withdrawals = pgTable(
  "withdrawals",
  {
    id: id(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    withdrawnAt: timestamp("withdrawn_at", { withTimezone: true }).notNull().defaultNow(),
    /** The `forfeit` ledger row of the `points` account; null: the withdrawal took no points. */
    pointsLedgerId: uuid("points_ledger_id").references(() => pointLedger.id),
    /** The `forfeit` ledger row of the `send_points` account; null: it took no send points. */
    sendPointsLedgerId: uuid("send_points_ledger_id").references(() => pointLedger.id),
    /** When an administrator restored the account (then its forfeited balance was given back). */
    restoredAt: timestamp("restored_at", { withTimezone: true }),
    restoredBy: uuid("restored_by").references(() => users.id),
  },
  (t) => [
    uniqueIndex("withdrawals_open_user_key").on(t.userId).where(sql`${t.restoredAt} is null`),
    index("withdrawals_user_idx").on(t.userId, t.withdrawnAt),
  ],
);
