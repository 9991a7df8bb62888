import { type Db, paymentNotificationNonces, paymentNotifications, purchaseTransactions } from "@enmusubi/db";
import { MSG } from "@enmusubi/shared";
import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { AppError, notFound } from "../errors";
import { reversePurchase } from "../points/reversal";
import { verifyByCardPayment } from "../verification/card-payment";
import {
  amountField,
  bodyFields,
  type NotificationRecord,
  NotificationRefused,
  storable,
  storableField,
} from "./notification-record";
import { CARD_EVENTS, CARD_HEADERS, verifyCardRequest, verifyCardSignature } from "./providers/card";
import { simulateCardNotification } from "./providers/card-simulator";
import { loadSettings } from "./settings";
import { BALANCE_COLUMN_MAX, creditNotifiedPayment } from "./settlement";
import { type Transaction, toTransaction } from "./transactions";

/**
 * The card processor's signed notification (decision 0046), stored and handled as SmartPit's are
 * (decision 0018), and the development simulator's half of it.
 */

const notificationBody = z.object({
  event: z.enum(CARD_EVENTS),
  transactionId: z.string().min(1).max(64),
  /** The processor's own id of the payment. */
  paymentId: z.string().min(1).max(64),
  amount: z.number().int().positive().max(BALANCE_COLUMN_MAX),
  occurredAt: z.string().max(64).optional(),
});

/** What a received body named, for the record: cut short, no signature, nothing else kept. */
function describeBody(rawBody: string) {
  const parsed = bodyFields(rawBody);
  return {
    transactionRef: storableField(parsed.transactionId),
    paymentCode: storableField(parsed.paymentId),
    amount: amountField(parsed.amount),
    event: storableField(parsed.event),
    occurredAt: storableField(parsed.occurredAt),
    bytes: rawBody.length,
  };
}

/**
 * A signed notification from the card processor. Every one received is a row of
 * payment_notifications (provider `card`) with what became of it, the signature never. Verified with
 * the merchant secret (forged or stale → UNAUTHORIZED, recorded `refused_signature`); a nonce seen
 * before is a duplicate (CONFLICT). Then, under the order's row lock:
 * - `payment.captured`: credited at once as SmartPit's payment is (`creditNotifiedPayment`: pending →
 *   credited; cancelled or expired → reinstated, or listed when it cannot be credited); already paid
 *   or refunded → duplicate (CONFLICT). The first credited card payment marks the member verified
 *   when the administrators accept a card as the age check.
 * - `payment.failed` (declined, or the member gave up on the payment page): a pending order ends
 *   `failed` (`declined`); any other state is left as it is (`declined`, nothing changed).
 * - `refund.completed`: a paid order's points are taken back through the ledger when they are still
 *   all there (`reversed`, the order `refunded`); otherwise the refund is listed for the
 *   administrators (`unsettled`, `points_spent`) and nothing is taken (no balance goes negative).
 *   An order not paid cannot be refunded (CONFLICT); an order already refunded is a duplicate.
 */
export async function handleCardNotification(
  db: Db,
  input: {
    rawBody: string;
    headers: Record<string, string | string[] | undefined>;
    now?: Date;
    /** Whether an unsigned call may still be recorded (the caller bounds how many a client adds). */
    mayRecordForged?: () => Promise<boolean>;
    /** Told the member once a change of their balance has committed (their live balance, decision 0031). */
    onCredited?: (userId: string) => void;
  },
): Promise<Transaction> {
  const header = (name: string) => {
    const v = input.headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const described = describeBody(input.rawBody);
  const nonce = header(CARD_HEADERS.nonce);
  const record = (tx: Db, r: NotificationRecord, verdict: string) =>
    tx.insert(paymentNotifications).values({
      provider: "card",
      transactionRef: described.transactionRef,
      paymentCode: described.paymentCode,
      amount: described.amount,
      purchaseTransactionId: r.purchaseTransactionId,
      outcome: r.outcome,
      reason: r.reason,
      summary: {
        event: described.event,
        occurredAt: described.occurredAt,
        bytes: described.bytes,
        nonce: nonce === undefined ? null : storable(nonce, 128),
        verdict,
      },
    });
  const settings = await loadSettings(db);
  const check = verifyCardSignature({
    apiKey: settings.cardSecret,
    signature: header(CARD_HEADERS.signature),
    timestamp: header(CARD_HEADERS.timestamp),
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
  let told: string | undefined;
  try {
    const answer = await db.transaction(async (tx) => {
      const stored = await tx
        .insert(paymentNotificationNonces)
        // Prefixed: the nonces of the providers share one table.
        .values({ nonce: `card:${nonce}`, provider: "card" })
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
            eq(purchaseTransactions.paymentMethod, "card"),
          ),
        )
        .for("update");
      if (!row) throw new NotificationRefused(notFound(), { outcome: "refused_unknown" });
      const linked = { purchaseTransactionId: row.id };
      if (row.amount !== body.amount) {
        throw new NotificationRefused(new AppError("BAD_REQUEST", MSG.notificationAmountMismatch), {
          outcome: "refused_amount",
          ...linked,
        });
      }
      if (body.event === "payment.failed") {
        let current = row;
        if (row.status === "pending") {
          const [failed] = await tx
            .update(purchaseTransactions)
            .set({ status: "failed", cardProcessorRef: body.paymentId })
            .where(eq(purchaseTransactions.id, row.id))
            .returning();
          if (failed) current = failed;
        }
        await record(tx, { outcome: "declined", ...linked }, "ok");
        return toTransaction(current, settings);
      }
      if (body.event === "refund.completed") {
        if (row.status === "refunded") {
          throw new NotificationRefused(new AppError("CONFLICT", MSG.notificationReplayed), {
            outcome: "duplicate",
            ...linked,
          });
        }
        if (row.status !== "paid") {
          throw new NotificationRefused(new AppError("CONFLICT", MSG.cardRefundNotPaid), {
            outcome: "duplicate",
            ...linked,
          });
        }
        const [listed] = await tx
          .select({ id: paymentNotifications.id })
          .from(paymentNotifications)
          .where(
            and(
              eq(paymentNotifications.purchaseTransactionId, row.id),
              eq(paymentNotifications.outcome, "unsettled"),
              eq(paymentNotifications.reason, "points_spent"),
            ),
          )
          .limit(1);
        if (listed) {
          // The processor sent the refund again: it is listed already, once.
          throw new NotificationRefused(new AppError("CONFLICT", MSG.notificationReplayed), {
            outcome: "duplicate",
            ...linked,
          });
        }
        const reversed = await reversePurchase(tx, {
          userId: row.userId,
          reference: row.transactionId,
          points: row.points,
          note: "カード決済の返金（決済代行会社）",
        });
        if (reversed === "spent") {
          // The points are not all there any more: the administrators settle it (decision 0018's list).
          await record(tx, { outcome: "unsettled", reason: "points_spent", ...linked }, "ok");
          return toTransaction(row, settings);
        }
        const [refunded] = await tx
          .update(purchaseTransactions)
          .set({ status: "refunded", refundedAt: sql`now()` })
          .where(eq(purchaseTransactions.id, row.id))
          .returning();
        await record(tx, { outcome: "reversed", ...linked }, "ok");
        told = row.userId;
        return toTransaction(refunded ?? row, settings);
      }
      // payment.captured
      if (row.status === "paid" || row.status === "refunded") {
        throw new NotificationRefused(new AppError("CONFLICT", MSG.transactionAlreadyConfirmed), {
          outcome: "duplicate",
          ...linked,
        });
      }
      const result = await creditNotifiedPayment(tx, row, "card");
      await tx
        .update(purchaseTransactions)
        .set({ cardProcessorRef: body.paymentId })
        .where(eq(purchaseTransactions.id, row.id));
      await record(
        tx,
        { outcome: result.outcome, ...(result.outcome === "unsettled" ? { reason: result.reason } : {}), ...linked },
        "ok",
      );
      if (result.outcome === "unsettled") return toTransaction(result.row, settings);
      if (settings.cardAgeVerification) {
        await verifyByCardPayment(tx, { userId: row.userId, purchaseTransactionId: row.id });
      }
      told = row.userId;
      return toTransaction(result.row, settings);
    });
    if (told) input.onCredited?.(told);
    return answer;
  } catch (error) {
    if (!(error instanceof NotificationRefused)) throw error;
    await record(db, error.record, "ok");
    throw error.error;
  }
}

/**
 * The development simulator's half (CARD_SIMULATOR): the signed notification the processor would
 * send for this order, signed with the stored secret. Never a procedure: the server's
 * development-only routes call it.
 */
export async function simulateCardResult(
  db: Db,
  transactionId: string,
  event: (typeof CARD_EVENTS)[number],
): Promise<ReturnType<typeof simulateCardNotification>> {
  const [row] = await db
    .select()
    .from(purchaseTransactions)
    .where(and(eq(purchaseTransactions.transactionId, transactionId), eq(purchaseTransactions.paymentMethod, "card")));
  if (!row) throw notFound();
  const settings = await loadSettings(db);
  return simulateCardNotification({ secret: settings.cardSecret, event, transactionId, amount: row.amount });
}

/**
 * The simulator's check of a request sent to its payment page (CARD_SIMULATOR): signed with the
 * stored merchant secret and recent, as the processor checks it. Answers the request's fields, or null.
 */
export async function checkSimulatedCardRequest(db: Db, params: Record<string, unknown>, now = new Date()) {
  const settings = await loadSettings(db);
  return verifyCardRequest(settings.cardSecret, params, now);
}
