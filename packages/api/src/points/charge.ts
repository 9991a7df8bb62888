import { type Db, pointCosts, users } from "@enmusubi/db";
import { MSG, type PointAction } from "@enmusubi/shared";
import { and, eq, isNull, sql } from "drizzle-orm";
import { AppError } from "../errors";
import { type ChargeResult, changeBalance, insufficient, unitCost } from "./ledger";
import { consumePrepaidCredits, prepaidCreditsWaiting } from "./prepaid";

/*
 * Charging one action: the single half of the charging pair (the batch half is batch.ts). Every
 * charge of an action goes through `payForAction` — `paidProcedure` for a request, the scheduled
 * dispatcher for an entry sent one at a time — or through `chargeBatch`; test/paid-actions.test.ts
 * lists every caller of both (docs/decisions/0020).
 */

export interface ChargeOptions {
  /** Units of the action (recipients of a batch send…): cost × quantity in one ledger entry. 0 = free this time. */
  quantity?: number;
  /** What the charge is for (a message id, a profile id…), kept on the ledger row. */
  reference?: string;
}

/** Charges the paid action once, inside its transaction. */
export type Charge = (options?: ChargeOptions) => Promise<ChargeResult>;

/**
 * Runs `run` in one transaction of `db` (a savepoint when `db` is a transaction already) with a
 * `charge` for `action` paid by `userId`. `run` must call `charge()` exactly once — with
 * `quantity: 0` when this use is free — or the whole call fails and rolls back. If `run` fails,
 * nothing is charged; if the charge fails (PAYMENT_REQUIRED with the catalogue's message), the
 * action's writes roll back with it. Standing (verified, suspended…) is the caller's.
 */
export async function payForAction<T>(
  db: Db,
  payer: { userId: string; action: PointAction },
  run: (tx: Db, charge: Charge) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    // The payer's row first, as the charge takes it (NO KEY UPDATE): a paid action then holds its
    // payer before the rows its action writes (a conversation's summary rows, decision 0030), in
    // the order the scheduled batch takes them (it charges, then inserts). Locked only at the
    // charge, a send crossing a batch that charges the same member could wait in a circle. Held
    // from here, it also lets the charge read the prepaid units in its own statement (chargeAction).
    // Not waited for: the action's first statement follows it in the same write to the database and
    // runs once the lock is held (a transaction's statements run in order); its failure fails the
    // transaction, and is thrown below at the latest.
    const locked = tx
      .select({ id: users.id })
      .from(users)
      .where(eq(users.id, payer.userId))
      .for("no key update")
      .then(() => undefined);
    locked.catch(() => {}); // awaited below; a failing action must not leave it unobserved
    let calls = 0;
    const charge: Charge = (options = {}) => {
      calls += 1;
      if (calls > 1) throw new Error(`paid action ${payer.action} charged more than once`);
      return chargeAction(tx, { userId: payer.userId, actionName: payer.action, ...options });
    };
    const result = await run(tx, charge);
    await locked;
    if (calls !== 1) throw new Error(`paid action ${payer.action} returned without charging`);
    return result;
  });
}

/**
 * The charge itself, inside the action's own transaction; called by `payForAction` (and by
 * `chargeBatch` for a member holding prepaid units), nowhere else, and both lock the member's row
 * before. Units the member already paid for through the legacy deduct-points call are used first,
 * so nothing is charged twice. A cost of 0 charges nothing and writes no ledger row. Throws
 * PAYMENT_REQUIRED with the catalogue's "ポイントが不足しています…" message when the balance is
 * short; the caller's transaction then rolls back the action too.
 */
export async function chargeAction(
  tx: Db,
  input: { userId: string; actionName: PointAction; quantity?: number; reference?: string },
): Promise<ChargeResult> {
  const quantity = input.quantity ?? 1;
  // The cost, the balance and whether prepaid units wait, in one statement. The caller holds the
  // member's row lock already, so this statement does not wait for it, and its snapshot, taken
  // after the lock, sees every prepayment committed before (a statement that waited for the lock
  // would read its subqueries as they were before it waited, and charge points for units already
  // paid for).
  const [state] = await tx
    .select({
      // Uncorrelated on purpose: drizzle writes a one-table query's columns unqualified.
      cost: sql<number | null>`(select c.point_cost from ${pointCosts} c where c.action_name = ${input.actionName})`,
      points: users.points,
      prepaid: prepaidCreditsWaiting(input.userId, input.actionName),
    })
    .from(users)
    .where(and(eq(users.id, input.userId), isNull(users.deletedAt)))
    .for("no key update");
  if (state?.cost === null || state?.cost === undefined) {
    await unitCost(tx, input.actionName); // an unknown action is the caller's error first
    throw new AppError("NOT_FOUND", MSG.notFound);
  }
  const cost = state.cost;
  const required = cost * quantity;
  const available = state.points;
  // Units the member already paid for through the legacy deduct-points call first.
  const unpaidUnits =
    required > 0 && state.prepaid
      ? await consumePrepaidCredits(tx, { userId: input.userId, actionName: input.actionName, quantity })
      : quantity;
  const toCharge = cost * unpaidUnits;
  if (toCharge === 0) return { success: true, required, available, remainingPoints: available };
  const remainingPoints = await changeBalance(tx, {
    userId: input.userId,
    delta: -toCharge,
    kind: "charge",
    actionName: input.actionName,
    quantity: unpaidUnits,
    reference: input.reference,
  }).catch((error: unknown) => {
    // Report the whole requirement, as the member sees it, not just the unpaid part, against the
    // spendable points (lapsed lots left out) that the refusal read.
    if (error instanceof AppError && error.code === "PAYMENT_REQUIRED") {
      const spendable = (error.details as { available?: number } | undefined)?.available ?? available;
      throw insufficient(required, spendable);
    }
    throw error;
  });
  // Spendable before the charge: what is left (lapsed points booked out) plus what it took.
  return { success: true, required, available: remainingPoints + toCharge, remainingPoints };
}
