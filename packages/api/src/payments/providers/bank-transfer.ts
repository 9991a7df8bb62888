import type { PaymentProvider } from "./provider";

/**
 * Bank transfer: nothing to issue. The member transfers to the account of the settings, writing the
 * transaction's reference as the sender name, and an administrator confirms on receipt.
 */
export const bankTransferProvider: PaymentProvider = {
  method: "bank_transfer",
  issue: () => ({}),
};
