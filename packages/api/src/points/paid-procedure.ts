import { memberProcedure, verifiedProcedure } from "../trpc";
import { type ChargeResult, chargeAction } from "./ledger";

export interface ChargeOptions {
  /** Units of the action (recipients of a batch send…): cost × quantity in one ledger entry. 0 = free this time. */
  quantity?: number;
  /** What the charge is for (a message id, a profile id…), kept on the ledger row. */
  reference?: string;
}

/** Charges the procedure's action once, inside the procedure's transaction. */
export type Charge = (options?: ChargeOptions) => Promise<ChargeResult>;

/** Thrown inside the transaction to roll back a procedure that failed; never leaves this file. */
class RolledBack {
  constructor(readonly result: unknown) {}
}

/**
 * The one way to write a paid action (ARCHITECTURE "Points are a ledger"; docs/decisions/0001).
 * The procedure runs in one database transaction that the wrapper opens: `ctx.db` *is* that
 * transaction, and `ctx.charge()` charges the current point cost of `actionName` (or consumes a
 * prepaid credit from the legacy deduct-points call) in it. The handler must call `ctx.charge()`
 * exactly once — with `quantity: 0` when this use is free — or the whole call fails and rolls
 * back. If the handler fails, nothing is charged; if the charge fails (not enough points:
 * PAYMENT_REQUIRED with the catalogue's message), the action does not happen. `ctx.afterCommit(fn)`
 * runs `fn` once the transaction has committed (notifications, never on a rollback).
 * `{ verified: true }` starts from `verifiedProcedure` (the four acts of 出会い系サイト規制法 art. 11):
 * an unverified member is refused before anything is charged.
 */
export function paidProcedure(actionName: string, options: { verified?: boolean } = {}) {
  const base = options.verified ? verifiedProcedure : memberProcedure;
  return base.meta({ paidAction: actionName }).use(async ({ ctx, next }) => {
    const committed: Array<() => void> = [];
    try {
      const result = await ctx.db.transaction(async (tx) => {
        let calls = 0;
        const charge: Charge = (options = {}) => {
          calls += 1;
          if (calls > 1) throw new Error(`paid procedure ${actionName} charged more than once`);
          return chargeAction(tx, { userId: ctx.session.id, actionName, ...options });
        };
        const afterCommit = (fn: () => void) => committed.push(fn);
        const result = await next({ ctx: { db: tx, charge, afterCommit } });
        if (!result.ok) throw new RolledBack(result);
        if (calls !== 1) throw new Error(`paid procedure ${actionName} returned without charging`);
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
