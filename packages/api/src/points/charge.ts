import { compiledStatement, type Db, pointCosts, sentAhead, users } from "@enmusubi/db";
import { MSG, type PointAction } from "@enmusubi/shared";
import { sql } from "drizzle-orm";
import { AppError } from "../errors";
import { type ChargeResult, changeBalance, expireMemberLots, insufficient, unitCost } from "./ledger";
import { type Debited, debitedColumns, lapsedPoints, lotsMustCover, oneDebit } from "./lots";
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
    // Sent ahead: the action's first statement follows it and runs once the lock is held.
    const locked = sentAhead(lockPayer(tx, { userId: payer.userId }));
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

/** The payer's row lock (payForAction), its text made once (compiledStatement). */
const lockPayer = compiledStatement(
  () => sql`select ${users.id} from ${users} where ${users.id} = ${sql.placeholder("userId")} for no key update`,
);

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
  // The cost, the balance, whether prepaid units wait, and the debit when none does: one
  // statement. The caller holds the member's row lock already, so this statement does not wait
  // for it, and its snapshot, taken after the lock, sees every prepayment committed before (a
  // statement that waited for the lock would read its subqueries as they were before it waited,
  // and charge points for units already paid for).
  const state = await chargePoints(tx, { ...input, quantity });
  if (state?.cost === null || state?.cost === undefined) {
    await unitCost(tx, input.actionName); // an unknown action is the caller's error first
    throw new AppError("NOT_FOUND", MSG.notFound);
  }
  const cost = state.cost;
  const required = cost * quantity;
  const available = state.points;
  if (state.debited) {
    // Lapsed points seen by this charge leave the balance now, as the expiry job would book them:
    // the balance the member is answered is then what they can spend.
    const remainingPoints = state.lapsed > 0 ? await expireMemberLots(tx, input.userId) : state.debited.balance;
    return { success: true, required, available: remainingPoints + required, remainingPoints };
  }
  if (required === 0) return { success: true, required, available, remainingPoints: available };
  // Not debited with units to pay: short of spendable points, or prepaid units wait.
  if (!state.prepaid) throw insufficient(required, available - state.lapsed);
  // Units the member already paid for through the legacy deduct-points call first.
  const unpaidUnits = await consumePrepaidCredits(tx, { userId: input.userId, actionName: input.actionName, quantity });
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

/**
 * `chargePoints`' statement, its text made once (compiledStatement): each value a placeholder of
 * its own name. The debit's entry takes them as its values (a placeholder stands in for one).
 */
const chargeStatement = compiledStatement<Debited & { cost: number | null; held: number; prepaid: boolean }>(() => {
  const slot = <T>(name: string) => sql.placeholder(name) as unknown as T;
  const userId = slot<string>("userId");
  const actionName = slot<string>("actionName");
  const required = sql`(s.cost * ${sql.placeholder("quantity")}::integer)`;
  return sql`
    with state as (
      select (select c.point_cost from ${pointCosts} c where c.action_name = ${actionName}) as cost,
             u.points, ${prepaidCreditsWaiting(sql`u.id`, actionName)} as prepaid, ${lapsedPoints(sql`u.id`)} as lapsed
      from ${users} u where u.id = ${userId} and u.deleted_at is null
    ),
    ${oneDebit({
      userId,
      kind: "charge",
      actionName,
      quantity: slot<number>("quantity"),
      reference: slot<string>("reference"),
      delta: sql`-${required}`,
      covered: sql`not s.prepaid and ${required} > 0 and u.points - ${required} - s.lapsed >= 0`,
      spending: true,
    })}
    select s.cost, s.points as held, s.prepaid, s.lapsed, ${debitedColumns} from state s`;
});

/**
 * A charge for `quantity` units of an action in one statement (chargeAction's usual case): the
 * action's cost, the member's points, whether prepaid units of it wait and the lapsed points are
 * read, and when no prepaid unit waits and the spendable points cover cost × quantity > 0, that
 * is debited (`oneDebit`, kind charge). The caller holds the member's row lock, so what is read
 * is current. Answers what was read, and the balance after the debit when there was one; nothing
 * when the member is not found (or deleted).
 */
async function chargePoints(
  tx: Db,
  charge: { userId: string; actionName: string; quantity: number; reference?: string },
): Promise<
  | {
      cost: number | null;
      points: number;
      prepaid: boolean;
      lapsed: number;
      debited?: { balance: number; ledgerId: string };
    }
  | undefined
> {
  const [row] = await chargeStatement(tx, {
    userId: charge.userId,
    actionName: charge.actionName,
    quantity: charge.quantity,
    reference: charge.reference ?? null,
  });
  if (!row) return undefined;
  const read = { cost: row.cost, points: row.held, prepaid: row.prepaid, lapsed: Number(row.lapsed ?? 0) };
  if (row.balance === null || row.cost === null) return read;
  lotsMustCover(row, 1, row.cost * charge.quantity);
  return { ...read, debited: { balance: row.balance, ledgerId: row.ids?.[0] as string } };
}
