import { z } from "zod";
import { PAYMENT_METHODS, TRANSACTIONS_PAGE_SIZE } from "../constants";
import { MSG } from "../messages";
import { text } from "./text";
import { calendarDay, endNotBeforeStart, pageNumber, pageSize, pageWithinOffset } from "./values";

/** Yen amounts: whole, positive, finite (spec §5 '正しい金額を入力してください'); the settings bound them further. */
const yenAmount = z
  .number({ error: MSG.amountInvalid })
  .int(MSG.amountInvalid)
  .positive(MSG.amountInvalid)
  .max(100_000_000, MSG.amountInvalid);

export const paymentMethodSchema = z.enum(PAYMENT_METHODS, { error: MSG.paymentMethodInvalid });
export const TRANSACTION_STATUSES = ["pending", "paid", "cancelled", "failed"] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

export const purchaseQuoteInput = z.object({ amount: yenAmount });

/**
 * `POST /api/purchase` (spec §7): the legacy client also sends `points`; it is accepted and ignored,
 * the server computes the points from the active rate.
 */
export const purchaseCreateInput = z.object({
  amount: yenAmount,
  paymentMethod: paymentMethodSchema,
  points: z.unknown().optional(),
});
export type PurchaseCreateInput = z.infer<typeof purchaseCreateInput>;

/** The legacy REST call may ask up to 100 transactions a page (20 otherwise, spec §9). */
export const TRANSACTIONS_PAGE_SIZE_MAX = 100;

const page = pageNumber().default(1);

export const purchaseHistoryInput = z
  .object({ page })
  .refine(...pageWithinOffset(TRANSACTIONS_PAGE_SIZE))
  .default({ page: 1 });

/** A calendar day in Japan, `YYYY-MM-DD` (the one schema, schemas/values.ts). */
export const isoDay = calendarDay();

export const adminTransactionsInput = z
  .object({
    page,
    status: z.enum(TRANSACTION_STATUSES, { error: MSG.badRequest }).optional(),
    method: paymentMethodSchema.optional(),
    startDate: isoDay.optional(),
    endDate: isoDay.optional(),
    /** Page size: 20 (spec §9); the legacy REST call may ask up to 100. */
    limit: pageSize({ max: TRANSACTIONS_PAGE_SIZE_MAX }).optional(),
  })
  .refine(...endNotBeforeStart("startDate", "endDate"))
  .refine(...pageWithinOffset(TRANSACTIONS_PAGE_SIZE))
  .default({ page: 1 });
export type AdminTransactionsInput = z.infer<typeof adminTransactionsInput>;

/** A transaction by its id or its reference (`transactionId`, the legacy path parameter). */
export const transactionRefInput = z.object({ id: text({ max: 64, required: MSG.notFound }) });

export const salesInput = z
  .object({
    granularity: z.enum(["day", "month"], { error: MSG.badRequest }),
    from: isoDay.optional(),
    to: isoDay.optional(),
  })
  .refine(...endNotBeforeStart("from", "to"));

const rateField = z
  .number({ error: MSG.exchangeAmountInvalid })
  .int(MSG.exchangeAmountInvalid)
  .min(1, MSG.exchangeAmountInvalid)
  .max(100_000_000, MSG.exchangeAmountInvalid);

/** Payment settings, one section per save (spec §5 minimums). */
export const exchangeSettingsInput = z.object({
  yenAmount: rateField,
  pointAmount: rateField,
  isActive: z.boolean({ error: MSG.badRequest }),
});

const settingText = (required?: string) => text({ max: 100, tooLong: MSG.settingTextTooLong, required });

export const smartPitSettingsInput = z
  .object({
    smartPitId: settingText(),
    /** Omitted or empty: the stored key is kept (the settings answer shows it masked). */
    apiKey: text({ max: 200, tooLong: MSG.settingTextTooLong }).optional(),
    isActive: z.boolean({ error: MSG.badRequest }),
  })
  .refine((v) => !v.isActive || v.smartPitId.length > 0, { message: MSG.smartPitKeyRequired, path: ["smartPitId"] });

export const bankSettingsInput = z
  .object({
    bankName: settingText(),
    bankBranchName: settingText(),
    bankAccountType: settingText(),
    bankAccountNumber: settingText(),
    bankAccountName: settingText(),
    isActive: z.boolean({ error: MSG.badRequest }),
  })
  .refine((v) => !v.isActive || (v.bankName && v.bankBranchName && v.bankAccountNumber && v.bankAccountName), {
    message: MSG.bankDetailsRequired,
    path: ["bankName"],
  });

export const generalSettingsInput = z
  .object({
    minimumPurchase: z
      .number({ error: MSG.minimumPurchaseInvalid })
      .int(MSG.minimumPurchaseInvalid)
      .min(100, MSG.minimumPurchaseInvalid)
      .max(100_000_000, MSG.minimumPurchaseInvalid),
    maximumPurchase: z
      .number({ error: MSG.maximumPurchaseInvalid })
      .int(MSG.maximumPurchaseInvalid)
      .min(1000, MSG.maximumPurchaseInvalid)
      .max(100_000_000, MSG.maximumPurchaseInvalid),
    bankTransferBalance: z
      .number({ error: MSG.bankBalanceInvalid })
      .int(MSG.bankBalanceInvalid)
      .min(0, MSG.bankBalanceInvalid)
      .max(2_000_000_000, MSG.bankBalanceInvalid),
  })
  .refine((v) => v.maximumPurchase >= v.minimumPurchase, {
    message: MSG.purchaseLimitsOrder,
    path: ["maximumPurchase"],
  });

export const unusedBalanceReportInput = z.object({}).default({});

/** A SmartPit notification as received: the exact body (signed) and the headers that carry the signature. */
export const smartPitNotifyInput = z.object({
  rawBody: z.string({ error: MSG.invalidJson }).max(10_000, MSG.payloadTooLarge),
  headers: z.record(z.string(), z.string().max(512)),
});
