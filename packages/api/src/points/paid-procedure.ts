import type { PointAction } from "@enmusubi/shared";
import { memberProcedure, verifiedProcedure } from "../trpc";
import { payForAction } from "./charge";

export type { Charge, ChargeOptions } from "./charge";

/** Thrown inside the transaction to roll back a procedure that failed; never leaves this file. */
class RolledBack {
  constructor(readonly result: unknown) {}
}

/**
 * The one way to write a paid action as a procedure (ARCHITECTURE "Points are a ledger";
 * docs/decisions/0001, 0020). The procedure runs inside `payForAction` (charge.ts, the single half
 * of the charging pair): `ctx.db` *is* its transaction, and `ctx.charge()` charges the current
 * point cost of `actionName` (or consumes a prepaid credit from the legacy deduct-points call) in
 * it. The handler must call `ctx.charge()` exactly once — with `quantity: 0` when this use is
 * free — or the whole call fails and rolls back. If the handler fails, nothing is charged; if the
 * charge fails (not enough points: PAYMENT_REQUIRED with the catalogue's message), the action does
 * not happen. `ctx.afterCommit(fn)` runs `fn` once the transaction has committed (notifications,
 * never on a rollback). `{ verified: true }` starts from `verifiedProcedure` (the four acts of
 * 出会い系サイト規制法 art. 11): an unverified member is refused before anything is charged.
 * `actionName` is a name of the shared cost table (a typo does not compile).
 */
export function paidProcedure(actionName: PointAction, options: { verified?: boolean } = {}) {
  const base = options.verified ? verifiedProcedure : memberProcedure;
  return base.meta({ paidAction: actionName }).use(async ({ ctx, next }) => {
    const committed: Array<() => void> = [];
    try {
      const result = await payForAction(ctx.db, { userId: ctx.session.id, action: actionName }, async (tx, charge) => {
        const afterCommit = (fn: () => void) => committed.push(fn);
        const result = await next({ ctx: { db: tx, charge, afterCommit } });
        if (!result.ok) throw new RolledBack(result);
        return result;
      });
      for (const fn of committed) fn();
      return result;
    } catch (error) {
      if (error instanceof RolledBack) return error.result as never;
      throw error;
    }
  });
}
