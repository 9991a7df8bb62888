import type { NotificationOutcome, UnsettledReason } from "@enmusubi/db";
import type { AppError } from "../errors";

/**
 * What every provider's signed notification shares (decision 0018): what becomes of a call, the
 * refusal that rolls its transaction back and is then recorded on its own, and the cut of what
 * was received that the record keeps.
 */

export type NotificationRecord = {
  outcome: NotificationOutcome;
  reason?: UnsettledReason;
  purchaseTransactionId?: string;
};

/** A refusal that rolls the notification's transaction back, then is recorded on its own. */
export class NotificationRefused extends Error {
  constructor(
    readonly error: AppError,
    readonly record: NotificationRecord,
  ) {
    super(error.message);
  }
}

/**
 * A received string cut to `max` and made storable: PostgreSQL refuses NUL in text and jsonb, and a
 * lone UTF-16 surrogate cannot be encoded (both become U+FFFD), so no body can make the record fail.
 */
export function storable(value: string, max: number): string {
  return value
    .slice(0, max)
    .replaceAll("\0", "\uFFFD")
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");
}

/** A received body parsed as a JSON object (anything else: an empty object, only its size is kept). */
export function bodyFields(rawBody: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(rawBody);
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // Not JSON.
  }
  return {};
}

export const storableField = (v: unknown) => (typeof v === "string" ? storable(v, 64) : null);
export const amountField = (v: unknown) => (typeof v === "number" && Number.isSafeInteger(v) ? v : null);
