import { type Db, paymentNotificationNonces, paymentNotifications } from "@enmusubi/db";
import { MSG } from "@enmusubi/shared";
import type { z } from "zod";
import { AppError } from "../errors";
import { type NotificationRecord, NotificationRefused, storable } from "./notification-record";
import { verifySignedNotification } from "./providers/signature";
import { loadSettings, type SettingsRow } from "./settings";

/**
 * Receiving a provider's signed notification (decision 0018), the part SmartPit's and the card
 * processor's share: every call received becomes a row of payment_notifications with what became
 * of it, the signature never. The signature is checked with the provider's secret (forged or stale
 * → UNAUTHORIZED, recorded `refused_signature` while the caller allows); a body its schema refuses
 * is BAD_REQUEST (`refused_invalid`); then, in one transaction, the nonce is stored (a nonce seen
 * before, a replay racing the original included, is a duplicate: CONFLICT by the primary key) and
 * the provider's `handle` runs. A `NotificationRefused` thrown there rolls the transaction back and
 * is recorded on its own; the member a committed change concerns is told afterwards.
 */

export interface NotificationInput {
  rawBody: string;
  headers: Record<string, string | string[] | undefined>;
  now?: Date;
  /**
   * Whether an unsigned (forged or stale) call may still be recorded: anyone can send one, so the
   * caller bounds how many a client adds (the call is refused either way).
   */
  mayRecordForged?: () => Promise<boolean>;
  /** Told the member once a change of their balance has committed (their live balance, decision 0031). */
  onCredited?: (userId: string) => void;
}

/** What a received body named, for the record: cut short, nothing else kept. */
export interface DescribedBody {
  transactionRef: string | null;
  paymentCode: string | null;
  amount: number | null;
  /** The provider's own fields for the record's summary (besides its size, nonce and verdict). */
  summary: Record<string, unknown>;
}

export interface NotificationProvider<B> {
  provider: "smartpit" | "card";
  headers: { signature: string; timestamp: string; nonce: string };
  secret(settings: SettingsRow): string;
  body: z.ZodType<B>;
  describe(rawBody: string): DescribedBody;
}

/** The provider's part, under the notification's transaction: `record` writes the outcome. */
export type NotificationHandler<B, T> = (
  tx: Db,
  body: B,
  context: { settings: SettingsRow; record(r: NotificationRecord): Promise<unknown> },
) => Promise<{ answer: T; told?: string }>;

export async function receiveNotification<B, T>(
  db: Db,
  provider: NotificationProvider<B>,
  input: NotificationInput,
  handle: NotificationHandler<B, T>,
): Promise<T> {
  const header = (name: string) => {
    const v = input.headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const described = provider.describe(input.rawBody);
  const nonce = header(provider.headers.nonce);
  const record = (tx: Db, r: NotificationRecord, verdict: string) =>
    tx.insert(paymentNotifications).values({
      provider: provider.provider,
      transactionRef: described.transactionRef,
      paymentCode: described.paymentCode,
      amount: described.amount,
      purchaseTransactionId: r.purchaseTransactionId,
      outcome: r.outcome,
      reason: r.reason,
      summary: {
        ...described.summary,
        bytes: input.rawBody.length,
        nonce: nonce === undefined ? null : storable(nonce, 128),
        verdict,
      },
    });
  const settings = await loadSettings(db);
  const check = verifySignedNotification({
    apiKey: provider.secret(settings),
    signature: header(provider.headers.signature),
    timestamp: header(provider.headers.timestamp),
    nonce,
    rawBody: input.rawBody,
    now: input.now ?? new Date(),
  });
  if (check !== "ok" || !nonce) {
    if (await (input.mayRecordForged?.() ?? true)) await record(db, { outcome: "refused_signature" }, check);
    throw new AppError("UNAUTHORIZED", MSG.notificationRejected);
  }
  let body: B;
  try {
    body = provider.body.parse(JSON.parse(input.rawBody));
  } catch {
    await record(db, { outcome: "refused_invalid" }, "ok");
    throw new AppError("BAD_REQUEST", MSG.invalidJson);
  }
  try {
    const { answer, told } = await db.transaction(async (tx) => {
      const stored = await tx
        .insert(paymentNotificationNonces)
        // The providers share one table: a card nonce is prefixed (SmartPit's kept their form).
        .values({
          nonce: provider.provider === "smartpit" ? nonce : `${provider.provider}:${nonce}`,
          provider: provider.provider,
        })
        .onConflictDoNothing()
        .returning({ nonce: paymentNotificationNonces.nonce });
      if (stored.length === 0) {
        throw new NotificationRefused(new AppError("CONFLICT", MSG.notificationReplayed), { outcome: "duplicate" });
      }
      return handle(tx, body, { settings, record: (r) => record(tx, r, "ok") });
    });
    if (told) input.onCredited?.(told);
    return answer;
  } catch (error) {
    if (!(error instanceof NotificationRefused)) throw error;
    await record(db, error.record, "ok");
    throw error.error;
  }
}
