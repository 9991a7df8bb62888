import { randomUUID } from "node:crypto";
import { SMARTPIT_HEADERS, signSmartPitNotification } from "./smart-pit";

/**
 * A local stand-in for SmartPit's side: builds the signed notification a store payment makes SmartPit
 * send. Tests use it, and the dev-only route (SMARTPIT_SIMULATOR) lets a developer "pay" a code.
 */
export interface SimulatedNotification {
  rawBody: string;
  headers: Record<string, string>;
}

export function simulateSmartPitPayment(input: {
  apiKey: string;
  transactionId: string;
  paymentCode: string;
  amount: number;
  paidAt?: Date;
  nonce?: string;
  timestamp?: number;
}): SimulatedNotification {
  const rawBody = JSON.stringify({
    transactionId: input.transactionId,
    paymentCode: input.paymentCode,
    amount: input.amount,
    paidAt: (input.paidAt ?? new Date()).toISOString(),
  });
  const timestamp = String(input.timestamp ?? Math.floor(Date.now() / 1000));
  const nonce = input.nonce ?? randomUUID();
  return {
    rawBody,
    headers: {
      "content-type": "application/json",
      [SMARTPIT_HEADERS.signature]: signSmartPitNotification(input.apiKey, timestamp, nonce, rawBody),
      [SMARTPIT_HEADERS.timestamp]: timestamp,
      [SMARTPIT_HEADERS.nonce]: nonce,
    },
  };
}
