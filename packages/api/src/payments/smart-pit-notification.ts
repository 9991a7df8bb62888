import { type Db, paymentNotificationNonces, paymentNotifications, purchaseTransactions } from "@enmusubi/db";
import { MSG } from "@enmusubi/shared";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { AppError, notFound } from "../errors";
import {
  amountField,
  bodyFields,
  type NotificationRecord,
  NotificationRefused,
  storable,
  storableField,
} from "./notification-record";
import { SMARTPIT_HEADERS, verifySmartPitSignature } from "./providers/smart-pit";
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

/** What a received body named, for the record: cut short, no signature, nothing else kept. */
function describeBody(rawBody: string) {
  const parsed = bodyFields(rawBody);
  return {
    transactionRef: storableField(parsed.transactionId),
    paymentCode: storableField(parsed.paymentCode),
    amount: amountField(parsed.amount),
    paidAt: storableField(parsed.paidAt),
    bytes: rawBody.length,
  };
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
    /** Told the member once a credit has committed (their live balance, decision 0031). */
    onCredited?: (userId: string) => void;
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
  let credited: string | undefined;
  try {
    const answer = await db.transaction(async (tx) => {
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
      const result = await creditNotifiedPayment(tx, row, "smartpit");
      await record(
        tx,
        { outcome: result.outcome, ...(result.outcome === "unsettled" ? { reason: result.reason } : {}), ...linked },
        "ok",
      );
      if (result.outcome !== "unsettled") credited = row.userId;
      return toTransaction(result.row, settings);
    });
    if (credited) input.onCredited?.(credited);
    return answer;
  } catch (error) {
    if (!(error instanceof NotificationRefused)) throw error;
    await record(db, error.record, "ok");
    throw error.error;
  }
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
