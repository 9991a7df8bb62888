import type { ExchangeRate, PurchaseLimits } from "./calc";
import type { PaymentMethodKey, TransactionStatus } from "./StatusBadge";

/** `legal.info`: the public facts every legal page and the purchase screen state. */
export interface LegalInfo extends PurchaseLimits {
  exchange: ExchangeRate;
  methods: { smartPit: boolean; bankTransfer: boolean };
  pointValidityYears: number;
  operator: { name: string; address: string; phone: string; email: string; datingBusinessNumber: string };
  pointCosts: { actionName: string; displayName: string; pointCost: number }[];
}

export interface SmartPitPayment {
  paymentCode: string;
  barcodeValue: string;
  expiresAt: Date | string | null;
}

export interface BankPayment {
  bankName: string;
  bankBranchName: string;
  bankAccountType: string;
  bankAccountNumber: string;
  bankAccountName: string;
  transferName: string;
}

/** A purchase as the member sees it (and the administrator, with the member added). */
export interface Transaction {
  id: string;
  transactionId: string;
  amount: number;
  points: number;
  paymentMethod: PaymentMethodKey;
  status: TransactionStatus;
  createdAt: Date | string;
  confirmedAt: Date | string | null;
  cancelledAt: Date | string | null;
  smartPit: SmartPitPayment | null;
  bank: BankPayment | null;
}
