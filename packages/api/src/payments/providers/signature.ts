import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";

/**
 * The signed server-to-server notifications of the payment providers (SmartPit, the card
 * processor): HMAC-SHA256, keyed with the merchant's secret, of `timestamp.nonce.rawBody`, hex; a
 * timestamp window against replays of old calls, and a nonce each call carries once.
 */

/** A notification older or newer than this is refused (clock skew plus delivery delay). */
export const NOTIFY_WINDOW_SECONDS = 300;

export function signNotification(key: string, timestamp: string, nonce: string, rawBody: string): string {
  return createHmac("sha256", key).update(`${timestamp}.${nonce}.${rawBody}`).digest("hex");
}

/** A notification as a provider sends it: the raw body and its signed headers. */
export interface SimulatedNotification {
  rawBody: string;
  headers: Record<string, string>;
}

/**
 * Signs a body as a provider does (its simulator's half, and the tests'): the provider's three
 * header names, its secret, and a nonce and timestamp of now unless given.
 */
export function signedNotification(
  names: { signature: string; timestamp: string; nonce: string },
  key: string,
  body: unknown,
  options: { nonce?: string; timestamp?: number } = {},
): SimulatedNotification {
  const rawBody = JSON.stringify(body);
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  const nonce = options.nonce ?? randomUUID();
  return {
    rawBody,
    headers: {
      "content-type": "application/json",
      [names.signature]: signNotification(key, timestamp, nonce, rawBody),
      [names.timestamp]: timestamp,
      [names.nonce]: nonce,
    },
  };
}

export type SignatureCheck = "ok" | "forged" | "stale";

/** Constant-time check of a notification's signature and timestamp window. */
export function verifySignedNotification(input: {
  apiKey: string;
  signature: string | undefined;
  timestamp: string | undefined;
  nonce: string | undefined;
  rawBody: string;
  now: Date;
}): SignatureCheck {
  const { apiKey, signature, timestamp, nonce } = input;
  if (!apiKey || !signature || !timestamp || !nonce || !/^\d{1,12}$/.test(timestamp)) return "forged";
  if (!/^[0-9a-f]{64}$/i.test(signature) || nonce.length > 128) return "forged";
  const expected = Buffer.from(signNotification(apiKey, timestamp, nonce, input.rawBody), "hex");
  if (!timingSafeEqual(expected, Buffer.from(signature, "hex"))) return "forged";
  const age = Math.abs(input.now.getTime() / 1000 - Number(timestamp));
  return age > NOTIFY_WINDOW_SECONDS ? "stale" : "ok";
}
