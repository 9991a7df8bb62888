import type { PaymentMethod } from "@enmusubi/shared";

/** What a payment method gives a new purchase: instructions for the member, stored with the transaction. */
export interface PaymentIssue {
  smartPit?: { paymentCode: string; barcodeValue: string; expiresAt: Date };
}

export interface PaymentSettingsView {
  smartPitId: string;
  smartPitApiKey: string;
}

/**
 * One payment method behind one interface: `issue` runs when a member orders points (inside the
 * purchase transaction, so a failure creates nothing). Confirmation is the same for every method
 * (payments/admin-transactions.ts `confirmTransaction`): an administrator on receipt, or the provider's signed
 * notification.
 */
export interface PaymentProvider {
  method: PaymentMethod;
  issue(order: { transactionId: string; amount: number; settings: PaymentSettingsView; now: Date }): PaymentIssue;
}
