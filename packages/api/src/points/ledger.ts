import {
  type Db,
  pointCosts,
  pointLedger,
  pointLots,
  pointLotUsages,
  prepaidActions,
  rowsOf,
  users,
} from "@enmusubi/db";
import { insufficientPoints, MSG, POINT_VALIDITY_YEARS } from "@enmusubi/shared";
import { and, asc, desc, eq, gt, isNull, lte, type SQL, sql } from "drizzle-orm";
import { AppError } from "../errors";

type Account = "points" | "send_points";
type LedgerKind = (typeof pointLedger.$inferInsert)["kind"];

const column = (account: Account) => (account === "points" ? users.points : users.sendPoints);

export interface BalanceChange {
  userId: string;
  account?: Account;
  delta: number;
  kind: LedgerKind;
  actionName?: string;
  quantity?: number;
  reference?: string;
  actorId?: string;
  note?: string;
  /** Also for a deleted account (a refund owed to a member who has left). */
  includeDeleted?: boolean;
  /** A credit bought with money (kind `purchase`): the lot is paid-for and valued at this many yen. */
  paidYen?: number;
  /** A refund: give the points back to the lots this ledger row took them from (earliest-expiring policy kept). */
  restoreFromLedgerId?: string;
}

/** Free points (opening balance, an administrator's grant) expire sooner than bought ones (docs/decisions/0008). */
export const FREE_POINT_VALIDITY_DAYS = 180;

/** When a new lot of this kind expires: bought and refunded points 3 years (§9), free ones 180 days. */
function lotExpiry(kind: LedgerKind, paid: boolean) {
  if (paid || kind === "purchase" || kind === "refund") {
    return sql`now() + make_interval(years => ${POINT_VALIDITY_YEARS})`;
  }
  return sql`now() + make_interval(days => ${FREE_POINT_VALIDITY_DAYS})`;
}

/**
 * Writes debits of the `points` account (ledger rows with a negative delta, each with the balance
 * after it) and takes each one's points from its member's lots, earliest expiry first, recording
 * what came from which lot: one statement for any number of debits. A member's unspent lots are
 * laid end to end in that order and their debits end to end in ledger order (balance after, highest
 * first), and each debit takes the overlap of its span with each lot's. A spending debit
 * (`validOnly`: a charge) takes only lots still valid at the transaction's time, so points past
 * their expiry are never spent, even before the expiry job has booked them. The caller holds the
 * members' row locks (the balance update), and every writer of lots takes that lock first, so
 * lots change one writer at a time. Lots that fall short mean the books disagree: fail, roll back.
 * Answers the ledger rows' ids (the database makes them), in ledger order per member.
 */
async function writeDebits(
  tx: Db,
  rows: Array<typeof pointLedger.$inferInsert>,
  { validOnly }: { validOnly: boolean },
): Promise<string[]> {
  if (rows.length === 0) return [];
  const owners = sql.join(
    [...new Set(rows.map((r) => r.userId))].map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const [taken] = await rowsOf<{ ids: string[] | null; ledgers: number; points: number }>(
    tx,
    sql`
    with ledger as (
      ${tx.insert(pointLedger).values(rows).getSQL()}
      returning id, user_id, -delta as amount, balance_after
    ),
    need as (
      select id as ledger_id, user_id, amount,
             sum(amount) over (partition by user_id order by balance_after desc) - amount as start
      from ledger
    ),
    lots as (
      select id, user_id, remaining,
             sum(remaining) over (partition by user_id order by expires_at, created_at, id) - remaining as start
      from ${pointLots}
      where user_id in (${owners}) and remaining > 0 ${validOnly ? sql`and expires_at > now()` : sql``}
    ),
    take as (
      select l.id as lot_id, n.ledger_id,
             least(l.start + l.remaining, n.start + n.amount) - greatest(l.start, n.start) as amount
      from need n join lots l on l.user_id = n.user_id
      where l.start < n.start + n.amount and n.start < l.start + l.remaining
    ),
    spent as (
      update ${pointLots} p set remaining = p.remaining - t.used
      from (select lot_id, sum(amount)::int as used from take group by lot_id) t
      where p.id = t.lot_id
      returning p.id
    ),
    used as (
      insert into ${pointLotUsages} (lot_id, ledger_id, amount)
      select lot_id, ledger_id, amount from take
      returning ledger_id, amount
    )
    select (select array_agg(id::text order by user_id, balance_after desc) from ledger) as ids,
           count(distinct ledger_id)::int as ledgers, coalesce(sum(amount), 0)::int as points
    from used`,
  );
  const owed = rows.reduce((sum, r) => sum - r.delta, 0);
  if (taken?.ledgers !== rows.length || taken.points !== owed || taken.ids?.length !== rows.length) {
    throw new Error(`point lots held ${taken?.points ?? 0} of the ${owed} points debited`);
  }
  return taken.ids;
}

/** Gives `amount` back to the lots `fromLedgerId` took it from, latest expiry first; any excess becomes a new lot. */
async function restoreToLots(
  tx: Db,
  change: { userId: string; ledgerId: string; amount: number; fromLedgerId: string },
): Promise<void> {
  const taken = await tx
    .select({
      lotId: pointLotUsages.lotId,
      amount: sql<number>`sum(${pointLotUsages.amount})::int`,
      remaining: pointLots.remaining,
    })
    .from(pointLotUsages)
    .innerJoin(pointLots, eq(pointLots.id, pointLotUsages.lotId))
    .where(eq(pointLotUsages.ledgerId, change.fromLedgerId))
    .groupBy(pointLotUsages.lotId, pointLots.remaining, pointLots.expiresAt)
    .orderBy(desc(pointLots.expiresAt));
  let left = change.amount;
  for (const lot of taken) {
    if (left === 0) break;
    const back = Math.min(lot.amount, left);
    // A lot that expired meantime gets its points back too; the expiry job then takes them as expired.
    await tx
      .update(pointLots)
      .set({ remaining: sql`${pointLots.remaining} + ${back}` })
      .where(eq(pointLots.id, lot.lotId));
    await tx.insert(pointLotUsages).values({ lotId: lot.lotId, ledgerId: change.ledgerId, amount: -back });
    left -= back;
  }
  if (left > 0) await addLot(tx, { userId: change.userId, ledgerId: change.ledgerId, amount: left, kind: "refund" });
}

async function addLot(
  tx: Db,
  lot: { userId: string; ledgerId: string; amount: number; kind: LedgerKind; paidYen?: number },
): Promise<void> {
  const paid = lot.paidYen !== undefined;
  await tx.insert(pointLots).values({
    userId: lot.userId,
    source: lot.kind,
    ledgerId: lot.ledgerId,
    paid,
    amount: lot.amount,
    remaining: lot.amount,
    yenAmount: lot.paidYen ?? 0,
    expiresAt: lotExpiry(lot.kind, paid),
  });
}

/**
 * Debits that pay for something (an action, a prepaid unit): they are paid from valid lots only,
 * and the balance they may take is the spendable one (decision 0008, issue 21). Other debits (the
 * expiry itself, an administrator's correction) take the earliest lots, lapsed ones first.
 */
const SPENDING: ReadonlySet<LedgerKind> = new Set<LedgerKind>(["charge", "prepaid_charge"]);

/**
 * The points of `userId`'s lots past their expiry (at the transaction's time) that the expiry job
 * has not booked yet: in the balance, but not spendable. Read it under the member's row lock: the
 * statement's snapshot then holds every committed change to the lots.
 */
export const lapsedPoints = (userId: string | SQL) =>
  sql<number>`(select coalesce(sum(l.remaining), 0)::int from ${pointLots} l
    where l.user_id = ${userId} and l.remaining > 0 and l.expires_at <= now())`;

/**
 * Adds `delta` (negative to take) to a balance and writes its ledger row, atomically: the update
 * refuses to go below zero, so two concurrent charges can never overdraw. Call it inside the
 * transaction of the action it pays for. Returns the new balance.
 */
export async function changeBalance(tx: Db, change: BalanceChange): Promise<number> {
  return (await applyChange(tx, change)).balance;
}

/**
 * `changeBalance` that also answers the ledger row's id. On the `points` account a credit becomes
 * a lot and a debit takes from the lots, earliest expiry first (send_points has no lots: it is an
 * allowance, not money).
 */
async function applyChange(tx: Db, change: BalanceChange): Promise<{ balance: number; ledgerId: string }> {
  const account = change.account ?? "points";
  const col = column(account);
  const live = change.includeDeleted ? undefined : isNull(users.deletedAt);
  // A spending debit may take the spendable balance only: lapsed lots still in the balance do not
  // count (the caller holds the row lock, so the lots read here are current).
  const spending = account === "points" && change.delta < 0 && SPENDING.has(change.kind);
  const lapsed = spending ? lapsedPoints(change.userId) : sql<number>`0`;
  const [row] = await tx
    .update(users)
    .set({ [account === "points" ? "points" : "sendPoints"]: sql`${col} + ${change.delta}` })
    .where(and(eq(users.id, change.userId), live, sql`${col} + ${change.delta} - ${lapsed} >= 0`))
    .returning({ balance: col, lapsed });
  if (!row) {
    const [user] = await tx
      .select({ balance: sql<number>`${col} - ${lapsed}` })
      .from(users)
      .where(and(eq(users.id, change.userId), live));
    if (!user) throw new AppError("NOT_FOUND", MSG.notFound);
    throw insufficient(-change.delta, user.balance);
  }
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
  if (account === "points" && change.delta < 0) {
    // The ledger row and what it takes from the lots: one statement.
    const [ledgerId] = await writeDebits(tx, [ledgerRow], { validOnly: spending });
    // Lapsed points seen by this charge leave the balance now, as the expiry job would book them:
    // the balance the member is answered is then what they can spend.
    const balance = row.lapsed > 0 ? await expireMemberLots(tx, change.userId) : row.balance;
    return { balance, ledgerId: ledgerId as string };
  }
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

/** An administrator sets a balance to an exact figure; the ledger records the difference. */
export async function setBalance(
  tx: Db,
  input: { userId: string; account: Account; value: number; actorId: string; note?: string },
): Promise<number> {
  const col = column(input.account);
  const [user] = await tx
    .select({ balance: col })
    .from(users)
    .where(and(eq(users.id, input.userId), isNull(users.deletedAt)))
    .for("update");
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

export interface ChargeResult {
  success: true;
  /** Points the action costs in total (cost × quantity). */
  required: number;
  /** Balance before the charge. */
  available: number;
  remainingPoints: number;
}

function insufficient(required: number, available: number): AppError {
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

async function balanceOf(tx: Db, userId: string, { lock = false } = {}): Promise<number> {
  const query = tx
    .select({ points: users.points })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)))
    .$dynamic();
  const [user] = await (lock ? query.for("no key update") : query);
  if (!user) throw new AppError("NOT_FOUND", MSG.notFound);
  return user.points;
}

/**
 * Charges a paid action inside the action's own transaction. Units the member already paid for
 * through the legacy deduct-points call are used first, so nothing is charged twice. A cost of 0
 * charges nothing and writes no ledger row. Throws PAYMENT_REQUIRED with the catalogue's
 * "ポイントが不足しています…" message when the balance is short; the caller's transaction then
 * rolls back the action too.
 */
export async function chargeAction(
  tx: Db,
  input: { userId: string; actionName: string; quantity?: number; reference?: string },
): Promise<ChargeResult> {
  const quantity = input.quantity ?? 1;
  // The cost, the balance and whether prepaid units wait, in one statement.
  const [state] = await tx
    .select({
      // Uncorrelated on purpose: drizzle writes a one-table query's columns unqualified.
      cost: sql<number | null>`(select c.point_cost from ${pointCosts} c where c.action_name = ${input.actionName})`,
      points: users.points,
      credits: sql<boolean>`exists (select 1 from ${prepaidActions} p where p.user_id = ${input.userId}
        and p.action_name = ${input.actionName} and p.remaining > 0 and p.expires_at > now())`,
    })
    .from(users)
    .where(and(eq(users.id, input.userId), isNull(users.deletedAt)))
    // The member's row lock first (NO KEY: rows referencing the member may still be written), so
    // the debit below reads the member's lots as they are (lapsed points are not spendable).
    .for("no key update");
  if (state?.cost === null || state?.cost === undefined) {
    await unitCost(tx, input.actionName); // an unknown action is the caller's error first
    throw new AppError("NOT_FOUND", MSG.notFound);
  }
  const cost = state.cost;
  const required = cost * quantity;
  const available = state.points;
  let unpaidUnits = quantity;
  if (required > 0 && state.credits) {
    const credits = await tx
      .select()
      .from(prepaidActions)
      .where(
        and(
          eq(prepaidActions.userId, input.userId),
          eq(prepaidActions.actionName, input.actionName),
          gt(prepaidActions.remaining, 0),
          gt(prepaidActions.expiresAt, sql`now()`),
        ),
      )
      .orderBy(asc(prepaidActions.createdAt))
      // The member's row is locked above, so no other charge holds these; one held elsewhere is
      // being refunded (refundExpiredPrepaid locks the credit, then the member): skipped, not
      // waited for, which would close a cycle with that refund.
      .for("update", { skipLocked: true });
    for (const credit of credits) {
      if (unpaidUnits === 0) break;
      const used = Math.min(credit.remaining, unpaidUnits);
      await tx
        .update(prepaidActions)
        .set({ remaining: credit.remaining - used })
        .where(eq(prepaidActions.id, credit.id));
      unpaidUnits -= used;
    }
  }
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

/** How long a prepaid unit from the legacy deduct-points call waits for its action. */
export const PREPAID_TTL_MINUTES = 30;

/**
 * The legacy `POST /api/users/deduct-points`: charges now and records the units as prepaid, so the
 * action that follows (send, board view, profile view) consumes them instead of charging again.
 */
export async function prepayAction(
  db: Db,
  input: { userId: string; actionName: string; quantity?: number },
): Promise<ChargeResult> {
  const quantity = input.quantity ?? 1;
  return db.transaction(async (tx) => {
    const cost = await unitCost(tx, input.actionName);
    // The member's row lock first, so the debit reads the lots as they are (see chargeAction).
    const balance = await balanceOf(tx, input.userId, { lock: true });
    const required = cost * quantity;
    if (required === 0) return { success: true, required, available: balance, remainingPoints: balance };
    const { balance: remainingPoints, ledgerId } = await applyChange(tx, {
      userId: input.userId,
      delta: -required,
      kind: "prepaid_charge",
      actionName: input.actionName,
      quantity,
    });
    await tx.insert(prepaidActions).values({
      userId: input.userId,
      actionName: input.actionName,
      remaining: quantity,
      unitCost: cost,
      chargeLedgerId: ledgerId,
      expiresAt: sql`now() + make_interval(mins => ${PREPAID_TTL_MINUTES})`,
    });
    return { success: true as const, required, available: remainingPoints + required, remainingPoints };
  });
}

export interface RefundRun {
  refunded: number;
  /** Credits whose refund failed this time (each is retried on the next run; the others went ahead). */
  failed: Array<{ creditId: string; error: unknown }>;
}

/**
 * Gives back the points of prepaid units whose action never came (the legacy client deducted,
 * then the send failed or the tab closed). Run periodically. Each credit is refunded in its own
 * transaction, so one that fails cannot hold back the others; it is claimed with SKIP LOCKED and
 * zeroed with the refund, so several workers never refund it twice. A member who has left since is
 * refunded too (their account is kept, and the ledger must still add up).
 */
export async function refundExpiredPrepaid(db: Db, batch = 100): Promise<RefundRun> {
  const due = await db
    .select({ id: prepaidActions.id })
    .from(prepaidActions)
    .where(and(gt(prepaidActions.remaining, 0), sql`${prepaidActions.expiresAt} <= now()`))
    .orderBy(asc(prepaidActions.expiresAt))
    .limit(batch);
  const run: RefundRun = { refunded: 0, failed: [] };
  for (const { id } of due) {
    try {
      const done = await db.transaction(async (tx) => {
        const [credit] = await tx
          .select()
          .from(prepaidActions)
          .where(and(eq(prepaidActions.id, id), gt(prepaidActions.remaining, 0)))
          .for("update", { skipLocked: true });
        if (!credit) return false;
        const [owner] = await tx.select({ deletedAt: users.deletedAt }).from(users).where(eq(users.id, credit.userId));
        await tx.update(prepaidActions).set({ remaining: 0 }).where(eq(prepaidActions.id, credit.id));
        await changeBalance(tx, {
          userId: credit.userId,
          delta: credit.remaining * credit.unitCost,
          kind: "refund",
          actionName: credit.actionName,
          quantity: credit.remaining,
          reference: credit.id,
          note: owner?.deletedAt ? "未使用の事前減算ポイントの返還（退会済み）" : "未使用の事前減算ポイントの返還",
          includeDeleted: true,
          restoreFromLedgerId: credit.chargeLedgerId ?? undefined,
        });
        return true;
      });
      if (done) run.refunded += 1;
    } catch (error) {
      run.failed.push({ creditId: id, error });
    }
  }
  return run;
}

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

/** A member's unspent lots, earliest expiry first (the order spending takes them). */
export function unspentLots(db: Db, userId: string) {
  return db
    .select({
      id: pointLots.id,
      source: pointLots.source,
      paid: pointLots.paid,
      amount: pointLots.amount,
      remaining: pointLots.remaining,
      expiresAt: pointLots.expiresAt,
      createdAt: pointLots.createdAt,
    })
    .from(pointLots)
    .where(and(eq(pointLots.userId, userId), gt(pointLots.remaining, 0)))
    .orderBy(asc(pointLots.expiresAt), asc(pointLots.createdAt), asc(pointLots.id));
}

/** One charge of a `chargeMany` batch: `quantity` units of the action for `userId`. */
export interface BatchCharge {
  userId: string;
  quantity: number;
  reference?: string;
}

/**
 * `chargeAction` for many charges of one action at once, in the caller's transaction, in a fixed
 * number of statements whatever their count (the scheduled-message dispatcher sends hundreds per
 * transaction). The same rules, in the given order: a member's charges are taken one after the
 * other from the balance they had, each whole or not at all (short → the catalogue's 402 for that
 * charge, the member's later ones still tried); one ledger row per charge; the points come from the
 * member's lots, earliest expiry first. The members' rows are locked in id order first, so two
 * batches never wait on each other in a cycle. A member holding prepaid units of the action (the
 * legacy deduct-points call) is charged by `chargeAction` itself, one charge at a time.
 * Answers, per charge, its result or the error it would have thrown.
 */
export async function chargeMany(
  tx: Db,
  actionName: string,
  charges: BatchCharge[],
): Promise<Array<ChargeResult | AppError>> {
  const results = new Array<ChargeResult | AppError>(charges.length);
  if (charges.length === 0) return results;
  const cost = await unitCost(tx, actionName);
  const userIds = [...new Set(charges.map((c) => c.userId))].sort();
  const locked = await rowsOf<{ id: string; points: number; credits: boolean }>(
    tx,
    sql`
    select u.id, u.points, exists (
             select 1 from ${prepaidActions} p
             where p.user_id = u.id and p.action_name = ${actionName} and p.remaining > 0 and p.expires_at > now()
           ) as credits
    from ${users} u
    where u.id in (${sql.join(
      userIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    )}) and u.deleted_at is null
    order by u.id
    for update of u`,
  );
  // Lapsed points (past their lot's expiry, not yet booked) are not spendable. Read once the rows
  // are locked: a read inside the locking statement could predate a commit it waited for.
  const lapsed = new Map(
    locked.length === 0
      ? []
      : (
          await rowsOf<{ id: string; lapsed: number }>(
            tx,
            sql`select u.id, ${lapsedPoints(sql`u.id`)} as lapsed from ${users} u where u.id in (${sql.join(
              locked.map((row) => sql`${row.id}::uuid`),
              sql`, `,
            )})`,
          )
        ).map((row) => [row.id, Number(row.lapsed)]),
  );
  const accounts = new Map(
    locked.map((row) => {
      const held = lapsed.get(row.id) ?? 0;
      return [row.id, { balance: row.points - held, lapsed: held, credits: row.credits }];
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
 * The writes of `chargeMany`'s debits, set-based: the balances (the CHECK and the `>= 0` guard
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
