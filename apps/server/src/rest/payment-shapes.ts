import type { RouterOutputs } from "@enmusubi/api";
import { MSG, PAYMENT_METHODS, TRANSACTION_STATUSES, text } from "@enmusubi/shared";
import { z } from "zod";

/*
 * The legacy shapes of spec §3 for purchases and payments (transactions, settings), the mapping of
 * the procedures' answers into them, the settings PUT body as a patch of the procedure's sections,
 * and the examples of the OpenAPI document. The routes are in payments.ts.
 */

type Transaction = RouterOutputs["purchase"]["create"];
type AdminTransaction = RouterOutputs["adminPayments"]["list"]["transactions"][number];
type AdminSettings = RouterOutputs["adminPayments"]["getSettings"];

const iso = z.iso.datetime();

/** spec §3 Transaction, plus when it was confirmed or cancelled and how to pay. */
export const legacyTransaction = z
  .object({
    _id: z.uuid(),
    transactionId: z.string(),
    createdAt: iso,
    user: z.object({ name: z.string().nullable(), userID: z.string(), email: z.string() }).strict().optional(),
    paymentMethod: z.enum(PAYMENT_METHODS),
    amount: z.number().int(),
    points: z.number().int(),
    /** Free points credited with the purchase (decision 0047); 0 until paid. */
    bonusPoints: z.number().int().min(0),
    status: z.enum(TRANSACTION_STATUSES),
    confirmedBy: z.object({ name: z.string().nullable(), userID: z.string() }).strict().nullable(),
    confirmedVia: z.enum(["admin", "smartpit", "card"]).nullable(),
    confirmedAt: iso.nullable(),
    cancelledAt: iso.nullable(),
    smartPitDetails: z
      .object({ paymentCode: z.string(), barcode: z.string(), expiresAt: iso.nullable() })
      .strict()
      .nullable(),
    bankTransferDetails: z
      .object({
        bankName: z.string(),
        branchName: z.string(),
        accountType: z.string(),
        accountNumber: z.string(),
        accountName: z.string(),
        transferName: z.string(),
      })
      .strict()
      .nullable(),
    /** A pending card order: the processor's payment page to send the member to (decision 0046). */
    cardDetails: z.object({ checkoutUrl: z.url() }).strict().nullable(),
    /** A card order the processor refunded (its points taken back). */
    refundedAt: iso.nullable(),
  })
  .strict();
export type LegacyTransaction = z.input<typeof legacyTransaction>;

const isoOrNull = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export function toLegacyTransaction(t: Transaction | AdminTransaction): LegacyTransaction {
  const admin = "user" in t ? t : undefined;
  return {
    _id: t.id,
    transactionId: t.transactionId,
    createdAt: new Date(t.createdAt).toISOString(),
    ...(admin ? { user: { name: admin.user.name, userID: admin.user.userID, email: admin.user.email } } : {}),
    paymentMethod: t.paymentMethod,
    amount: t.amount,
    points: t.points,
    bonusPoints: t.bonusPoints,
    status: t.status,
    // Administrators' answers (the list, confirm) name who confirmed; members' answers never do.
    confirmedBy: t.confirmedBy ? { name: t.confirmedBy.name, userID: t.confirmedBy.userID } : null,
    confirmedVia: t.confirmedVia,
    confirmedAt: isoOrNull(t.confirmedAt),
    cancelledAt: isoOrNull(t.cancelledAt),
    smartPitDetails: t.smartPit
      ? {
          paymentCode: t.smartPit.paymentCode,
          barcode: t.smartPit.barcodeValue,
          expiresAt: isoOrNull(t.smartPit.expiresAt),
        }
      : null,
    bankTransferDetails: t.bank
      ? {
          bankName: t.bank.bankName,
          branchName: t.bank.bankBranchName,
          accountType: t.bank.bankAccountType,
          accountNumber: t.bank.bankAccountNumber,
          accountName: t.bank.bankAccountName,
          transferName: t.bank.transferName,
        }
      : null,
    cardDetails: t.card ? { checkoutUrl: t.card.checkoutUrl } : null,
    refundedAt: isoOrNull(t.refundedAt),
  };
}

const legacyBank = z
  .object({
    bankName: z.string(),
    branchName: z.string(),
    accountType: z.string(),
    accountNumber: z.string(),
    accountName: z.string(),
    isActive: z.boolean(),
  })
  .strict();

/** spec §3 Payment settings; `apiKey` is masked (last 4 characters), never the key itself. */
export const legacySettings = z
  .object({
    exchangeRate: z
      .object({ yenAmount: z.number().int(), pointAmount: z.number().int(), isActive: z.boolean() })
      .strict(),
    bankTransfer: legacyBank,
    smartPit: z
      .object({ smartPitId: z.string(), apiKey: z.string(), apiKeySet: z.boolean(), isActive: z.boolean() })
      .strict(),
    /** The card processor (decision 0046); `secret` is masked (last 4 characters), never the secret itself. */
    card: z
      .object({
        merchantId: z.string(),
        secret: z.string(),
        secretSet: z.boolean(),
        paymentUrl: z.string(),
        isActive: z.boolean(),
        ageVerification: z.boolean(),
      })
      .strict(),
    minimumPurchase: z.number().int(),
    maximumPurchase: z.number().int(),
    bankTransferBalance: z.number().int(),
  })
  .strict();

export function toLegacySettings(s: AdminSettings): z.input<typeof legacySettings> {
  return {
    exchangeRate: {
      yenAmount: s.exchange.yenAmount,
      pointAmount: s.exchange.pointAmount,
      isActive: s.exchange.isActive,
    },
    bankTransfer: {
      bankName: s.bank.bankName,
      branchName: s.bank.bankBranchName,
      accountType: s.bank.bankAccountType,
      accountNumber: s.bank.bankAccountNumber,
      accountName: s.bank.bankAccountName,
      isActive: s.bank.isActive,
    },
    smartPit: {
      smartPitId: s.smartPit.smartPitId,
      apiKey: s.smartPit.apiKeyMasked,
      apiKeySet: s.smartPit.apiKeySet,
      isActive: s.smartPit.isActive,
    },
    card: {
      merchantId: s.card.merchantId,
      secret: s.card.secretMasked,
      secretSet: s.card.secretSet,
      paymentUrl: s.card.paymentUrl,
      isActive: s.card.isActive,
      ageVerification: s.card.ageVerification,
    },
    minimumPurchase: s.general.minimumPurchase,
    maximumPurchase: s.general.maximumPurchase,
    bankTransferBalance: s.general.bankTransferBalance,
  };
}

/** Member side (spec §3 "Member-side purchase settings"); SmartPit's id and key never leave the server. */
export const memberSettings = z
  .object({
    exchangeRate: z
      .object({ yenAmount: z.number().int(), pointAmount: z.number().int(), isActive: z.boolean() })
      .strict(),
    limits: z.object({ minimum: z.number().int(), maximum: z.number().int() }).strict(),
    bankTransfer: legacyBank.nullable(),
    smartPit: z.object({ isActive: z.boolean() }).strict(),
    /** The card: offered only when configured completely (decision 0046). */
    card: z.object({ isActive: z.boolean() }).strict(),
  })
  .strict();

export const EXAMPLE_TRANSACTION: LegacyTransaction = {
  _id: "5b1d3c2a-7e6f-4a9b-8c0d-1e2f3a4b5c6d",
  transactionId: "TX20250820K7M2Q9RZ",
  createdAt: "2025-08-20T01:23:45.000Z",
  paymentMethod: "smart_pit",
  amount: 3000,
  points: 1500,
  bonusPoints: 0,
  status: "pending",
  confirmedBy: null,
  confirmedVia: null,
  confirmedAt: null,
  cancelledAt: null,
  smartPitDetails: {
    paymentCode: "48213907561238",
    barcode: "9100000048213907561238" + "00003000",
    expiresAt: "2025-08-27T01:23:45.000Z",
  },
  bankTransferDetails: null,
  cardDetails: null,
  refundedAt: null,
};
/** A card order just made: the member's browser goes to `cardDetails.checkoutUrl` (decision 0046). */
export const EXAMPLE_CARD_TRANSACTION: LegacyTransaction = {
  ...EXAMPLE_TRANSACTION,
  transactionId: "TX20250820P4W8N2HC",
  paymentMethod: "card",
  smartPitDetails: null,
  cardDetails: {
    checkoutUrl:
      "https://pay.example-card.jp/checkout?amount=3000&currency=JPY&merchant_id=M-000123&notify_url=https%3A%2F%2Fenmusubi.example.jp%2Fapi%2Fpayments%2Fcard%2Fnotify&order_id=TX20250820P4W8N2HC&return_url=https%3A%2F%2Fenmusubi.example.jp%2Fuser%2Fpoint-purchase%3Forder%3DTX20250820P4W8N2HC&timestamp=1755653025&signature=9b2e4f7a1c6d8e0f3a5b7c9d1e2f4a6b8c0d2e4f6a8b0c2d4e6f8a0b2c4d6e8f",
  },
};
export const EXAMPLE_ADMIN_TRANSACTION: LegacyTransaction = {
  ...EXAMPLE_TRANSACTION,
  user: { name: "山田花子", userID: "k3x9m2pq", email: "hanako@example.jp" },
  status: "paid",
  confirmedBy: { name: "管理者", userID: "admin" },
  confirmedVia: "admin",
  confirmedAt: "2025-08-21T02:00:00.000Z",
};
export const EXAMPLE_SETTINGS: z.input<typeof legacySettings> = {
  exchangeRate: { yenAmount: 1000, pointAmount: 500, isActive: true },
  bankTransfer: {
    bankName: "縁結び銀行",
    branchName: "本店",
    accountType: "普通",
    accountNumber: "1234567",
    accountName: "エンムスビ（カ",
    isActive: false,
  },
  smartPit: { smartPitId: "SP-000123", apiKey: "••••••••9f3a", apiKeySet: true, isActive: true },
  card: {
    merchantId: "M-000123",
    secret: "••••••••7c1e",
    secretSet: true,
    paymentUrl: "https://pay.example-card.jp/checkout",
    isActive: true,
    ageVerification: false,
  },
  minimumPurchase: 1000,
  maximumPurchase: 100000,
  bankTransferBalance: 0,
};

/** A string field of the settings: the shared `text()` schema (bounded, storable, trimmed). */
const settingField = (max = 100) => text({ max, tooLong: MSG.settingTextTooLong }).optional();
const yenField = (message: string) => z.number({ error: message }).optional();

/**
 * The PUT body: one section key as spec §7 says, or several, or the whole GET answer sent back
 * (its top-level minimumPurchase / maximumPurchase / bankTransferBalance are the general section).
 * Read-only fields of the GET answer (`apiKeySet`, a masked `apiKey`) and unknown keys are ignored,
 * not refused. Fields left out keep their stored value: the procedure merges under the row lock.
 */
export const settingsBody = z
  .object({
    exchangeRate: z
      .object({
        yenAmount: z.number({ error: MSG.exchangeAmountInvalid }).optional(),
        pointAmount: z.number({ error: MSG.exchangeAmountInvalid }).optional(),
        isActive: z.boolean({ error: MSG.badRequest }).optional(),
      })
      .optional(),
    smartPit: z
      .object({
        smartPitId: settingField(),
        apiKey: settingField(200),
        isActive: z.boolean({ error: MSG.badRequest }).optional(),
      })
      .optional(),
    card: z
      .object({
        merchantId: settingField(),
        secret: settingField(200),
        paymentUrl: settingField(200),
        isActive: z.boolean({ error: MSG.badRequest }).optional(),
        ageVerification: z.boolean({ error: MSG.badRequest }).optional(),
      })
      .optional(),
    bankTransfer: z
      .object({
        bankName: settingField(),
        branchName: settingField(),
        accountType: settingField(),
        accountNumber: settingField(),
        accountName: settingField(),
        isActive: z.boolean({ error: MSG.badRequest }).optional(),
      })
      .optional(),
    general: z
      .object({
        minimumPurchase: yenField(MSG.minimumPurchaseInvalid),
        maximumPurchase: yenField(MSG.maximumPurchaseInvalid),
        bankTransferBalance: yenField(MSG.bankBalanceInvalid),
      })
      .optional(),
    minimumPurchase: yenField(MSG.minimumPurchaseInvalid),
    maximumPurchase: yenField(MSG.maximumPurchaseInvalid),
    bankTransferBalance: yenField(MSG.bankBalanceInvalid),
  })
  .transform((b) => {
    const general = {
      minimumPurchase: b.general?.minimumPurchase ?? b.minimumPurchase,
      maximumPurchase: b.general?.maximumPurchase ?? b.maximumPurchase,
      bankTransferBalance: b.general?.bankTransferBalance ?? b.bankTransferBalance,
    };
    const hasGeneral = b.general !== undefined || Object.values(general).some((v) => v !== undefined);
    const bank = b.bankTransfer;
    return {
      ...(b.exchangeRate ? { exchange: b.exchangeRate } : {}),
      ...(b.smartPit ? { smartPit: b.smartPit } : {}),
      ...(b.card ? { card: b.card } : {}),
      ...(bank
        ? {
            bank: {
              bankName: bank.bankName,
              bankBranchName: bank.branchName,
              bankAccountType: bank.accountType,
              bankAccountNumber: bank.accountNumber,
              bankAccountName: bank.accountName,
              isActive: bank.isActive,
            },
          }
        : {}),
      ...(hasGeneral ? { general } : {}),
    };
  })
  .refine((patch) => Object.keys(patch).length > 0, { message: MSG.badRequest });
