import { type Db, pointLedger, pointLots, pointLotUsages, rowsOf, users } from "@enmusubi/db";
import { FREE_POINT_VALIDITY_DAYS, POINT_VALIDITY_YEARS } from "@enmusubi/shared";
import { and, asc, desc, eq, gt, type SQL, sql } from "drizzle-orm";

/*
 * Lots and what spends them (docs/decisions/0008): every credit of the `points` account is a lot
 * with its expiry, every debit takes from the lots, earliest expiry first. Only the ledger
 * (ledger.ts) and the batch charge (batch.ts) write here, under the members' row locks.
 */

export type LedgerKind = (typeof pointLedger.$inferInsert)["kind"];

/** Free points (opening balance, an administrator's grant) expire sooner than bought ones (docs/decisions/0008). */
export { FREE_POINT_VALIDITY_DAYS };

/** When a new lot of this kind expires: bought and refunded points 3 years (§9), free ones 180 days. */
function lotExpiry(kind: LedgerKind, paid: boolean) {
  if (paid || kind === "purchase" || kind === "refund") {
    return sql`now() + make_interval(years => ${POINT_VALIDITY_YEARS})`;
  }
  return sql`now() + make_interval(days => ${FREE_POINT_VALIDITY_DAYS})`;
}

/**
 * What takes a `ledger` CTE's debits (id, user_id, amount, balance_after) from their members' lots,
 * earliest expiry first, recording what came from which lot. A member's unspent lots are laid end
 * to end in that order and their debits end to end in ledger order (balance after, highest first),
 * and each debit takes the overlap of its span with each lot's. A spending debit (`validOnly`: a
 * charge) takes only lots still valid at the transaction's time, so points past their expiry are
 * never spent, even before the expiry job has booked them. Ends with `used` (ledger_id, amount).
 */
function takeFromLots(owners: SQL, validOnly: boolean): SQL {
  return sql`
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
    )`;
}

/** Lots that fall short of a debit mean the books disagree: fail, and the transaction rolls back. */
export function lotsMustCover(
  taken: { ids: string[] | null; ledgers: number; points: number } | undefined,
  rows: number,
  owed: number,
): void {
  if (taken?.ledgers !== rows || taken.points !== owed || taken.ids?.length !== rows) {
    throw new Error(`point lots held ${taken?.points ?? 0} of the ${owed} points debited`);
  }
}

/**
 * Writes debits of the `points` account (ledger rows with a negative delta, each with the balance
 * after it) and takes each one's points from its member's lots (`takeFromLots`): one statement for
 * any number of debits. The caller holds the members' row locks (the balance update), and every
 * writer of lots takes that lock first, so lots change one writer at a time. Answers the ledger
 * rows' ids (the database makes them), in ledger order per member.
 */
export async function writeDebits(
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
    ${takeFromLots(owners, validOnly)}
    select (select array_agg(id::text order by user_id, balance_after desc) from ledger) as ids,
           count(distinct ledger_id)::int as ledgers, coalesce(sum(amount), 0)::int as points
    from used`,
  );
  lotsMustCover(
    taken,
    rows.length,
    rows.reduce((sum, r) => sum - r.delta, 0),
  );
  return taken?.ids ?? [];
}

/** A ledger row's own columns, other than its account, delta and the balance after it. */
export interface DebitEntry {
  userId: string;
  kind: LedgerKind;
  actionName?: string;
  quantity?: number;
  reference?: string;
  actorId?: string;
  note?: string;
}

/**
 * The CTEs of one debit after a `state` CTE (`s`): `balance` takes `delta` (SQL, negative) from
 * the member's points where `covered` holds, `ledger` writes its row with the balance after it,
 * then `takeFromLots`. When `covered` does not hold, or the member is not found, none of them
 * writes anything.
 */
export function oneDebit(
  d: DebitEntry & { delta: SQL; covered: SQL; includeDeleted?: boolean; spending: boolean },
): SQL {
  return sql`
    balance as (
      update ${users} u set points = u.points + ${d.delta}, updated_at = now()
      from state s
      where u.id = ${d.userId} ${d.includeDeleted ? sql`` : sql`and u.deleted_at is null`} and ${d.covered}
      returning u.id, u.points
    ),
    ledger as (
      insert into ${pointLedger} (user_id, account, kind, delta, balance_after, action_name, quantity, reference, actor_id, note)
      select b.id, 'points'::ledger_account, ${d.kind}::ledger_kind, ${d.delta}, b.points,
             ${d.actionName ?? null}::text, ${d.quantity ?? null}::integer, ${d.reference ?? null}::text,
             ${d.actorId ?? null}::uuid, ${d.note ?? null}::text
      from balance b, state s
      returning id, user_id, -delta as amount, balance_after
    ),
    ${takeFromLots(sql`${d.userId}::uuid`, d.spending)}`;
}

/** What a statement built on `oneDebit` answers: the balance after it (null when nothing was taken). */
export interface Debited {
  balance: number | null;
  lapsed: number | null;
  ids: string[] | null;
  ledgers: number;
  points: number;
}

export const debitedColumns = sql`(select points from balance) as balance, (select array_agg(id::text) from ledger) as ids,
  (select count(distinct ledger_id)::int from used) as ledgers, (select coalesce(sum(amount), 0)::int from used) as points`;

/** One debit of the `points` account: the balance it may take, and the ledger row's other columns. */
export interface PointsDebit extends DebitEntry {
  /** Negative. */
  delta: number;
  /** A deleted account's balance may be taken too (else it is not found). */
  includeDeleted?: boolean;
  /** A spending debit: valid lots only, and the balance less lapsed points must cover it. */
  spending: boolean;
}

/**
 * One debit of a member's points in one statement: the balance (never below zero, nor below the
 * lapsed points for a spending debit), its ledger row with the balance after it, and what it takes
 * from the lots (`takeFromLots`). The caller holds the member's row lock. Answers nothing when the
 * balance does not cover it or the member is not found (the statement then changed nothing).
 */
export async function debitPoints(
  tx: Db,
  debit: PointsDebit,
): Promise<{ balance: number; lapsed: number; ledgerId: string } | undefined> {
  const delta = sql`${debit.delta}::integer`;
  const [row] = await rowsOf<Debited>(
    tx,
    sql`
    with state as (select ${debit.spending ? lapsedPoints(debit.userId) : sql`0`} as lapsed),
    ${oneDebit({ ...debit, delta, covered: sql`u.points + ${delta} - s.lapsed >= 0` })}
    select (select lapsed from state) as lapsed, ${debitedColumns}`,
  );
  if (row?.balance === null || row?.balance === undefined) return undefined;
  lotsMustCover(row, 1, -debit.delta);
  return { balance: row.balance, lapsed: Number(row.lapsed ?? 0), ledgerId: row.ids?.[0] as string };
}

/** Gives `amount` back to the lots `fromLedgerId` took it from, latest expiry first; any excess becomes a new lot. */
export async function restoreToLots(
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

export async function addLot(
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
 * The points of `userId`'s lots past their expiry (at the transaction's time) that the expiry job
 * has not booked yet: in the balance, but not spendable. Read it under the member's row lock: the
 * statement's snapshot then holds every committed change to the lots.
 */
export const lapsedPoints = (userId: string | SQL) =>
  sql<number>`(select coalesce(sum(l.remaining), 0)::int from ${pointLots} l
    where l.user_id = ${userId} and l.remaining > 0 and l.expires_at <= now())`;

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
