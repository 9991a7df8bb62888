import { createHmac, timingSafeEqual } from "node:crypto";
import type { PaymentProvider } from "./provider";

/**
 * The card processor (decision 0046), of the kind Japanese card processors serving this industry
 * offer: the member is sent to the processor's hosted payment page (which also runs EMV 3-D Secure)
 * with the order's id and amount in a request signed with the merchant secret; the processor then
 * calls our notification URL server to server with the result, signed with the same secret, and
 * sends the member back to our result page. Nothing is issued at order time: the order is pending
 * until the notification arrives.
 */
export const cardProvider: PaymentProvider = {
  method: "card",
  issue: () => ({}),
};

/** How long a card order waits for the processor's result; then it ends failed (a late payment is reinstated, decision 0018). */
export const CARD_ORDER_VALID_MINUTES = 60;

export const CARD_HEADERS = {
  signature: "x-card-signature",
  timestamp: "x-card-timestamp",
  nonce: "x-card-nonce",
} as const;

/** What the processor tells: a payment captured, a payment declined (or abandoned), a refund made. */
export const CARD_EVENTS = ["payment.captured", "payment.failed", "refund.completed"] as const;
export type CardEvent = (typeof CARD_EVENTS)[number];

/** The fields of the signed request that sends the member to the hosted payment page. */
export interface CardRequestFields {
  merchant_id: string;
  order_id: string;
  amount: string;
  currency: "JPY";
  return_url: string;
  notify_url: string;
  timestamp: string;
}

const REQUEST_FIELDS: Array<keyof CardRequestFields> = [
  "amount",
  "currency",
  "merchant_id",
  "notify_url",
  "order_id",
  "return_url",
  "timestamp",
];

/** The request's signature: HMAC-SHA256 with the merchant secret of `key=value` pairs in key order, joined by `&`, hex. */
export function signCardRequest(secret: string, fields: CardRequestFields): string {
  const canonical = REQUEST_FIELDS.map((k) => `${k}=${fields[k]}`).join("&");
  return createHmac("sha256", secret).update(canonical).digest("hex");
}

/** Where our site sends the member back to, and where the processor calls. */
export function cardUrls(publicUrl: string, transactionId: string) {
  return {
    returnUrl: `${publicUrl}/user/point-purchase?order=${encodeURIComponent(transactionId)}`,
    notifyUrl: `${publicUrl}/api/payments/card/notify`,
  };
}

/**
 * The hosted payment page's address for an order: the processor's URL with the signed fields as its
 * query (a plain link: the member's browser goes there, no form needed).
 */
export function cardCheckoutUrl(input: {
  paymentUrl: string;
  merchantId: string;
  secret: string;
  transactionId: string;
  amount: number;
  publicUrl: string;
  now: Date;
}): string {
  const { returnUrl, notifyUrl } = cardUrls(input.publicUrl, input.transactionId);
  const fields: CardRequestFields = {
    merchant_id: input.merchantId,
    order_id: input.transactionId,
    amount: String(input.amount),
    currency: "JPY",
    return_url: returnUrl,
    notify_url: notifyUrl,
    timestamp: String(Math.floor(input.now.getTime() / 1000)),
  };
  const url = new URL(input.paymentUrl);
  for (const k of REQUEST_FIELDS) url.searchParams.set(k, fields[k]);
  url.searchParams.set("signature", signCardRequest(input.secret, fields));
  return url.toString();
}

/**
 * The processor's side of the request check (the simulator uses it): every field present, the
 * signature right, and the request not older than an order may wait. Answers the fields, or null.
 */
export function verifyCardRequest(
  secret: string,
  params: Record<string, unknown>,
  now: Date,
): (CardRequestFields & { signature: string }) | null {
  const get = (k: string) => (typeof params[k] === "string" ? (params[k] as string) : undefined);
  const fields = {} as Record<keyof CardRequestFields, string>;
  for (const k of REQUEST_FIELDS) {
    const v = get(k);
    if (v === undefined || v.length > 512) return null;
    fields[k] = v;
  }
  const signature = get("signature");
  if (!secret || !signature || !/^[0-9a-f]{64}$/i.test(signature) || fields.currency !== "JPY") return null;
  const expected = Buffer.from(signCardRequest(secret, fields as CardRequestFields), "hex");
  if (!timingSafeEqual(expected, Buffer.from(signature, "hex"))) return null;
  if (!/^\d{1,12}$/.test(fields.timestamp)) return null;
  const age = now.getTime() / 1000 - Number(fields.timestamp);
  if (age < -300 || age > CARD_ORDER_VALID_MINUTES * 60) return null;
  return { ...(fields as CardRequestFields), signature };
}
