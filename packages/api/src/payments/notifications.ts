import {
  type Db,
  type NotificationOutcome,
  paymentNotificationNonces,
  paymentNotifications,
  purchaseTransactions,
  type UnsettledReason,
  users,
} from "@enmusubi/db";
import { MSG, type NotificationListInput, pageOffset, type TransactionStatus } from "@enmusubi/shared";
import { and, count, desc, eq, inArray, isNull, lt, sql } from "drizzle-orm";
import { writeAudit } from "../audit/audit-log";
import { AppError, notFound } from "../errors";
import { pagesFor } from "../lists/pages";
import { confirmerOf } from "./settlement";

/**
 * The payment notifications received, as the administrators list and resolve them (decision 0018),
 * and the housekeeping of their records and nonces.
 */

export interface PaymentNotificationView {
  id: string;
  provider: string;
  transactionRef: string | null;
  paymentCode: string | null;
  amount: number | null;
  outcome: NotificationOutcome;
  reason: UnsettledReason | null;
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
    .offset(pageOffset(input.page, NOTIFICATIONS_PAGE_SIZE));
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
      totalPages: pagesFor(count_, false, NOTIFICATIONS_PAGE_SIZE),
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
          "declined",
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
