import { type Db, paymentNotifications, purchaseTransactions } from "@enmusubi/db";
import { MSG } from "@enmusubi/shared";
import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { AppError, notFound } from "../errors";
import { reversePurchase } from "../points/reversal";
import { verifyByCardPayment } from "../verification/card-payment";
import { type NotificationInput, type NotificationProvider, receiveNotification } from "./notification-intake";
import { amountField, bodyFields, NotificationRefused, storableField } from "./notification-record";
import { CARD_EVENTS, CARD_HEADERS, verifyCardRequest } from "./providers/card";
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

const card: NotificationProvider<z.infer<typeof notificationBody>> = {
  provider: "card",
  headers: CARD_HEADERS,
  secret: (settings) => settings.cardSecret,
  body: notificationBody,
  describe(rawBody) {
    const parsed = bodyFields(rawBody);
    return {
      transactionRef: storableField(parsed.transactionId),
      paymentCode: storableField(parsed.paymentId),
      amount: amountField(parsed.amount),
      summary: { event: storableField(parsed.event), occurredAt: storableField(parsed.occurredAt) },
    };
  },
};

/**
 * A signed notification from the card processor, received as every provider's is
 * (`receiveNotification`: stored in payment_notifications with provider `card` and what became of
 * it; verified with the merchant secret; a nonce seen before is a duplicate). Then, under the
 * order's row lock:
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
export function handleCardNotification(db: Db, input: NotificationInput): Promise<Transaction> {
  return receiveNotification(db, card, input, async (tx, body, { settings, record }) => {
    const [row] = await tx
      .select()
      .from(purchaseTransactions)
      .where(
        and(eq(purchaseTransactions.transactionId, body.transactionId), eq(purchaseTransactions.paymentMethod, "card")),
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
      await record({ outcome: "declined", ...linked });
      return { answer: toTransaction(current, settings) };
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
        await record({ outcome: "unsettled", reason: "points_spent", ...linked });
        return { answer: toTransaction(row, settings) };
      }
      const [refunded] = await tx
        .update(purchaseTransactions)
        .set({ status: "refunded", refundedAt: sql`now()` })
        .where(eq(purchaseTransactions.id, row.id))
        .returning();
      await record({ outcome: "reversed", ...linked });
      return { answer: toTransaction(refunded ?? row, settings), told: row.userId };
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
    await record({
      outcome: result.outcome,
      ...(result.outcome === "unsettled" ? { reason: result.reason } : {}),
      ...linked,
    });
    if (result.outcome === "unsettled") return { answer: toTransaction(result.row, settings) };
    if (settings.cardAgeVerification) {
      await verifyByCardPayment(tx, { userId: row.userId, purchaseTransactionId: row.id });
    }
    return { answer: toTransaction(result.row, settings), told: row.userId };
  });
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
