import { randomBytes } from "node:crypto";
import {
  type Db,
  type NotificationOutcome,
  paymentNotificationNonces,
  paymentNotifications,
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
  type NotificationListInput,
  type PaymentMethod,
  POINT_BALANCE_CEILING,
  POINT_VALIDITY_YEARS,
  POINTS_PER_ORDER_MAX,
  PURCHASE_LIMIT_DEFAULTS,
  type PurchaseCreateInput,
  purchaseAboveMaximum,
  purchaseBelowMinimum,
  TRANSACTIONS_PAGE_SIZE,
  type TransactionStatus,
} from "@enmusubi/shared";
import { and, asc, count, desc, eq, gte, inArray, isNull, lt, lte, type SQL, sql, sum } from "drizzle-orm";
import { z } from "zod";
import { writeAudit } from "../audit/audit-log";
import type { OperatorInfo } from "../context";
import { AppError, notFound } from "../errors";
import { changeBalance } from "../points/ledger";
import { usableMethods } from "./methods";
import { bankTransferProvider } from "./providers/bank-transfer";
import type { PaymentProvider } from "./providers/provider";
import { SMARTPIT_HEADERS, smartPitProvider, verifySmartPitSignature } from "./providers/smart-pit";
import { simulateSmartPitPayment } from "./providers/smart-pit-simulator";

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
  // In BigInt: amount × pointAmount can pass 2^53 with the settings' largest figures.
  return Number((BigInt(amount) * BigInt(rate.pointAmount)) / BigInt(rate.yenAmount));
}

/** The largest balance the `points` column holds (PostgreSQL integer). */
const BALANCE_COLUMN_MAX = 2_147_483_647;

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
    methods: usableMethods(settings),
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

/**
 * `purchase.settings`: what a member needs to order. Never the SmartPit API key or id. A method is
 * offered only when it is switched on and configured completely (`usableMethods`).
 */
export async function memberPurchaseSettings(db: Db) {
  const s = await loadSettings(db);
  const methods = usableMethods(s);
  return {
    exchange: { yenAmount: s.exchangeYenAmount, pointAmount: s.exchangePointAmount, isActive: s.exchangeIsActive },
    minimumPurchase: s.minimumPurchase,
    maximumPurchase: s.maximumPurchase,
    methods,
    bank: methods.bankTransfer ? bankOf(s) : null,
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
  /** The administrator who confirmed (administrators' answers; null for members and for SmartPit). */
  confirmedBy: { userID: string; name: string | null } | null;
  /** A cancelled or expired order paid late and credited then. */
  reinstatedAt: Date | null;
  smartPit: { paymentCode: string; barcodeValue: string; expiresAt: Date | null } | null;
  bank: (ReturnType<typeof bankOf> & { transferName: string }) | null;
}

/**
 * A transaction as answered. The payment code and barcode are withdrawn from a cancelled or
 * expired order (`failed`): the member must not be sent to a store with them. Administrators still
 * see them (`showWithdrawn`), to match a late payment.
 */
function toTransaction(
  row: TransactionRow,
  settings: SettingsRow,
  options: { showWithdrawn?: boolean; confirmedBy?: Transaction["confirmedBy"] } = {},
): Transaction {
  const withdrawn = row.status === "cancelled" || row.status === "failed";
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
    confirmedBy: options.confirmedBy ?? null,
    reinstatedAt: row.reinstatedAt,
    smartPit:
      row.paymentMethod === "smart_pit" && row.smartPitPaymentCode && (!withdrawn || options.showWithdrawn)
        ? {
            paymentCode: row.smartPitPaymentCode,
            barcodeValue: row.smartPitBarcode ?? row.smartPitPaymentCode,
            expiresAt: row.smartPitExpiresAt,
          }
        : null,
    // The member writes the reference as the sender name, so the administrator can match the transfer.
    bank:
      row.paymentMethod === "bank_transfer" && (!withdrawn || options.showWithdrawn)
        ? { ...bankOf(settings), transferName: row.transactionId }
        : null,
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
 * the amount must be within the settings' limits and the method usable (switched on and configured
 * completely). The row starts pending; points are credited only when the payment is confirmed.
 * An order that could not be credited is refused now, before anyone pays: more than
 * POINTS_PER_ORDER_MAX points, or the member's balance plus their pending orders plus this one past
 * POINT_BALANCE_CEILING (checked under the member's row lock, so two orders cannot both pass).
 */
export async function createPurchase(db: Db, userId: string, input: PurchaseCreateInput): Promise<Transaction> {
  return db.transaction(async (tx) => {
    const s = await loadSettings(tx);
    if (!s.exchangeIsActive) throw new AppError("BAD_REQUEST", MSG.exchangeInactive);
    const methods = usableMethods(s);
    const usable = input.paymentMethod === "smart_pit" ? methods.smartPit : methods.bankTransfer;
    if (!usable) throw new AppError("BAD_REQUEST", MSG.paymentMethodUnavailable);
    if (input.amount < s.minimumPurchase) throw new AppError("BAD_REQUEST", purchaseBelowMinimum(s.minimumPurchase));
    if (input.amount > s.maximumPurchase) throw new AppError("BAD_REQUEST", purchaseAboveMaximum(s.maximumPurchase));
    const points = pointsFor(input.amount, { yenAmount: s.exchangeYenAmount, pointAmount: s.exchangePointAmount });
    if (points < 1) throw new AppError("BAD_REQUEST", MSG.amountInvalid);
    if (points > POINTS_PER_ORDER_MAX) throw new AppError("BAD_REQUEST", MSG.orderPointsTooLarge);
    const [member] = await tx
      .select({ points: users.points })
      .from(users)
      .where(and(eq(users.id, userId), isNull(users.deletedAt)))
      .for("update");
    if (!member) throw notFound();
    const [waiting] = await tx
      .select({ points: sql<string>`coalesce(sum(${purchaseTransactions.points}), 0)` })
      .from(purchaseTransactions)
      .where(and(eq(purchaseTransactions.userId, userId), eq(purchaseTransactions.status, "pending")));
    if (member.points + Number(waiting?.points ?? 0) + points > POINT_BALANCE_CEILING) {
      throw new AppError("BAD_REQUEST", MSG.pointCeilingExceeded);
    }
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
        ...toTransaction(r, s, { showWithdrawn: true, confirmedBy: by ? { userID: by.userID, name: by.name } : null }),
        user: { id: r.userId, userID: owner?.userID ?? "", name: owner?.name ?? null, email: owner?.email ?? "" },
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
 * Whether the order's points can be credited to its member now, under the member's row lock (taken
 * after the transaction row's, the one order every path here uses): `overflow` when the balance
 * column could not hold the result, `closed` when the account is deleted.
 */
async function creditable(tx: Db, row: TransactionRow): Promise<"ok" | "closed" | "overflow"> {
  const [member] = await tx
    .select({ points: users.points, deletedAt: users.deletedAt })
    .from(users)
    .where(eq(users.id, row.userId))
    .for("update");
  if (!member) return "closed";
  if (member.points + row.points > BALANCE_COLUMN_MAX) return "overflow";
  return member.deletedAt ? "closed" : "ok";
}

/**
 * Marks the transaction paid and credits its points as a paid-for lot, in the caller's
 * transaction, which holds the row's lock: a second or concurrent confirmation waits, then sees
 * `paid` and is refused, so the points are credited once. `reinstated`: a cancelled or expired
 * order paid late (the caller decided it can be credited).
 */
async function settle(
  tx: Db,
  row: TransactionRow,
  by: { adminId: string } | { via: "smartpit"; reinstated?: boolean },
): Promise<TransactionRow> {
  const adminId = "adminId" in by ? by.adminId : null;
  const reinstated = "via" in by && by.reinstated === true;
  const [updated] = await tx
    .update(purchaseTransactions)
    .set({
      status: "paid",
      confirmedAt: sql`now()`,
      confirmedById: adminId,
      confirmedVia: adminId ? "admin" : "smartpit",
      ...(reinstated ? { reinstatedAt: sql`now()` } : {}),
    })
    .where(and(eq(purchaseTransactions.id, row.id), eq(purchaseTransactions.status, row.status)))
    .returning();
  if (!updated) throw new AppError("CONFLICT", MSG.transactionAlreadyConfirmed);
  await changeBalance(tx, {
    userId: row.userId,
    delta: row.points,
    kind: "purchase",
    paidYen: row.amount,
    reference: row.transactionId,
    actorId: adminId ?? undefined,
    note: adminId
      ? "入金確認（管理者）"
      : reinstated
        ? "入金確認（SmartPit通知・取消／期限切れ後の入金）"
        : "入金確認（SmartPit通知）",
    // The money arrived: a member who has left since is credited too, so the books add up.
    includeDeleted: true,
  });
  return updated;
}

async function confirmerOf(tx: Db, adminId: string): Promise<Transaction["confirmedBy"]> {
  const [admin] = await tx.select({ userID: users.userId, name: users.name }).from(users).where(eq(users.id, adminId));
  return admin ? { userID: admin.userID, name: admin.name } : null;
}

/**
 * `adminPayments.confirm`: a pending order's payment received. Refused (CONFLICT, nothing written)
 * when the balance column could not hold the credit; the answer names who confirmed.
 */
export async function confirmTransaction(db: Db, adminId: string, ref: string): Promise<Transaction> {
  return db.transaction(async (tx) => {
    const row = await lockTransaction(tx, ref);
    assertPending(row);
    if ((await creditable(tx, row)) === "overflow") throw new AppError("CONFLICT", MSG.creditWouldOverflow);
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
    return toTransaction(updated, await loadSettings(tx), {
      showWithdrawn: true,
      confirmedBy: await confirmerOf(tx, adminId),
    });
  });
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

// ---------- SmartPit notification ----------

const notificationBody = z.object({
  transactionId: z.string().min(1).max(64),
  paymentCode: z.string().min(1).max(64),
  amount: z.number().int().positive().max(BALANCE_COLUMN_MAX),
  paidAt: z.string().max(64).optional(),
});

type NotificationRecord = {
  outcome: NotificationOutcome;
  reason?: "account_closed" | "overflow";
  purchaseTransactionId?: string;
};

/**
 * A received string cut to `max` and made storable: PostgreSQL refuses NUL in text and jsonb, and a
 * lone UTF-16 surrogate cannot be encoded (both become U+FFFD), so no body can make the record fail.
 */
function storable(value: string, max: number): string {
  return value
    .slice(0, max)
    .replaceAll("\0", "\uFFFD")
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");
}

/** What a received body named, for the record: cut short, no signature, nothing else kept. */
function describeBody(rawBody: string) {
  let parsed: Record<string, unknown> = {};
  try {
    const value: unknown = JSON.parse(rawBody);
    if (value && typeof value === "object" && !Array.isArray(value)) parsed = value as Record<string, unknown>;
  } catch {
    // Not JSON: only its size is kept.
  }
  const str = (v: unknown) => (typeof v === "string" ? storable(v, 64) : null);
  return {
    transactionRef: str(parsed.transactionId),
    paymentCode: str(parsed.paymentCode),
    amount: typeof parsed.amount === "number" && Number.isSafeInteger(parsed.amount) ? parsed.amount : null,
    paidAt: str(parsed.paidAt),
    bytes: rawBody.length,
  };
}

/** A refusal that rolls the notification's transaction back, then is recorded on its own. */
class NotificationRefused extends Error {
  constructor(
    readonly error: AppError,
    readonly record: NotificationRecord,
  ) {
    super(error.message);
  }
}

/**
 * A signed notification from SmartPit that a code was paid. Every one received is stored in
 * payment_notifications with what became of it (credited, reinstated, duplicate, unsettled or the
 * refusal), the signature itself never. Verified with the API key (forged or stale → UNAUTHORIZED),
 * refused when its nonce was seen before (the nonce is stored in the same transaction, so a replay
 * racing the original is refused by the primary key). Then, under the order's row lock:
 * - pending: confirmed exactly as an administrator would (confirmedBy null, confirmedVia smartpit);
 * - cancelled or expired (`failed`): the money is never dropped. The order is reinstated as paid and
 *   credited when its member's account is live and the balance can hold it; otherwise the money is
 *   listed for the administrators to settle or refund (`unsettled`), and the order stays as it was;
 * - a pending order whose credit the balance column could not hold ends `failed`, its money listed;
 * - already paid: a duplicate (CONFLICT), nothing credited.
 */
export async function handleSmartPitNotification(
  db: Db,
  input: {
    rawBody: string;
    headers: Record<string, string | string[] | undefined>;
    now?: Date;
    /**
     * Whether an unsigned (forged or stale) call may still be recorded: anyone can send one, so the
     * caller bounds how many a client adds (the call is refused either way).
     */
    mayRecordForged?: () => Promise<boolean>;
  },
): Promise<Transaction> {
  const header = (name: string) => {
    const v = input.headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const described = describeBody(input.rawBody);
  const nonce = header(SMARTPIT_HEADERS.nonce);
  const record = (tx: Db, r: NotificationRecord, verdict: string) =>
    tx.insert(paymentNotifications).values({
      provider: "smartpit",
      transactionRef: described.transactionRef,
      paymentCode: described.paymentCode,
      amount: described.amount,
      purchaseTransactionId: r.purchaseTransactionId,
      outcome: r.outcome,
      reason: r.reason,
      summary: {
        paidAt: described.paidAt,
        bytes: described.bytes,
        nonce: nonce === undefined ? null : storable(nonce, 128),
        verdict,
      },
    });
  const settings = await loadSettings(db);
  const check = verifySmartPitSignature({
    apiKey: settings.smartPitApiKey,
    signature: header(SMARTPIT_HEADERS.signature),
    timestamp: header(SMARTPIT_HEADERS.timestamp),
    nonce,
    rawBody: input.rawBody,
    now: input.now ?? new Date(),
  });
  if (check !== "ok" || !nonce) {
    if (await (input.mayRecordForged?.() ?? true)) await record(db, { outcome: "refused_signature" }, check);
    throw new AppError("UNAUTHORIZED", MSG.notificationRejected);
  }
  let body: z.infer<typeof notificationBody>;
  try {
    body = notificationBody.parse(JSON.parse(input.rawBody));
  } catch {
    await record(db, { outcome: "refused_invalid" }, "ok");
    throw new AppError("BAD_REQUEST", MSG.invalidJson);
  }
  try {
    return await db.transaction(async (tx) => {
      const stored = await tx
        .insert(paymentNotificationNonces)
        .values({ nonce, provider: "smartpit" })
        .onConflictDoNothing()
        .returning({ nonce: paymentNotificationNonces.nonce });
      if (stored.length === 0) {
        throw new NotificationRefused(new AppError("CONFLICT", MSG.notificationReplayed), { outcome: "duplicate" });
      }
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
      if (!row || row.smartPitPaymentCode !== body.paymentCode) {
        throw new NotificationRefused(notFound(), { outcome: "refused_unknown" });
      }
      const linked = { purchaseTransactionId: row.id };
      if (row.amount !== body.amount) {
        throw new NotificationRefused(new AppError("BAD_REQUEST", MSG.notificationAmountMismatch), {
          outcome: "refused_amount",
          ...linked,
        });
      }
      if (row.status === "paid") {
        throw new NotificationRefused(new AppError("CONFLICT", MSG.transactionAlreadyConfirmed), {
          outcome: "duplicate",
          ...linked,
        });
      }
      const state = await creditable(tx, row);
      if (row.status === "pending" && state !== "overflow") {
        // As before: a pending order is credited even when its member has left (the books add up).
        const updated = await settle(tx, row, { via: "smartpit" });
        await record(tx, { outcome: "credited", ...linked }, "ok");
        return toTransaction(updated, settings);
      }
      if (state === "ok") {
        const updated = await settle(tx, row, { via: "smartpit", reinstated: true });
        await record(tx, { outcome: "reinstated", ...linked }, "ok");
        return toTransaction(updated, settings);
      }
      // The money cannot be credited: listed for the administrators. A pending order ends failed so
      // that it cannot be confirmed (credited) a second time by hand.
      let current = row;
      if (row.status === "pending") {
        const [failed] = await tx
          .update(purchaseTransactions)
          .set({ status: "failed" })
          .where(eq(purchaseTransactions.id, row.id))
          .returning();
        if (failed) current = failed;
      }
      await record(
        tx,
        { outcome: "unsettled", reason: state === "closed" ? "account_closed" : "overflow", ...linked },
        "ok",
      );
      return toTransaction(current, settings);
    });
  } catch (error) {
    if (!(error instanceof NotificationRefused)) throw error;
    await record(db, error.record, "ok");
    throw error.error;
  }
}

export interface PaymentNotificationView {
  id: string;
  provider: string;
  transactionRef: string | null;
  paymentCode: string | null;
  amount: number | null;
  outcome: NotificationOutcome;
  reason: "account_closed" | "overflow" | null;
  receivedAt: Date;
  resolution: "settled" | "refunded" | null;
  resolvedAt: Date | null;
  resolvedBy: { userID: string; name: string | null } | null;
  resolutionNote: string | null;
  transaction: {
    id: string;
    transactionId: string;
    status: TransactionStatus;
    points: number;
    user: { userID: string; name: string | null };
  } | null;
}

const NOTIFICATIONS_PAGE_SIZE = 20;

/** The orders (with their member) that notifications are linked to, for the administrators' list. */
async function ordersOfNotifications(db: Db, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .select({
      id: purchaseTransactions.id,
      transactionId: purchaseTransactions.transactionId,
      status: purchaseTransactions.status,
      points: purchaseTransactions.points,
      userID: users.userId,
      name: users.name,
    })
    .from(purchaseTransactions)
    .innerJoin(users, eq(users.id, purchaseTransactions.userId))
    .where(inArray(purchaseTransactions.id, ids));
}
/**
 * `adminPayments.notifications`: the payment notifications received, newest first, 20 a page.
 * `open`: money that could not be credited and is not settled or refunded yet (the administrators'
 * to-do list); `unsettled`: those, done or not; `all`: every notification with its outcome.
 */
export async function listNotifications(db: Db, input: NotificationListInput) {
  const n = paymentNotifications;
  const where =
    input.view === "all"
      ? undefined
      : input.view === "unsettled"
        ? eq(n.outcome, "unsettled")
        : and(eq(n.outcome, "unsettled"), isNull(n.resolution));
  const [total] = await db.select({ n: count() }).from(n).where(where);
  const rows = await db
    .select()
    .from(n)
    .where(where)
    .orderBy(desc(n.receivedAt), desc(n.id))
    .limit(NOTIFICATIONS_PAGE_SIZE)
    .offset((input.page - 1) * NOTIFICATIONS_PAGE_SIZE);
  const txIds = [...new Set(rows.flatMap((r) => (r.purchaseTransactionId ? [r.purchaseTransactionId] : [])))];
  const orders = await ordersOfNotifications(db, txIds);
  const adminIds = [...new Set(rows.flatMap((r) => (r.resolvedById ? [r.resolvedById] : [])))];
  const admins = adminIds.length
    ? await db
        .select({ id: users.id, userID: users.userId, name: users.name })
        .from(users)
        .where(inArray(users.id, adminIds))
    : [];
  const orderOf = new Map(orders.map((o) => [o.id, o]));
  const adminOf = new Map(admins.map((a) => [a.id, a]));
  const count_ = total?.n ?? 0;
  return {
    notifications: rows.map((r): PaymentNotificationView => toNotificationView(r, orderOf, adminOf)),
    pagination: {
      currentPage: input.page,
      totalPages: Math.max(1, Math.ceil(count_ / NOTIFICATIONS_PAGE_SIZE)),
      total: count_,
    },
  };
}

function toNotificationView(
  r: typeof paymentNotifications.$inferSelect,
  orderOf: Map<
    string,
    {
      id: string;
      transactionId: string;
      status: TransactionStatus;
      points: number;
      userID: string;
      name: string | null;
    }
  >,
  adminOf: Map<string, { userID: string; name: string | null }>,
): PaymentNotificationView {
  const order = r.purchaseTransactionId ? orderOf.get(r.purchaseTransactionId) : undefined;
  const admin = r.resolvedById ? adminOf.get(r.resolvedById) : undefined;
  return {
    id: r.id,
    provider: r.provider,
    transactionRef: r.transactionRef,
    paymentCode: r.paymentCode,
    amount: r.amount,
    outcome: r.outcome,
    reason: r.reason ?? null,
    receivedAt: r.receivedAt,
    resolution: r.resolution ?? null,
    resolvedAt: r.resolvedAt,
    resolvedBy: admin ? { userID: admin.userID, name: admin.name } : null,
    resolutionNote: r.resolutionNote,
    transaction: order
      ? {
          id: order.id,
          transactionId: order.transactionId,
          status: order.status,
          points: order.points,
          user: { userID: order.userID, name: order.name },
        }
      : null,
  };
}

/**
 * `adminPayments.resolveNotification`: money that could not be credited, marked settled (handled
 * otherwise) or refunded, with a note; once, under the row's lock, audited.
 */
export async function resolveNotification(
  db: Db,
  adminId: string,
  input: { id: string; resolution: "settled" | "refunded"; note?: string },
): Promise<PaymentNotificationView> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(paymentNotifications)
      .where(eq(paymentNotifications.id, input.id))
      .for("update");
    if (!row) throw notFound();
    if (row.outcome !== "unsettled") throw new AppError("CONFLICT", MSG.notificationNotUnsettled);
    if (row.resolution) throw new AppError("CONFLICT", MSG.notificationAlreadyResolved);
    const [updated] = await tx
      .update(paymentNotifications)
      .set({
        resolution: input.resolution,
        resolvedAt: sql`now()`,
        resolvedById: adminId,
        resolutionNote: input.note || null,
      })
      .where(eq(paymentNotifications.id, row.id))
      .returning();
    if (!updated) throw notFound();
    await writeAudit(tx, {
      adminId,
      action: "payment.notification_resolve",
      targetType: "payment_notification",
      targetId: row.id,
      details: {
        transactionRef: row.transactionRef,
        amount: row.amount,
        reason: row.reason,
        resolution: input.resolution,
        note: input.note ?? null,
      },
    });
    const orders = await ordersOfNotifications(tx, row.purchaseTransactionId ? [row.purchaseTransactionId] : []);
    const confirmer = await confirmerOf(tx, adminId);
    return toNotificationView(
      updated,
      new Map(orders.map((o) => [o.id, o])),
      new Map(confirmer ? [[adminId, confirmer]] : []),
    );
  });
}

/**
 * The development simulator's half (SMARTPIT_SIMULATOR): the signed notification SmartPit would send
 * for a store payment of this order, signed with the stored key. Never a procedure: the server's
 * development-only route calls it.
 */
export async function simulateStorePayment(db: Db, transactionId: string) {
  const [row] = await db
    .select()
    .from(purchaseTransactions)
    .where(eq(purchaseTransactions.transactionId, transactionId));
  if (!row?.smartPitPaymentCode) throw notFound();
  const settings = await loadSettings(db);
  return simulateSmartPitPayment({
    apiKey: settings.smartPitApiKey,
    transactionId: row.transactionId,
    paymentCode: row.smartPitPaymentCode,
    amount: row.amount,
  });
}

/** How long the record of a notification that moved no money (a refusal, a duplicate) is kept. */
export const REFUSED_NOTIFICATION_RETENTION_DAYS = 90;

/**
 * Records of notifications that moved no money (refused or duplicate) are kept 90 days, enough to
 * look into a dispute, so a flood of forged calls cannot fill the table. Records of money
 * (credited, reinstated, unsettled) are never deleted.
 */
export async function pruneRefusedNotifications(db: Db): Promise<number> {
  const gone = await db
    .delete(paymentNotifications)
    .where(
      and(
        inArray(paymentNotifications.outcome, [
          "duplicate",
          "refused_signature",
          "refused_invalid",
          "refused_unknown",
          "refused_amount",
        ]),
        lt(paymentNotifications.receivedAt, sql`now() - make_interval(days => ${REFUSED_NOTIFICATION_RETENTION_DAYS})`),
      ),
    )
    .returning({ id: paymentNotifications.id });
  return gone.length;
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
