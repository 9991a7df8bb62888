import { randomBytes } from "node:crypto";
import { type Db, purchaseTransactions, users } from "@enmusubi/db";
import {
  isUuid,
  japanDayOf,
  MSG,
  type PaymentMethod,
  POINT_BALANCE_CEILING,
  POINTS_PER_ORDER_MAX,
  type PurchaseCreateInput,
  pageOffset,
  purchaseAboveMaximum,
  purchaseBelowMinimum,
  TRANSACTIONS_PAGE_SIZE,
  type TransactionStatus,
} from "@enmusubi/shared";
import { and, count, desc, eq, isNull, lt, sql } from "drizzle-orm";
import { AppError, notFound } from "../errors";
import { pagesFor } from "../lists/pages";
import { methodUsable } from "./methods";
import { bankTransferProvider } from "./providers/bank-transfer";
import { CARD_ORDER_VALID_MINUTES, cardCheckoutUrl, cardProvider } from "./providers/card";
import type { PaymentProvider } from "./providers/provider";
import { smartPitProvider } from "./providers/smart-pit";
import { bankOf, loadSettings, pointsFor, type SettingsRow } from "./settings";

/**
 * A member's point orders (spec §5): placing one, the history, one order; the shape every answer
 * gives a transaction in; and the SmartPit codes that expire. Administrators confirm and cancel in
 * admin-transactions.ts; SmartPit's notification is smart-pit-notification.ts.
 */

const PROVIDERS: Record<PaymentMethod, PaymentProvider> = {
  smart_pit: smartPitProvider,
  bank_transfer: bankTransferProvider,
  card: cardProvider,
};

export type TransactionRow = typeof purchaseTransactions.$inferSelect;

export interface Transaction {
  id: string;
  transactionId: string;
  amount: number;
  points: number;
  /** Free points booked with the credit (decision 0047); 0 until paid, and for an order without one. */
  bonusPoints: number;
  paymentMethod: PaymentMethod;
  status: TransactionStatus;
  createdAt: Date;
  confirmedAt: Date | null;
  cancelledAt: Date | null;
  confirmedVia: "admin" | "smartpit" | "card" | null;
  /** The administrator who confirmed (administrators' answers; null for members and for SmartPit). */
  confirmedBy: { userID: string; name: string | null } | null;
  /** A cancelled or expired order paid late and credited then. */
  reinstatedAt: Date | null;
  smartPit: { paymentCode: string; barcodeValue: string; expiresAt: Date | null } | null;
  bank: (ReturnType<typeof bankOf> & { transferName: string }) | null;
  /**
   * A pending card order: the processor's hosted payment page, with the signed request (decision
   * 0046). Only in the member's own answers while the order waits and the card is configured.
   */
  card: { checkoutUrl: string } | null;
  /** A paid card order the processor refunded (its points taken back). */
  refundedAt: Date | null;
}

/**
 * A transaction as answered. The payment code and barcode are withdrawn from a cancelled or
 * expired order (`failed`): the member must not be sent to a store with them. Administrators still
 * see them (`showWithdrawn`), to match a late payment.
 */
export function toTransaction(
  row: TransactionRow,
  settings: SettingsRow,
  options: { showWithdrawn?: boolean; confirmedBy?: Transaction["confirmedBy"]; publicUrl?: string } = {},
): Transaction {
  const withdrawn = row.status === "cancelled" || row.status === "failed";
  return {
    id: row.id,
    transactionId: row.transactionId,
    amount: row.amount,
    points: row.points,
    bonusPoints: row.bonusPoints,
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
    card:
      row.paymentMethod === "card" && row.status === "pending" && options.publicUrl && methodUsable(settings, "card")
        ? {
            checkoutUrl: cardCheckoutUrl({
              paymentUrl: settings.cardPaymentUrl,
              merchantId: settings.cardMerchantId,
              secret: settings.cardSecret,
              transactionId: row.transactionId,
              amount: row.amount,
              publicUrl: options.publicUrl,
              now: new Date(),
            }),
          }
        : null,
    refundedAt: row.refundedAt,
  };
}

/** A reference a member can read out and type: the Japanese day plus 8 random base-32 characters. */
function newTransactionId(now: Date): string {
  const day = japanDayOf(now).replace(/-/g, "");
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
export async function createPurchase(
  db: Db,
  userId: string,
  input: PurchaseCreateInput,
  options: { publicUrl?: string } = {},
): Promise<Transaction> {
  return db.transaction(async (tx) => {
    const s = await loadSettings(tx);
    if (!s.exchangeIsActive) throw new AppError("BAD_REQUEST", MSG.exchangeInactive);
    if (!methodUsable(s, input.paymentMethod)) throw new AppError("BAD_REQUEST", MSG.paymentMethodUnavailable);
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
    return toTransaction(row, s, { publicUrl: options.publicUrl });
  });
}

/** `purchase.history`: the member's own transactions, newest first, 20 a page. */
export async function purchaseHistory(db: Db, userId: string, page: number, publicUrl?: string) {
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
    .offset(pageOffset(page, TRANSACTIONS_PAGE_SIZE));
  const n = total?.n ?? 0;
  return {
    transactions: rows.map((r) => toTransaction(r, s, { publicUrl })),
    pagination: { currentPage: page, totalPages: pagesFor(n, false, TRANSACTIONS_PAGE_SIZE), total: n },
  };
}

/** A member's own transaction by id or reference; anyone else's is NOT_FOUND. */
export async function ownTransaction(db: Db, userId: string, ref: string, publicUrl?: string): Promise<Transaction> {
  const [row] = await db
    .select()
    .from(purchaseTransactions)
    .where(and(refCondition(ref), eq(purchaseTransactions.userId, userId)));
  if (!row) throw notFound();
  return toTransaction(row, await loadSettings(db), { publicUrl });
}

/**
 * `purchase.cardResult`: what the result page shows when the processor sends the member back: the
 * member's own card order (anyone else's, or another method's, is NOT_FOUND), the bonus points
 * credited with it (decision 0047; 0 while pending) and the balance now.
 * The notification may arrive a moment after the member: a pending order is shown as waiting, and
 * the page asks again.
 */
export async function cardResult(db: Db, userId: string, ref: string) {
  const [row] = await db
    .select()
    .from(purchaseTransactions)
    .where(
      and(refCondition(ref), eq(purchaseTransactions.userId, userId), eq(purchaseTransactions.paymentMethod, "card")),
    );
  if (!row) throw notFound();
  const [member] = await db.select({ points: users.points }).from(users).where(eq(users.id, userId));
  return {
    transactionId: row.transactionId,
    status: row.status,
    amount: row.amount,
    points: row.points,
    bonusPoints: row.bonusPoints,
    confirmedAt: row.confirmedAt,
    balance: member?.points ?? 0,
  };
}

export const refCondition = (ref: string) =>
  isUuid(ref) ? eq(purchaseTransactions.id, ref) : eq(purchaseTransactions.transactionId, ref);

/**
 * Card orders whose payment page was left unfinished (no result from the processor within
 * CARD_ORDER_VALID_MINUTES) end `failed`; a payment notified later is reinstated (decision 0018).
 */
export async function failExpiredCardOrders(db: Db): Promise<number> {
  const failed = await db
    .update(purchaseTransactions)
    .set({ status: "failed" })
    .where(
      and(
        eq(purchaseTransactions.status, "pending"),
        eq(purchaseTransactions.paymentMethod, "card"),
        lt(purchaseTransactions.createdAt, sql`now() - make_interval(mins => ${CARD_ORDER_VALID_MINUTES})`),
      ),
    )
    .returning({ id: purchaseTransactions.id });
  return failed.length;
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
