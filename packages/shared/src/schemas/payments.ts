import { z } from "zod";
import { PAYMENT_METHODS, TRANSACTION_STATUSES, TRANSACTIONS_PAGE_SIZE } from "../constants/index";
import { MSG } from "../messages";
import { uuid } from "./ids";
import { text } from "./text";
import { calendarDay, endNotBeforeStart, money, pageNumber, pageSize, pageWithinOffset } from "./values";

/** Yen amounts: whole, positive, finite (spec §5 '正しい金額を入力してください'); the settings bound them further. */
const yenAmount = money();

export const paymentMethodSchema = z.enum(PAYMENT_METHODS, { error: MSG.paymentMethodInvalid });

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

/** The card processor's hosted payment page: an absolute http(s) URL (decision 0046). */
const cardUrl = text({ max: 200, tooLong: MSG.settingTextTooLong }).refine(
  (v) => v === "" || /^https?:\/\/[^\s/?#]+[^\s]*$/.test(v),
  { message: MSG.cardUrlInvalid },
);

/** Card payment settings (decision 0046): merchant id, secret (masked in answers), the payment page, the age check. */
export const cardSettingsInput = z
  .object({
    merchantId: settingText(),
    /** Omitted or empty: the stored secret is kept (the settings answer shows it masked). */
    secret: text({ max: 200, tooLong: MSG.settingTextTooLong }).optional(),
    paymentUrl: cardUrl,
    isActive: z.boolean({ error: MSG.badRequest }),
    /** A member's first completed card payment counts as the age check (出会い系サイト規制法施行規則). */
    ageVerification: z.boolean({ error: MSG.badRequest }),
  })
  .refine((v) => !v.isActive || (v.merchantId.length > 0 && v.paymentUrl.length > 0), {
    message: MSG.cardSettingsRequired,
    path: ["merchantId"],
  });

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

/**
 * Settings saved as a patch (the legacy PUT): any sections, any of their fields; what is left out
 * keeps its stored value. The merge and the rules over the merged values (limits in order, a method
 * switched on only when complete, the rate bound) run under the settings row's lock.
 */
export const settingsPatchInput = z
  .object({
    exchange: z
      .object({
        yenAmount: rateField.optional(),
        pointAmount: rateField.optional(),
        isActive: z.boolean({ error: MSG.badRequest }).optional(),
      })
      .optional(),
    smartPit: z
      .object({
        smartPitId: settingText().optional(),
        apiKey: text({ max: 200, tooLong: MSG.settingTextTooLong }).optional(),
        isActive: z.boolean({ error: MSG.badRequest }).optional(),
      })
      .optional(),
    bank: z
      .object({
        bankName: settingText().optional(),
        bankBranchName: settingText().optional(),
        bankAccountType: settingText().optional(),
        bankAccountNumber: settingText().optional(),
        bankAccountName: settingText().optional(),
        isActive: z.boolean({ error: MSG.badRequest }).optional(),
      })
      .optional(),
    card: z
      .object({
        merchantId: settingText().optional(),
        secret: text({ max: 200, tooLong: MSG.settingTextTooLong }).optional(),
        paymentUrl: cardUrl.optional(),
        isActive: z.boolean({ error: MSG.badRequest }).optional(),
        ageVerification: z.boolean({ error: MSG.badRequest }).optional(),
      })
      .optional(),
    general: z
      .object({
        minimumPurchase: z.number({ error: MSG.minimumPurchaseInvalid }).optional(),
        maximumPurchase: z.number({ error: MSG.maximumPurchaseInvalid }).optional(),
        bankTransferBalance: z.number({ error: MSG.bankBalanceInvalid }).optional(),
      })
      .optional(),
  })
  .refine((v) => Object.values(v).some((section) => section !== undefined), { message: MSG.badRequest });
export type SettingsPatchInput = z.infer<typeof settingsPatchInput>;

export const NOTIFICATION_VIEWS = ["open", "unsettled", "all"] as const;

/** `adminPayments.notifications`: `open` = money still to settle or refund; `unsettled` = also those done; `all`. */
export const notificationListInput = z
  .object({ page, view: z.enum(NOTIFICATION_VIEWS, { error: MSG.badRequest }).default("open") })
  .default({ page: 1, view: "open" });
export type NotificationListInput = z.infer<typeof notificationListInput>;

/** An administrator's decision on money that could not be credited: settled (handled otherwise) or refunded. */
export const notificationResolveInput = z.object({
  id: uuid(MSG.notFound),
  resolution: z.enum(["settled", "refunded"], { error: MSG.badRequest }),
  note: text({ max: 500, tooLong: MSG.resolutionNoteTooLong }).optional(),
});

export const unusedBalanceReportInput = z.object({}).default({});

/** A SmartPit notification as received: the exact body (signed) and the headers that carry the signature. */
export const smartPitNotifyInput = z.object({
  rawBody: z.string({ error: MSG.invalidJson }).max(10_000, MSG.payloadTooLarge),
  headers: z.record(z.string(), z.string().max(512)),
});

/** The card processor's notification as received: the exact body (signed) and the signature headers. */
export const cardNotifyInput = smartPitNotifyInput;

/** A card order (the amount; the method is the card): `POST /api/purchase/card`. */
export const cardOrderInput = z.object({ amount: yenAmount });
