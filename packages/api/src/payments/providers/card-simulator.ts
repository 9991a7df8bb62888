import { CARD_HEADERS, type CardEvent } from "./card";
import { type SimulatedNotification, signedNotification } from "./signature";

/**
 * A local stand-in for the card processor's side (CARD_SIMULATOR, never in production): the card
 * numbers its payment page accepts, and the signed notification it sends. Tests use it too.
 */

/** Succeeds (the usual test number of the card brands). */
export const CARD_TEST_NUMBER_OK = "4111111111111111";
/** Declined by the issuer: the processor notifies `payment.failed`. */
export const CARD_TEST_NUMBER_DECLINED = "4000000000000002";

export function simulateCardNotification(input: {
  secret: string;
  event: CardEvent;
  transactionId: string;
  amount: number;
  paymentId?: string;
  occurredAt?: Date;
  nonce?: string;
  timestamp?: number;
}): SimulatedNotification {
  const body = {
    event: input.event,
    transactionId: input.transactionId,
    paymentId: input.paymentId ?? `SIMPAY-${input.transactionId}`,
    amount: input.amount,
    occurredAt: (input.occurredAt ?? new Date()).toISOString(),
  };
  return signedNotification(CARD_HEADERS, input.secret, body, input);
}
