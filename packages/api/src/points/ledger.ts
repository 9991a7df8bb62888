import { type Db, pointCosts, pointLedger, pointLots, rowsOf, users } from "@enmusubi/db";
import { FREE_POINT_VALIDITY_DAYS, insufficientPoints, type LedgerAccount, MSG } from "@enmusubi/shared";
import { and, eq, isNull, sql } from "drizzle-orm";
import { AppError } from "../errors";
import { addLot, type DebitEntry, debitPoints, type LedgerKind, lapsedPoints, restoreToLots } from "./lots";

/*
 * Balance changes: the one writer of `users.points` / `users.send_points` and their ledger rows
 * (docs/decisions/0001, 0008). Charges for actions go through the charging pair (charge.ts for
 * one action, batch.ts for many), never through `changeBalance` directly.
 */

const column = (account: LedgerAccount) => (account === "points" ? users.points : users.sendPoints);

export interface BalanceChange extends DebitEntry {
  account?: LedgerAccount;
  delta: number;
  /** Also for a deleted account (a refund owed to a member who has left). */
  includeDeleted?: boolean;
  /** A credit bought with money (kind `purchase`): the lot is paid-for and valued at this many yen. */
  paidYen?: number;
  /** A refund: give the points back to the lots this ledger row took them from (earliest-expiring policy kept). */
  restoreFromLedgerId?: string;
}

/**
 * Debits that pay for something (an action, a prepaid unit): they are paid from valid lots only,
 * and the balance they may take is the spendable one (decision 0008). Other debits (the
 * expiry itself, an administrator's correction) take the earliest lots, lapsed ones first.
 */
const SPENDING: ReadonlySet<LedgerKind> = new Set<LedgerKind>(["charge", "prepaid_charge"]);

/**
 * Adds `delta` (negative to take) to a balance and writes its ledger row, atomically: the update
 * refuses to go below zero, so two concurrent charges can never overdraw. Call it inside the
 * transaction of the action it pays for. Returns the new balance.
 */
export async function changeBalance(tx: Db, change: BalanceChange): Promise<number> {
  return (await applyChange(tx, change)).balance;
}

/** Why a balance change matched no row: the member is not found, or the balance does not cover it. */
async function refusal(tx: Db, change: BalanceChange, spending: boolean): Promise<AppError> {
  const col = column(change.account ?? "points");
  const [user] = await tx
    .select({ balance: sql<number>`${col} - ${spending ? lapsedPoints(change.userId) : sql`0`}` })
    .from(users)
    .where(and(eq(users.id, change.userId), change.includeDeleted ? undefined : isNull(users.deletedAt)));
  return user ? insufficient(-change.delta, user.balance) : new AppError("NOT_FOUND", MSG.notFound);
}

/**
 * `changeBalance` that also answers the ledger row's id. On the `points` account a credit becomes
 * a lot and a debit takes from the lots, earliest expiry first (send_points has no lots: it is an
 * allowance, not money).
 */
export async function applyChange(tx: Db, change: BalanceChange): Promise<{ balance: number; ledgerId: string }> {
  const account = change.account ?? "points";
  // A spending debit may take the spendable balance only: lapsed lots still in the balance do not
  // count (the caller holds the row lock, so the lots read here are current).
  const spending = account === "points" && change.delta < 0 && SPENDING.has(change.kind);
  if (account === "points" && change.delta < 0) {
    // The balance, the ledger row and what it takes from the lots: one statement.
    const debited = await debitPoints(tx, { ...change, spending });
    if (!debited) throw await refusal(tx, change, spending);
    // Lapsed points seen by this charge leave the balance now, as the expiry job would book them:
    // the balance the member is answered is then what they can spend.
    const balance = debited.lapsed > 0 ? await expireMemberLots(tx, change.userId) : debited.balance;
    return { balance, ledgerId: debited.ledgerId };
  }
  const col = column(account);
  const live = change.includeDeleted ? undefined : isNull(users.deletedAt);
  const [row] = await tx
    .update(users)
    .set({ [account === "points" ? "points" : "sendPoints"]: sql`${col} + ${change.delta}` })
    .where(and(eq(users.id, change.userId), live, sql`${col} + ${change.delta} >= 0`))
    .returning({ balance: col });
  if (!row) throw await refusal(tx, change, false);
  const ledgerRow = {
    userId: change.userId,
    account,
    kind: change.kind,
    delta: change.delta,
    balanceAfter: row.balance,
    actionName: change.actionName,
    quantity: change.quantity,
    reference: change.reference,
    actorId: change.actorId,
    note: change.note,
  };
  const [entry] = await tx.insert(pointLedger).values(ledgerRow).returning({ id: pointLedger.id });
  if (!entry) throw new Error("ledger insert returned nothing");
  if (account === "points" && change.delta > 0) {
    if (change.restoreFromLedgerId) {
      await restoreToLots(tx, {
        userId: change.userId,
        ledgerId: entry.id,
        amount: change.delta,
        fromLedgerId: change.restoreFromLedgerId,
      });
    } else {
      await addLot(tx, {
        userId: change.userId,
        ledgerId: entry.id,
        amount: change.delta,
        kind: change.kind,
        paidYen: change.paidYen,
      });
    }
  }
  return { balance: row.balance, ledgerId: entry.id };
}

/**
 * The balances a new account starts with, written like any other change (kind `initial`), so the
 * account row is created at 0 and the ledger is the only writer of balances.
 */
export async function openBalances(
  tx: Db,
  input: { userId: string; points: number; sendPoints: number; actorId?: string },
): Promise<void> {
  for (const [account, delta] of [
    ["points", input.points],
    ["send_points", input.sendPoints],
  ] as const) {
    if (delta !== 0)
      await changeBalance(tx, { userId: input.userId, account, delta, kind: "initial", actorId: input.actorId });
  }
}

export interface OpeningBalance {
  userId: string;
  points: number;
  sendPoints: number;
}

/**
 * `openBalances` for many new accounts at once (seeding a large membership: the benchmarks), in
 * one set-based statement: each account, still at 0 on both accounts, gets its balances, an
 * `initial` ledger row per non-zero account and, for points, one free lot expiring as an opening
 * balance's does (docs/decisions/0008), so balance = ledger sum = lot remainders, as `openBalances`
 * leaves them. All or nothing: an account that is unknown, deleted, listed twice or already holds
 * points refuses the whole call. Answers the number of accounts opened. The accounts are found by
 * primary key when users has statistics: after a bulk load, analyze it first (the seeding does).
 */
export async function openBalancesInBulk(db: Db, rows: readonly OpeningBalance[]): Promise<number> {
  if (rows.length === 0) return 0;
  for (const row of rows) {
    if (!Number.isInteger(row.points) || !Number.isInteger(row.sendPoints) || row.points < 0 || row.sendPoints < 0)
      throw new Error(`openBalancesInBulk: balances must be whole numbers ≥ 0 (${row.userId})`);
  }
  // One JSON parameter, not three per row: the drivers cap a statement's parameters at 65,535.
  const input = JSON.stringify(rows.map((r) => ({ user_id: r.userId, points: r.points, send_points: r.sendPoints })));
  return db.transaction(async (tx) => {
    const [opened] = await rowsOf<{ accounts: number }>(
      tx,
      sql`with input as (
            select * from json_to_recordset(${input}::json) as t(user_id uuid, points int, send_points int)
          ),
          opened as (
            update ${users} u set points = i.points, send_points = i.send_points
            from input i
            where u.id = i.user_id and u.deleted_at is null and u.points = 0 and u.send_points = 0
            returning u.id, u.points, u.send_points
          ),
          ledger as (
            insert into ${pointLedger} (user_id, account, kind, delta, balance_after)
            select id, 'points'::ledger_account, 'initial'::ledger_kind, points, points from opened where points <> 0
            union all
            select id, 'send_points'::ledger_account, 'initial'::ledger_kind, send_points, send_points
            from opened where send_points <> 0
            returning id, user_id, account, delta
          ),
          lots as (
            insert into ${pointLots} (user_id, source, ledger_id, paid, amount, remaining, expires_at)
            select user_id, 'initial', id, false, delta, delta, now() + make_interval(days => ${FREE_POINT_VALIDITY_DAYS})
            from ledger where account = 'points'
          )
          select count(*)::int as accounts from opened`,
    );
    const accounts = opened?.accounts ?? 0;
    // Fewer accounts than rows: one was unknown, deleted, listed twice or not at 0. Nothing is kept.
    if (accounts !== rows.length)
      throw new Error(`openBalancesInBulk: ${rows.length - accounts} of ${rows.length} accounts cannot be opened`);
    return accounts;
  });
}

/** An administrator sets a balance to an exact figure; the ledger records the difference. */
export async function setBalance(
  tx: Db,
  input: { userId: string; account: LedgerAccount; value: number; actorId: string; note?: string },
): Promise<number> {
  const col = column(input.account);
  const [user] = await tx
    .select({ balance: col })
    .from(users)
    .where(and(eq(users.id, input.userId), isNull(users.deletedAt)))
    .for("no key update");
  if (!user) throw new AppError("NOT_FOUND", MSG.notFound);
  const delta = input.value - user.balance;
  if (delta === 0) return user.balance;
  return changeBalance(tx, {
    userId: input.userId,
    account: input.account,
    delta,
    kind: "admin_adjust",
    actorId: input.actorId,
    note: input.note ?? `${user.balance} → ${input.value}`,
  });
}

/**
 * Books `userId`'s lapsed lots (past their expiry at the transaction's time): their unspent
 * remainder leaves the balance as one `expire` ledger row (never below 0), taking those lots, being
 * the earliest. The caller holds the member's row lock: the expiry job (claimed with SKIP LOCKED)
 * and a charge that found lapsed points (which books them in its own transaction) call it alike.
 * Answers the balance after.
 */
export async function expireMemberLots(tx: Db, userId: string): Promise<number> {
  const [state] = await tx
    .select({ points: users.points, lapsed: lapsedPoints(userId) })
    .from(users)
    .where(eq(users.id, userId));
  if (!state) throw new AppError("NOT_FOUND", MSG.notFound);
  const take = Math.min(state.lapsed, state.points);
  if (take <= 0) return state.points;
  return changeBalance(tx, {
    userId,
    delta: -take,
    kind: "expire",
    note: "有効期限切れのポイント",
    includeDeleted: true,
  });
}

export interface ChargeResult {
  success: true;
  /** Points the action costs in total (cost × quantity). */
  required: number;
  /** Balance before the charge. */
  available: number;
  remainingPoints: number;
}

export function insufficient(required: number, available: number): AppError {
  return new AppError("PAYMENT_REQUIRED", insufficientPoints(required, available), {
    details: { success: false, required, available },
  });
}

export async function unitCost(tx: Db, actionName: string): Promise<number> {
  const [cost] = await tx
    .select({ pointCost: pointCosts.pointCost })
    .from(pointCosts)
    .where(eq(pointCosts.actionName, actionName));
  if (!cost) throw new AppError("BAD_REQUEST", MSG.unknownAction);
  return cost.pointCost;
}
