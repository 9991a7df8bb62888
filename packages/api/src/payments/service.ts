import { randomBytes } from "node:crypto";
import {
  type Db,
  paymentNotificationNonces,
  paymentSettings,
  pointCosts,
  purchaseDailyTotals,
  purchaseTransactions,
  users,
} from "@enmusubi/db";
import {
  type AdminTransactionsInput,
  BANK_TRANSFER_BALANCE_DEFAULT,
  EXCHANGE_RATE_DEFAULT,
  japanDayStart,
  MSG,
  type PaymentMethod,
  POINT_VALIDITY_YEARS,
  PURCHASE_LIMIT_DEFAULTS,
  type PurchaseCreateInput,
  purchaseAboveMaximum,
  purchaseBelowMinimum,
  TRANSACTIONS_PAGE_SIZE,
  type TransactionStatus,
} from "@enmusubi/shared";
import { and, asc, count, desc, eq, gte, inArray, lt, lte, type SQL, sql, sum } from "drizzle-orm";
import { z } from "zod";
import { writeAudit } from "../audit/audit-log";
import type { OperatorInfo } from "../context";
import { AppError, notFound } from "../errors";
import { changeBalance } from "../points/ledger";
import { bankTransferProvider } from "./providers/bank-transfer";
import type { PaymentProvider } from "./providers/provider";
import { SMARTPIT_HEADERS, smartPitProvider, verifySmartPitSignature } from "./providers/smart-pit";

const PROVIDERS: Record<PaymentMethod, PaymentProvider> = {
  smart_pit: smartPitProvider,
  bank_transfer: bankTransferProvider,
};

type SettingsRow = typeof paymentSettings.$inferSelect;
type TransactionRow = typeof purchaseTransactions.$inferSelect;

/** The single settings row; made with the §9 defaults if a database lacks it. */
export async function loadSettings(db: Db, lock = false): Promise<SettingsRow> {
  const read = () => {
    const q = db.select().from(paymentSettings).where(eq(paymentSettings.id, 1));
    return lock ? q.for("update") : q;
  };
  const [row] = await read();
  if (row) return row;
  await db
    .insert(paymentSettings)
    .values({
      id: 1,
      exchangeYenAmount: EXCHANGE_RATE_DEFAULT.yenAmount,
      exchangePointAmount: EXCHANGE_RATE_DEFAULT.pointAmount,
      exchangeIsActive: EXCHANGE_RATE_DEFAULT.isActive,
      minimumPurchase: PURCHASE_LIMIT_DEFAULTS.minimumPurchase,
      maximumPurchase: PURCHASE_LIMIT_DEFAULTS.maximumPurchase,
      bankTransferBalance: BANK_TRANSFER_BALANCE_DEFAULT,
    })
    .onConflictDoNothing();
  const [made] = await read();
  if (!made) throw new Error("payment settings row missing");
  return made;
}

/**
 * Points for a yen amount at the rate: spec §5 floor(amount / (yenAmount / pointAmount)), computed
 * in integers (amount × pointAmount ÷ yenAmount) so a rate like 3 yen = 1 point never rounds 2.9999….
 */
export function pointsFor(amount: number, rate: { yenAmount: number; pointAmount: number }): number {
  return Math.floor((amount * rate.pointAmount) / rate.yenAmount);
}

const bankOf = (s: SettingsRow) => ({
  bankName: s.bankName,
  bankBranchName: s.bankBranchName,
  bankAccountType: s.bankAccountType,
  bankAccountNumber: s.bankAccountNumber,
  bankAccountName: s.bankAccountName,
});

// ---------- public and member reads ----------

/** `legal.info`: what 特商法, the terms and the purchase screen all show, from one place. */
export async function legalInfo(db: Db, operator: OperatorInfo | undefined) {
  const settings = await loadSettings(db);
  const costs = await db
    .select({ actionName: pointCosts.actionName, displayName: pointCosts.displayName, pointCost: pointCosts.pointCost })
    .from(pointCosts)
    .orderBy(asc(pointCosts.sortOrder), asc(pointCosts.actionName));
  const placeholder = (v: string) => `（未設定：${v}）`;
  return {
    exchange: { yenAmount: settings.exchangeYenAmount, pointAmount: settings.exchangePointAmount },
    minimumPurchase: settings.minimumPurchase,
    maximumPurchase: settings.maximumPurchase,
    methods: { smartPit: settings.smartPitIsActive, bankTransfer: settings.bankIsActive },
    pointValidityYears: POINT_VALIDITY_YEARS,
    operator: operator ?? {
      name: placeholder("OPERATOR_NAME"),
      address: placeholder("OPERATOR_ADDRESS"),
      phone: placeholder("OPERATOR_PHONE"),
      email: placeholder("OPERATOR_EMAIL"),
      datingBusinessNumber: placeholder("DATING_BUSINESS_NUMBER"),
    },
    pointCosts: costs,
  };
}

/** `purchase.settings`: what a member needs to order. Never the SmartPit API key or id. */
export async function memberPurchaseSettings(db: Db) {
  const s = await loadSettings(db);
  return {
    exchange: { yenAmount: s.exchangeYenAmount, pointAmount: s.exchangePointAmount, isActive: s.exchangeIsActive },
    minimumPurchase: s.minimumPurchase,
    maximumPurchase: s.maximumPurchase,
    methods: { smartPit: s.smartPitIsActive, bankTransfer: s.bankIsActive },
    bank: s.bankIsActive ? bankOf(s) : null,
  };
}

export async function quote(db: Db, amount: number) {
  const s = await loadSettings(db);
  return { amount, points: pointsFor(amount, { yenAmount: s.exchangeYenAmount, pointAmount: s.exchangePointAmount }) };
}

// ---------- transactions ----------

export interface Transaction {
  id: string;
  transactionId: string;
  amount: number;
  points: number;
  paymentMethod: PaymentMethod;
  status: TransactionStatus;
  createdAt: Date;
  confirmedAt: Date | null;
  cancelledAt: Date | null;
  confirmedVia: "admin" | "smartpit" | null;
  smartPit: { paymentCode: string; barcodeValue: string; expiresAt: Date | null } | null;
  bank: (ReturnType<typeof bankOf> & { transferName: string }) | null;
}

function toTransaction(row: TransactionRow, settings: SettingsRow): Transaction {
  return {
    id: row.id,
    transactionId: row.transactionId,
    amount: row.amount,
    points: row.points,
    paymentMethod: row.paymentMethod,
    status: row.status,
    createdAt: row.createdAt,
    confirmedAt: row.confirmedAt,
    cancelledAt: row.cancelledAt,
    confirmedVia: (row.confirmedVia as Transaction["confirmedVia"]) ?? null,
    smartPit:
      row.paymentMethod === "smart_pit" && row.smartPitPaymentCode
        ? {
            paymentCode: row.smartPitPaymentCode,
            barcodeValue: row.smartPitBarcode ?? row.smartPitPaymentCode,
            expiresAt: row.smartPitExpiresAt,
          }
        : null,
    // The member writes the reference as the sender name, so the administrator can match the transfer.
    bank: row.paymentMethod === "bank_transfer" ? { ...bankOf(settings), transferName: row.transactionId } : null,
  };
}

/** A reference a member can read out and type: date plus 8 random base-32 characters. */
function newTransactionId(now: Date): string {
  const day = now.toISOString().slice(0, 10).replace(/-/g, "");
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  const bytes = randomBytes(8);
  let tail = "";
  for (const b of bytes) tail += alphabet[b % alphabet.length];
  return `TX${day}${tail}`;
}

/**
 * `purchase.create`: the points are computed here from the active rate (whatever the client sent),
 * the amount must be within the settings' limits and the method active. The row starts pending;
 * points are credited only when the payment is confirmed.
 */
export async function createPurchase(db: Db, userId: string, input: PurchaseCreateInput): Promise<Transaction> {
  return db.transaction(async (tx) => {
    const s = await loadSettings(tx);
    if (!s.exchangeIsActive) throw new AppError("BAD_REQUEST", MSG.exchangeInactive);
    const active = input.paymentMethod === "smart_pit" ? s.smartPitIsActive : s.bankIsActive;
    if (!active) throw new AppError("BAD_REQUEST", MSG.paymentMethodUnavailable);
    if (input.amount < s.minimumPurchase) throw new AppError("BAD_REQUEST", purchaseBelowMinimum(s.minimumPurchase));
    if (input.amount > s.maximumPurchase) throw new AppError("BAD_REQUEST", purchaseAboveMaximum(s.maximumPurchase));
    const points = pointsFor(input.amount, { yenAmount: s.exchangeYenAmount, pointAmount: s.exchangePointAmount });
    if (points < 1) throw new AppError("BAD_REQUEST", MSG.amountInvalid);
    const now = new Date();
    const transactionId = newTransactionId(now);
    const issued = PROVIDERS[input.paymentMethod].issue({
      transactionId,
      amount: input.amount,
      settings: { smartPitId: s.smartPitId, smartPitApiKey: s.smartPitApiKey },
      now,
    });
    const [row] = await tx
      .insert(purchaseTransactions)
      .values({
        transactionId,
        userId,
        paymentMethod: input.paymentMethod,
        amount: input.amount,
        points,
        status: "pending",
        smartPitPaymentCode: issued.smartPit?.paymentCode,
        smartPitBarcode: issued.smartPit?.barcodeValue,
        smartPitExpiresAt: issued.smartPit?.expiresAt,
      })
      .returning();
    if (!row) throw new Error("insert returned nothing");
    return toTransaction(row, s);
  });
}

/** `purchase.history`: the member's own transactions, newest first, 20 a page. */
export async function purchaseHistory(db: Db, userId: string, page: number) {
  const s = await loadSettings(db);
  const [total] = await db
    .select({ n: count() })
    .from(purchaseTransactions)
    .where(eq(purchaseTransactions.userId, userId));
  const rows = await db
    .select()
    .from(purchaseTransactions)
    .where(eq(purchaseTransactions.userId, userId))
    .orderBy(desc(purchaseTransactions.createdAt), desc(purchaseTransactions.id))
    .limit(TRANSACTIONS_PAGE_SIZE)
    .offset((page - 1) * TRANSACTIONS_PAGE_SIZE);
  const n = total?.n ?? 0;
  return {
    transactions: rows.map((r) => toTransaction(r, s)),
    pagination: { currentPage: page, totalPages: Math.max(1, Math.ceil(n / TRANSACTIONS_PAGE_SIZE)), total: n },
  };
}

/** A member's own transaction by id or reference; anyone else's is NOT_FOUND. */
export async function ownTransaction(db: Db, userId: string, ref: string): Promise<Transaction> {
  const [row] = await db
    .select()
    .from(purchaseTransactions)
    .where(and(refCondition(ref), eq(purchaseTransactions.userId, userId)));
  if (!row) throw notFound();
  return toTransaction(row, await loadSettings(db));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const refCondition = (ref: string) =>
  UUID.test(ref) ? eq(purchaseTransactions.id, ref) : eq(purchaseTransactions.transactionId, ref);

// ---------- administrator ----------

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
    .offset((input.page - 1) * limit);
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
        ...toTransaction(r, s),
        user: { id: r.userId, userID: owner?.userID ?? "", name: owner?.name ?? null, email: owner?.email ?? "" },
        confirmedBy: by ? { userID: by.userID, name: by.name } : null,
      };
    }),
    pagination: { currentPage: input.page, totalPages: Math.max(1, Math.ceil(total / limit)), total },
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
 * Marks a pending transaction paid and credits its points as a paid-for lot, in the caller's
 * transaction. The row lock makes the state check and the credit one step: a second or concurrent
 * confirmation waits, then sees `paid` and is refused, so the points are credited once.
 */
async function settle(
  tx: Db,
  row: TransactionRow,
  by: { adminId: string } | { via: "smartpit" },
): Promise<TransactionRow> {
  assertPending(row);
  const adminId = "adminId" in by ? by.adminId : null;
  const [updated] = await tx
    .update(purchaseTransactions)
    .set({
      status: "paid",
      confirmedAt: sql`now()`,
      confirmedById: adminId,
      confirmedVia: adminId ? "admin" : "smartpit",
    })
    .where(and(eq(purchaseTransactions.id, row.id), eq(purchaseTransactions.status, "pending")))
    .returning();
  if (!updated) throw new AppError("CONFLICT", MSG.transactionAlreadyConfirmed);
  await changeBalance(tx, {
    userId: row.userId,
    delta: row.points,
    kind: "purchase",
    paidYen: row.amount,
    reference: row.transactionId,
    actorId: adminId ?? undefined,
    note: adminId ? "入金確認（管理者）" : "入金確認（SmartPit通知）",
    // The money arrived: a member who has left since is credited too, so the books add up.
    includeDeleted: true,
  });
  return updated;
}

export async function confirmTransaction(db: Db, adminId: string, ref: string): Promise<Transaction> {
  return db.transaction(async (tx) => {
    const row = await lockTransaction(tx, ref);
    const updated = await settle(tx, row, { adminId });
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
    return toTransaction(updated, await loadSettings(tx));
  });
}

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
    return toTransaction(updated, await loadSettings(tx));
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

// ---------- SmartPit notification ----------

const notificationBody = z.object({
  transactionId: z.string().min(1).max(64),
  paymentCode: z.string().min(1).max(64),
  amount: z.number().int().positive(),
  paidAt: z.string().max(64).optional(),
});

/**
 * A signed notification from SmartPit that a code was paid: verified with the API key (forged or
 * stale → UNAUTHORIZED), refused when its nonce was seen before, then the transaction is confirmed
 * exactly as an administrator would (confirmedBy null, confirmedVia smartpit). The nonce is stored in
 * the same transaction, so a replay racing the original is refused by the primary key.
 */
export async function handleSmartPitNotification(
  db: Db,
  input: { rawBody: string; headers: Record<string, string | string[] | undefined>; now?: Date },
): Promise<Transaction> {
  const header = (name: string) => {
    const v = input.headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const settings = await loadSettings(db);
  const nonce = header(SMARTPIT_HEADERS.nonce);
  const check = verifySmartPitSignature({
    apiKey: settings.smartPitApiKey,
    signature: header(SMARTPIT_HEADERS.signature),
    timestamp: header(SMARTPIT_HEADERS.timestamp),
    nonce,
    rawBody: input.rawBody,
    now: input.now ?? new Date(),
  });
  if (check !== "ok" || !nonce) throw new AppError("UNAUTHORIZED", MSG.notificationRejected);
  let body: z.infer<typeof notificationBody>;
  try {
    body = notificationBody.parse(JSON.parse(input.rawBody));
  } catch {
    throw new AppError("BAD_REQUEST", MSG.invalidJson);
  }
  return db.transaction(async (tx) => {
    const stored = await tx
      .insert(paymentNotificationNonces)
      .values({ nonce, provider: "smartpit" })
      .onConflictDoNothing()
      .returning({ nonce: paymentNotificationNonces.nonce });
    if (stored.length === 0) throw new AppError("CONFLICT", MSG.notificationReplayed);
    const [row] = await tx
      .select()
      .from(purchaseTransactions)
      .where(
        and(
          eq(purchaseTransactions.transactionId, body.transactionId),
          eq(purchaseTransactions.paymentMethod, "smart_pit"),
        ),
      )
      .for("update");
    if (!row || row.smartPitPaymentCode !== body.paymentCode) throw notFound();
    if (row.amount !== body.amount) throw new AppError("BAD_REQUEST", MSG.notificationAmountMismatch);
    const updated = await settle(tx, row, { via: "smartpit" });
    return toTransaction(updated, settings);
  });
}

/** Nonces are needed only while their timestamp window is open; older ones are dropped. */
export async function pruneNotificationNonces(db: Db): Promise<number> {
  const gone = await db
    .delete(paymentNotificationNonces)
    .where(lt(paymentNotificationNonces.receivedAt, sql`now() - interval '1 day'`))
    .returning({ nonce: paymentNotificationNonces.nonce });
  return gone.length;
}

/**
 * SmartPit codes the store no longer accepts (past `smart_pit_expires_at`) end as `failed`; nothing
 * was credited, so nothing is taken back. A notification for one is then refused (not pending).
 */
export async function failExpiredSmartPit(db: Db): Promise<number> {
  const failed = await db
    .update(purchaseTransactions)
    .set({ status: "failed" })
    .where(
      and(
        eq(purchaseTransactions.status, "pending"),
        eq(purchaseTransactions.paymentMethod, "smart_pit"),
        lt(purchaseTransactions.smartPitExpiresAt, sql`now()`),
      ),
    )
    .returning({ id: purchaseTransactions.id });
  return failed.length;
}
