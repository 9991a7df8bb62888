import { type Db, purchaseDailyTotals, purchaseTransactions, users } from "@enmusubi/db";
import { type AdminTransactionsInput, japanDayStart, MSG, pageOffset, TRANSACTIONS_PAGE_SIZE } from "@enmusubi/shared";
import { and, count, desc, eq, gte, inArray, lt, lte, type SQL, sql, sum } from "drizzle-orm";
import { writeAudit } from "../audit/audit-log";
import { AppError, notFound } from "../errors";
import { pagesFor } from "../lists/pages";
import { loadSettings } from "./settings";
import { confirmerOf, creditable, settle } from "./settlement";
import { refCondition, type Transaction, type TransactionRow, toTransaction } from "./transactions";

/** The administrators' orders (spec §7 payment management): the list with totals, confirm, cancel, sales. */

/**
 * `adminPayments.list`: filtered, 20 a page (REST may ask up to 100), with exact totals over the
 * whole filter. The filter's dates are Japanese calendar days, so the totals are the sum of the
 * matching rows of purchase_daily_totals (a few per day, kept by triggers in the writing
 * transaction) instead of every matching transaction (docs/decisions/0011).
 */
export async function listTransactions(db: Db, input: AdminTransactionsInput) {
  const limit = input.limit ?? TRANSACTIONS_PAGE_SIZE;
  const where: SQL[] = [];
  const daily: SQL[] = [];
  if (input.status) {
    where.push(eq(purchaseTransactions.status, input.status));
    daily.push(eq(purchaseDailyTotals.status, input.status));
  }
  if (input.method) {
    where.push(eq(purchaseTransactions.paymentMethod, input.method));
    daily.push(eq(purchaseDailyTotals.paymentMethod, input.method));
  }
  if (input.startDate) {
    where.push(gte(purchaseTransactions.createdAt, japanDayStart(input.startDate)));
    daily.push(gte(purchaseDailyTotals.day, input.startDate));
  }
  if (input.endDate) {
    where.push(lt(purchaseTransactions.createdAt, japanDayStart(input.endDate, 1)));
    daily.push(lte(purchaseDailyTotals.day, input.endDate));
  }
  const filter = where.length ? and(...where) : undefined;
  const [totals] = await db
    .select({
      count: sql<number>`coalesce(sum(${purchaseDailyTotals.count}), 0)::bigint`,
      amount: sql<number>`coalesce(sum(${purchaseDailyTotals.amount}), 0)::bigint`,
      points: sql<number>`coalesce(sum(${purchaseDailyTotals.points}), 0)::bigint`,
    })
    .from(purchaseDailyTotals)
    .where(daily.length ? and(...daily) : undefined);
  const rows = await db
    .select()
    .from(purchaseTransactions)
    .where(filter)
    .orderBy(desc(purchaseTransactions.createdAt), desc(purchaseTransactions.id))
    .limit(limit)
    .offset(pageOffset(input.page, limit));
  const ids = [...new Set(rows.flatMap((r) => [r.userId, r.confirmedById ?? r.userId]))];
  const people = ids.length
    ? await db
        .select({ id: users.id, userID: users.userId, name: users.name, email: users.email })
        .from(users)
        .where(inArray(users.id, ids))
    : [];
  const byId = new Map(people.map((p) => [p.id, p]));
  const s = await loadSettings(db);
  const total = Number(totals?.count ?? 0);
  return {
    transactions: rows.map((r) => {
      const owner = byId.get(r.userId);
      const by = r.confirmedById ? byId.get(r.confirmedById) : undefined;
      return {
        ...toTransaction(r, s, { showWithdrawn: true, confirmedBy: by ? { userID: by.userID, name: by.name } : null }),
        user: { id: r.userId, userID: owner?.userID ?? "", name: owner?.name ?? null, email: owner?.email ?? "" },
      };
    }),
    pagination: { currentPage: input.page, totalPages: pagesFor(total, false, limit), total },
    totals: { count: total, amount: Number(totals?.amount ?? 0), points: Number(totals?.points ?? 0) },
  };
}

/** Locks a transaction row for a state change; NOT_FOUND when there is none. */
async function lockTransaction(tx: Db, ref: string): Promise<TransactionRow> {
  const [row] = await tx.select().from(purchaseTransactions).where(refCondition(ref)).for("update");
  if (!row) throw notFound();
  return row;
}

function assertPending(row: TransactionRow): void {
  if (row.status === "paid") throw new AppError("CONFLICT", MSG.transactionAlreadyConfirmed);
  if (row.status !== "pending") throw new AppError("CONFLICT", MSG.transactionNotPending);
}

/**
 * `adminPayments.confirm`: a pending order's payment received. Refused (CONFLICT, nothing written)
 * when the balance column could not hold the credit; the answer names who confirmed.
 * `onCredited`: told the member once the credit has committed (their live balance, decision 0031).
 */
export async function confirmTransaction(
  db: Db,
  adminId: string,
  ref: string,
  onCredited: (userId: string) => void = () => {},
): Promise<Transaction> {
  let credited: string | undefined;
  const confirmed = await db.transaction(async (tx) => {
    const row = await lockTransaction(tx, ref);
    assertPending(row);
    if ((await creditable(tx, row)) === "overflow") throw new AppError("CONFLICT", MSG.creditWouldOverflow);
    const updated = await settle(tx, row, { adminId });
    credited = row.userId;
    await writeAudit(tx, {
      adminId,
      action: "payment.confirm",
      targetType: "purchase_transaction",
      targetId: row.id,
      details: {
        transactionId: row.transactionId,
        amount: row.amount,
        points: row.points,
        before: row.status,
        after: "paid",
      },
    });
    return toTransaction(updated, await loadSettings(tx), {
      showWithdrawn: true,
      confirmedBy: await confirmerOf(tx, adminId),
    });
  });
  if (credited) onCredited(credited);
  return confirmed;
}

/**
 * `adminPayments.cancel`: a pending order withdrawn; its payment code leaves the member's answers.
 * A store payment that still arrives for it is credited or listed (handleSmartPitNotification).
 */
export async function cancelTransaction(db: Db, adminId: string, ref: string): Promise<Transaction> {
  return db.transaction(async (tx) => {
    const row = await lockTransaction(tx, ref);
    assertPending(row);
    const [updated] = await tx
      .update(purchaseTransactions)
      .set({ status: "cancelled", cancelledAt: sql`now()` })
      .where(eq(purchaseTransactions.id, row.id))
      .returning();
    if (!updated) throw notFound();
    await writeAudit(tx, {
      adminId,
      action: "payment.cancel",
      targetType: "purchase_transaction",
      targetId: row.id,
      details: { transactionId: row.transactionId, amount: row.amount, before: row.status, after: "cancelled" },
    });
    return toTransaction(updated, await loadSettings(tx), { showWithdrawn: true });
  });
}

/** `adminPayments.sales`: paid transactions grouped by the Japanese day or month they were confirmed. */
export async function sales(db: Db, input: { granularity: "day" | "month"; from?: string; to?: string }) {
  const unit = input.granularity === "day" ? "day" : "month";
  const format = input.granularity === "day" ? "YYYY-MM-DD" : "YYYY-MM";
  const period = sql<string>`to_char(date_trunc(${sql.raw(`'${unit}'`)}, ${purchaseTransactions.confirmedAt} at time zone 'Asia/Tokyo'), ${sql.raw(`'${format}'`)})`;
  const where: SQL[] = [eq(purchaseTransactions.status, "paid")];
  if (input.from) where.push(gte(purchaseTransactions.confirmedAt, japanDayStart(input.from)));
  if (input.to) where.push(lt(purchaseTransactions.confirmedAt, japanDayStart(input.to, 1)));
  const rows = await db
    .select({
      period,
      count: count(),
      amount: sum(purchaseTransactions.amount).mapWith(Number),
      points: sum(purchaseTransactions.points).mapWith(Number),
    })
    .from(purchaseTransactions)
    .where(and(...where))
    .groupBy(period)
    .orderBy(period);
  return rows.map((r) => ({ period: r.period, count: r.count, amount: r.amount ?? 0, points: r.points ?? 0 }));
}
