import { type Db, purchaseTransactions } from "@enmusubi/db";
import { MSG } from "@enmusubi/shared";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { AppError, notFound } from "../errors";
import { type NotificationInput, type NotificationProvider, receiveNotification } from "./notification-intake";
import { amountField, bodyFields, NotificationRefused, storableField } from "./notification-record";
import { SMARTPIT_HEADERS } from "./providers/smart-pit";
import { simulateSmartPitPayment } from "./providers/smart-pit-simulator";
import { loadSettings } from "./settings";
import { BALANCE_COLUMN_MAX, creditNotifiedPayment } from "./settlement";
import { type Transaction, toTransaction } from "./transactions";

/**
 * SmartPit's signed notification that a payment code was paid (decision 0018), and the development
 * simulator's half of it. What the administrators see of the notifications is notifications.ts.
 */

const notificationBody = z.object({
  transactionId: z.string().min(1).max(64),
  paymentCode: z.string().min(1).max(64),
  amount: z.number().int().positive().max(BALANCE_COLUMN_MAX),
  paidAt: z.string().max(64).optional(),
});

const smartPit: NotificationProvider<z.infer<typeof notificationBody>> = {
  provider: "smartpit",
  headers: SMARTPIT_HEADERS,
  secret: (settings) => settings.smartPitApiKey,
  body: notificationBody,
  describe(rawBody) {
    const parsed = bodyFields(rawBody);
    return {
      transactionRef: storableField(parsed.transactionId),
      paymentCode: storableField(parsed.paymentCode),
      amount: amountField(parsed.amount),
      summary: { paidAt: storableField(parsed.paidAt) },
    };
  },
};

/**
 * A signed notification from SmartPit that a code was paid, received as every provider's is
 * (`receiveNotification`: stored with what became of it, signature and nonce checked). Then, under
 * the order's row lock:
 * - pending: confirmed exactly as an administrator would (confirmedBy null, confirmedVia smartpit);
 * - cancelled or expired (`failed`): the money is never dropped. The order is reinstated as paid and
 *   credited when its member's account is live and the balance can hold it; otherwise the money is
 *   listed for the administrators to settle or refund (`unsettled`), and the order stays as it was;
 * - a pending order whose credit the balance column could not hold ends `failed`, its money listed;
 * - already paid: a duplicate (CONFLICT), nothing credited.
 */
export function handleSmartPitNotification(db: Db, input: NotificationInput): Promise<Transaction> {
  return receiveNotification(db, smartPit, input, async (tx, body, { settings, record }) => {
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
    const result = await creditNotifiedPayment(tx, row, "smartpit");
    await record({
      outcome: result.outcome,
      ...(result.outcome === "unsettled" ? { reason: result.reason } : {}),
      ...linked,
    });
    return {
      answer: toTransaction(result.row, settings),
      told: result.outcome === "unsettled" ? undefined : row.userId,
    };
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
