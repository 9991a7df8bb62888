import { type Db, type pointLedger, rowsOf, users } from "@enmusubi/db";
import { MSG, type PointAction } from "@enmusubi/shared";
import { sql } from "drizzle-orm";
import { AppError } from "../errors";
import { chargeAction } from "./charge";
import { type ChargeResult, expireMemberLots, insufficient, unitCost } from "./ledger";
import { lapsedPoints, writeDebits } from "./lots";
import { prepaidCreditsWaiting } from "./prepaid";

/*
 * Charging many actions at once: the batch half of the charging pair (the single half is
 * charge.ts). The scheduled dispatcher's set-based sends are its one caller; test/paid-actions.test.ts
 * lists every caller of both halves (docs/decisions/0020).
 */

/** One charge of a `chargeBatch`: `quantity` units of the action for `userId`. */
export interface BatchCharge {
  userId: string;
  quantity: number;
  reference?: string;
}

/** `chargeBatch` bound to a transaction and an action: what a service that charges many is handed. */
export type ChargeBatch = (charges: BatchCharge[]) => Promise<Array<ChargeResult | AppError>>;

/**
 * The batch half of the charging pair: `payForAction`'s charge (charge.ts) for many charges of one action at once, in the caller's transaction, in a fixed
 * number of statements whatever their count (the scheduled-message dispatcher sends hundreds per
 * transaction). The same rules, in the given order: a member's charges are taken one after the
 * other from the balance they had, each whole or not at all (short → the catalogue's 402 for that
 * charge, the member's later ones still tried); one ledger row per charge; the points come from the
 * member's lots, earliest expiry first. The members' rows are locked in id order first, so two
 * batches never wait on each other in a cycle; `for no key update`, as every charge locks its payer
 * (charge.ts), so a message insert's foreign-key check on the same member does not wait on it. A member holding prepaid units of the action (the
 * legacy deduct-points call) is charged by `chargeAction` itself, one charge at a time.
 * Answers, per charge, its result or the error it would have thrown.
 */
export async function chargeBatch(
  tx: Db,
  actionName: PointAction,
  charges: BatchCharge[],
): Promise<Array<ChargeResult | AppError>> {
  const results = new Array<ChargeResult | AppError>(charges.length);
  if (charges.length === 0) return results;
  const cost = await unitCost(tx, actionName);
  const userIds = [...new Set(charges.map((c) => c.userId))].sort();
  const locked = await rowsOf<{ id: string; points: number }>(
    tx,
    sql`
    select u.id, u.points
    from ${users} u
    where u.id in (${sql.join(
      userIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    )}) and u.deleted_at is null
    order by u.id
    for no key update of u`,
  );
  // Lapsed points (past their lot's expiry, not yet booked) are not spendable, and prepaid units
  // are used before points. Both read once the rows are locked: a read inside the locking
  // statement keeps the snapshot it took before waiting, and could miss a commit it waited for.
  const after = new Map(
    locked.length === 0
      ? []
      : (
          await rowsOf<{ id: string; lapsed: number; credits: boolean }>(
            tx,
            sql`select u.id, ${lapsedPoints(sql`u.id`)} as lapsed, ${prepaidCreditsWaiting(sql`u.id`, actionName)} as credits
                from ${users} u where u.id in (${sql.join(
                  locked.map((row) => sql`${row.id}::uuid`),
                  sql`, `,
                )})`,
          )
        ).map((row) => [row.id, { lapsed: Number(row.lapsed), credits: row.credits }]),
  );
  const accounts = new Map(
    locked.map((row) => {
      const held = after.get(row.id)?.lapsed ?? 0;
      return [row.id, { balance: row.points - held, lapsed: held, credits: after.get(row.id)?.credits ?? false }];
    }),
  );
  const ledger: Array<typeof pointLedger.$inferInsert> = [];
  for (const [index, charge] of charges.entries()) {
    const account = accounts.get(charge.userId);
    const required = cost * charge.quantity;
    if (!account) {
      results[index] = new AppError("NOT_FOUND", MSG.notFound);
      continue;
    }
    if (account.credits && required > 0) continue; // chargeAction below, after the set-based writes
    const available = account.balance;
    if (required === 0) {
      results[index] = { success: true, required, available, remainingPoints: available };
      continue;
    }
    if (available < required) {
      results[index] = insufficient(required, available);
      continue;
    }
    account.balance -= required;
    ledger.push({
      userId: charge.userId,
      account: "points",
      kind: "charge",
      delta: -required,
      // The balance itself still holds the lapsed points until they are booked just below.
      balanceAfter: account.balance + account.lapsed,
      actionName,
      quantity: charge.quantity,
      reference: charge.reference,
    });
    results[index] = { success: true, required, available, remainingPoints: account.balance };
  }
  if (ledger.length > 0) {
    await writeBatchDebits(tx, ledger);
    // Members charged here who held lapsed points: booked now, as a single charge does.
    for (const userId of new Set(ledger.map((d) => d.userId))) {
      if ((accounts.get(userId)?.lapsed ?? 0) > 0) await expireMemberLots(tx, userId);
    }
  }
  for (const [index, charge] of charges.entries()) {
    if (results[index]) continue;
    results[index] = await chargeAction(tx, { actionName, ...charge }).catch((error: unknown) => {
      if (error instanceof AppError) return error;
      throw error;
    });
  }
  return results;
}

/**
 * The writes of `chargeBatch`'s debits, set-based: the balances (the CHECK and the `>= 0` guard
 * still hold: a member whose balance moved since the lock would be a bug, and fails the batch),
 * then the ledger rows and the lots (`writeDebits`, the same statement as a single charge's).
 */
async function writeBatchDebits(tx: Db, debits: Array<typeof pointLedger.$inferInsert>): Promise<void> {
  const totals = new Map<string, number>();
  for (const d of debits) totals.set(d.userId, (totals.get(d.userId) ?? 0) - d.delta);
  const updated = await rowsOf<{ id: string }>(
    tx,
    sql`
    update ${users} set points = ${users.points} - v.total
    from (values ${sql.join(
      [...totals].map(([id, total]) => sql`(${id}::uuid, ${total}::int)`),
      sql`, `,
    )}) as v(id, total)
    where ${users.id} = v.id and ${users.points} - v.total >= 0
    returning ${users.id}`,
  );
  if (updated.length !== totals.size) throw new Error("a batch debit found a balance changed under its lock");
  await writeDebits(tx, debits, { validOnly: true });
}
