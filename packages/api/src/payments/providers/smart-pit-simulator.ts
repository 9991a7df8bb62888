import { type SimulatedNotification, signedNotification } from "./signature";
import { SMARTPIT_HEADERS } from "./smart-pit";

/**
 * A local stand-in for SmartPit's side: builds the signed notification a store payment makes SmartPit
 * send. Tests use it, and the dev-only route (SMARTPIT_SIMULATOR) lets a developer "pay" a code.
 */
export type { SimulatedNotification };

export function simulateSmartPitPayment(input: {
  apiKey: string;
  transactionId: string;
  paymentCode: string;
  amount: number;
  paidAt?: Date;
  nonce?: string;
  timestamp?: number;
}): SimulatedNotification {
  const body = {
    transactionId: input.transactionId,
    paymentCode: input.paymentCode,
    amount: input.amount,
    paidAt: (input.paidAt ?? new Date()).toISOString(),
  };
  return signedNotification(SMARTPIT_HEADERS, input.apiKey, body, input);
}
