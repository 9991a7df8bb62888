import {
  BONUS_KINDS,
  bonusQuoteInput,
  calendarDay,
  cardOrderInput,
  endNotBeforeStart,
  MSG,
  PAYMENT_METHODS,
  pageNumber,
  pageSize,
  pageWithinOffset,
  purchaseAboveMaximum,
  purchaseBelowMinimum,
  purchaseCreateInput,
  TRANSACTION_STATUSES,
  TRANSACTIONS_PAGE_SIZE,
  TRANSACTIONS_PAGE_SIZE_MAX,
  text,
} from "@enmusubi/shared";
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import { rawBodyOf } from "./adapter";
import { queryNumber, withNumbers } from "./coerce";

/*
 * The query, body and answer schemas of the purchase and payment rows (routes in payments.ts and
 * admin-payments.ts; the transaction and settings shapes in payment-shapes.ts), and what the
 * processors' signed notification rows read from a request. Digit strings from the query or a
 * legacy body become numbers in coerce.ts; anything else is refused with the schema's message.
 */

export const pageQuery = queryNumber(pageNumber().default(1));
const emptyToUndefined = (v: unknown) => (v === "" || v === "all" ? undefined : v);

export const adminListQuery = z
  .object({
    status: z.preprocess(emptyToUndefined, z.enum(TRANSACTION_STATUSES, { error: MSG.badRequest }).optional()),
    paymentMethod: z.preprocess(
      emptyToUndefined,
      z.enum(PAYMENT_METHODS, { error: MSG.paymentMethodInvalid }).optional(),
    ),
    startDate: z.preprocess(emptyToUndefined, calendarDay().optional()),
    endDate: z.preprocess(emptyToUndefined, calendarDay().optional()),
    page: pageQuery,
    limit: queryNumber(pageSize({ max: TRANSACTIONS_PAGE_SIZE_MAX }).default(TRANSACTIONS_PAGE_SIZE)),
  })
  .refine(...endNotBeforeStart("startDate", "endDate"))
  .refine(...pageWithinOffset(TRANSACTIONS_PAGE_SIZE));

/** `:id` is the transaction's reference (`transactionId`, as the legacy client sends) or its `_id`. */
export const transactionPath = z.object({ id: text({ max: 64, required: MSG.notFound }) });

export const purchaseBody = z.preprocess(withNumbers(["amount", "points"]), purchaseCreateInput);

export const cardBody = z.preprocess(withNumbers(["amount"]), cardOrderInput);

export const cardResultAnswer = z
  .object({
    transactionId: z.string(),
    status: z.enum(TRANSACTION_STATUSES),
    amount: z.number().int(),
    points: z.number().int(),
    bonusPoints: z.number().int().min(0),
    confirmedAt: z.iso.datetime().nullable(),
    balance: z.number().int(),
  })
  .strict();

export const bonusQuoteQuery = z.preprocess(withNumbers(["amount"]), bonusQuoteInput);

export const bonusQuoteAnswer = z
  .object({
    amount: z.number().int(),
    paymentMethod: z.enum(PAYMENT_METHODS),
    points: z.number().int(),
    bonusPoints: z.number().int().min(0),
    totalPoints: z.number().int(),
    items: z.array(
      z
        .object({
          kind: z.enum(BONUS_KINDS),
          label: z.string(),
          points: z.number().int().positive(),
          endsAt: z.iso.datetime().nullable(),
        })
        .strict(),
    ),
    firstPurchase: z.boolean(),
    bonusValidityDays: z.number().int().positive(),
  })
  .strict();

export const notifyAnswer = z
  .object({ received: z.literal(true), transactionId: z.string(), status: z.enum(TRANSACTION_STATUSES) })
  .strict();

/** What ordering points can be refused with, by `POST /api/purchase` and `POST /api/purchase/card` alike. */
export const ORDER_ERRORS = {
  400: [
    MSG.amountInvalid,
    purchaseBelowMinimum(1000),
    purchaseAboveMaximum(100000),
    MSG.paymentMethodUnavailable,
    MSG.exchangeInactive,
    MSG.orderPointsTooLarge,
    MSG.pointCeilingExceeded,
  ],
  429: MSG.tooManyRequests,
};

/**
 * A processor's notification as its procedure verifies it: the raw body (the signature covers its
 * bytes) and the processor's own headers (`x-smartpit-…`, `x-card-…`), each bounded.
 */
export function signedNotification(
  request: FastifyRequest,
  prefix: string,
): { rawBody: string; headers: Record<string, string> } {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    if (name.startsWith(prefix) && typeof value === "string") headers[name] = value.slice(0, 512);
  }
  return { rawBody: rawBodyOf(request).slice(0, 10_000), headers };
}

/** The notification rows' answer: received, and the order's status now. */
export const received = (t: { transactionId: string; status: (typeof TRANSACTION_STATUSES)[number] }) => ({
  received: true as const,
  transactionId: t.transactionId,
  status: t.status,
});
