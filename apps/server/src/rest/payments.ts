import { AppError, type RouterOutputs, simulateStorePayment } from "@enmusubi/api";
import {
  calendarDay,
  endNotBeforeStart,
  MSG,
  PAYMENT_METHODS,
  pageNumber,
  pageSize,
  pageWithinOffset,
  purchaseAboveMaximum,
  purchaseBelowMinimum,
  purchaseCreateInput,
  TRANSACTION_STATUSES,
  TRANSACTIONS_PAGE_SIZE,
  TRANSACTIONS_PAGE_SIZE_MAX,
  text,
} from "@enmusubi/shared";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { rawBodyOf, route } from "./adapter";
import { queryNumber, withNumbers } from "./coerce";

/*
 * Legacy rows of spec §7 for purchases and payments, over the `purchase` and `adminPayments`
 * procedures, plus SmartPit's signed notification and the 資金決済法 report as CSV.
 */

type Transaction = RouterOutputs["purchase"]["create"];
type AdminTransaction = RouterOutputs["adminPayments"]["list"]["transactions"][number];
type AdminSettings = RouterOutputs["adminPayments"]["getSettings"];

const iso = z.iso.datetime();

/** spec §3 Transaction, plus when it was confirmed or cancelled and how to pay. */
const legacyTransaction = z
  .object({
    _id: z.uuid(),
    transactionId: z.string(),
    createdAt: iso,
    user: z.object({ name: z.string().nullable(), userID: z.string(), email: z.string() }).strict().optional(),
    paymentMethod: z.enum(PAYMENT_METHODS),
    amount: z.number().int(),
    points: z.number().int(),
    status: z.enum(TRANSACTION_STATUSES),
    confirmedBy: z.object({ name: z.string().nullable(), userID: z.string() }).strict().nullable(),
    confirmedVia: z.enum(["admin", "smartpit"]).nullable(),
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
  })
  .strict();
type LegacyTransaction = z.input<typeof legacyTransaction>;

const isoOrNull = (d: Date | null) => (d ? new Date(d).toISOString() : null);

function toLegacyTransaction(t: Transaction | AdminTransaction): LegacyTransaction {
  const admin = "user" in t ? t : undefined;
  return {
    _id: t.id,
    transactionId: t.transactionId,
    createdAt: new Date(t.createdAt).toISOString(),
    ...(admin ? { user: { name: admin.user.name, userID: admin.user.userID, email: admin.user.email } } : {}),
    paymentMethod: t.paymentMethod,
    amount: t.amount,
    points: t.points,
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
const legacySettings = z
  .object({
    exchangeRate: z
      .object({ yenAmount: z.number().int(), pointAmount: z.number().int(), isActive: z.boolean() })
      .strict(),
    bankTransfer: legacyBank,
    smartPit: z
      .object({ smartPitId: z.string(), apiKey: z.string(), apiKeySet: z.boolean(), isActive: z.boolean() })
      .strict(),
    minimumPurchase: z.number().int(),
    maximumPurchase: z.number().int(),
    bankTransferBalance: z.number().int(),
  })
  .strict();

function toLegacySettings(s: AdminSettings): z.input<typeof legacySettings> {
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
    minimumPurchase: s.general.minimumPurchase,
    maximumPurchase: s.general.maximumPurchase,
    bankTransferBalance: s.general.bankTransferBalance,
  };
}

/** Member side (spec §3 "Member-side purchase settings"); SmartPit's id and key never leave the server. */
const memberSettings = z
  .object({
    exchangeRate: z
      .object({ yenAmount: z.number().int(), pointAmount: z.number().int(), isActive: z.boolean() })
      .strict(),
    limits: z.object({ minimum: z.number().int(), maximum: z.number().int() }).strict(),
    bankTransfer: legacyBank.nullable(),
    smartPit: z.object({ isActive: z.boolean() }).strict(),
  })
  .strict();

const EXAMPLE_TRANSACTION: LegacyTransaction = {
  _id: "5b1d3c2a-7e6f-4a9b-8c0d-1e2f3a4b5c6d",
  transactionId: "TX20250820K7M2Q9RZ",
  createdAt: "2025-08-20T01:23:45.000Z",
  paymentMethod: "smart_pit",
  amount: 3000,
  points: 1500,
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
};
const EXAMPLE_ADMIN_TRANSACTION: LegacyTransaction = {
  ...EXAMPLE_TRANSACTION,
  user: { name: "山田花子", userID: "k3x9m2pq", email: "hanako@example.jp" },
  status: "paid",
  confirmedBy: { name: "管理者", userID: "admin" },
  confirmedVia: "admin",
  confirmedAt: "2025-08-21T02:00:00.000Z",
};
const EXAMPLE_SETTINGS: z.input<typeof legacySettings> = {
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
  minimumPurchase: 1000,
  maximumPurchase: 100000,
  bankTransferBalance: 0,
};

const pageQuery = queryNumber(pageNumber().default(1));
const emptyToUndefined = (v: unknown) => (v === "" || v === "all" ? undefined : v);

const adminListQuery = z
  .object({
    status: z.preprocess(emptyToUndefined, z.enum(TRANSACTION_STATUSES, { error: MSG.badRequest }).optional()),
    paymentMethod: z.preprocess(
      emptyToUndefined,
      z.enum(PAYMENT_METHODS, { error: MSG.paymentMethodInvalid }).optional(),
    ),
    startDate: z.preprocess(emptyToUndefined, calendarDay().optional()),
    endDate: z.preprocess(emptyToUndefined, calendarDay().optional()),
    page: pageQuery,
    limit: queryNumber(pageSize({ max: TRANSACTIONS_PAGE_SIZE_MAX }).default(TRANSACTIONS_PAGE_SIZE)),
  })
  .refine(...endNotBeforeStart("startDate", "endDate"))
  .refine(...pageWithinOffset(TRANSACTIONS_PAGE_SIZE));

/** `:id` is the transaction's reference (`transactionId`, as the legacy client sends) or its `_id`. */
const transactionPath = z.object({ id: text({ max: 64, required: MSG.notFound }) });

/** A string field of the settings: the shared `text()` schema (bounded, storable, trimmed). */
const settingField = (max = 100) => text({ max, tooLong: MSG.settingTextTooLong }).optional();
const yenField = (message: string) => z.number({ error: message }).optional();

/**
 * The PUT body: one section key as spec §7 says, or several, or the whole GET answer sent back
 * (its top-level minimumPurchase / maximumPurchase / bankTransferBalance are the general section).
 * Read-only fields of the GET answer (`apiKeySet`, a masked `apiKey`) and unknown keys are ignored,
 * not refused. Fields left out keep their stored value: the procedure merges under the row lock.
 */
const settingsBody = z
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

const purchaseBody = z.preprocess(withNumbers(["amount", "points"]), purchaseCreateInput);

const notifyAnswer = z
  .object({ received: z.literal(true), transactionId: z.string(), status: z.enum(TRANSACTION_STATUSES) })
  .strict();

export const paymentRoutes = [
  route({
    method: "GET",
    path: "/api/purchase/settings",
    summary: "Member: exchange rate, purchase limits, active payment methods and bank details",
    description: "SmartPit's merchant id and API key are never answered.",
    access: "member",
    response: memberSettings,
    example: {
      exchangeRate: { yenAmount: 1000, pointAmount: 500, isActive: true },
      limits: { minimum: 1000, maximum: 100000 },
      bankTransfer: null,
      smartPit: { isActive: true },
    },
    handler: async (caller) => {
      const s = await caller.purchase.settings();
      return {
        exchangeRate: s.exchange,
        limits: { minimum: s.minimumPurchase, maximum: s.maximumPurchase },
        bankTransfer: s.bank
          ? {
              bankName: s.bank.bankName,
              branchName: s.bank.bankBranchName,
              accountType: s.bank.bankAccountType,
              accountNumber: s.bank.bankAccountNumber,
              accountName: s.bank.bankAccountName,
              isActive: s.methods.bankTransfer,
            }
          : null,
        smartPit: { isActive: s.methods.smartPit },
      };
    },
  }),
  route({
    method: "GET",
    path: "/api/purchase/history",
    summary: "Member: own purchase transactions, newest first, 20 a page (X-Total-Count gives the total)",
    access: "member",
    input: z.object({ page: pageQuery }).refine(...pageWithinOffset(TRANSACTIONS_PAGE_SIZE)),
    response: z.array(legacyTransaction),
    example: [EXAMPLE_TRANSACTION],
    headers: {
      "X-Total-Count": { description: "The member's transactions across all pages", schema: z.number().int().min(0) },
    },
    handler: async (caller, input, _request, reply) => {
      const history = await caller.purchase.history({ page: input.page });
      reply.header("x-total-count", String(history.pagination.total));
      return history.transactions.map(toLegacyTransaction);
    },
  }),
  route({
    method: "POST",
    path: "/api/purchase",
    summary: "Member: order points (pending until the payment is confirmed); points are computed on the server",
    description:
      "`points` is accepted for the legacy client and ignored: the server computes floor(amount × pointAmount ÷ yenAmount) from the active rate. The amount must be within the settings' minimum and maximum; the method must be switched on and configured completely (SmartPit: id and API key; bank transfer: every account field). An order is refused before anyone pays when it would buy more than 100,000,000 points, or take the member's balance plus their pending orders past 1,000,000,000 points. SmartPit answers a payment code and the barcode value (the app draws the barcode).",
    access: "member",
    input: purchaseBody,
    response: legacyTransaction,
    example: EXAMPLE_TRANSACTION,
    status: 201,
    errors: {
      400: [
        MSG.amountInvalid,
        purchaseBelowMinimum(1000),
        purchaseAboveMaximum(100000),
        MSG.paymentMethodUnavailable,
        MSG.exchangeInactive,
        MSG.orderPointsTooLarge,
        MSG.pointCeilingExceeded,
      ],
      429: MSG.tooManyRequests,
    },
    handler: async (caller, input) => toLegacyTransaction(await caller.purchase.create(input)),
  }),
  route({
    method: "GET",
    path: "/api/admin/payments/transactions",
    summary: "Admin: transactions filtered by status, payment method and Japanese dates, 20 a page, with totals",
    access: "admin",
    input: adminListQuery,
    response: z
      .object({
        transactions: z.array(legacyTransaction),
        pagination: z
          .object({ total: z.number().int(), totalPages: z.number().int(), currentPage: z.number().int() })
          .strict(),
        summary: z.object({ count: z.number().int(), amount: z.number().int(), points: z.number().int() }).strict(),
      })
      .strict(),
    example: {
      transactions: [EXAMPLE_ADMIN_TRANSACTION],
      pagination: { total: 1, totalPages: 1, currentPage: 1 },
      summary: { count: 1, amount: 3000, points: 1500 },
    },
    errors: { 400: [MSG.dateInvalid, MSG.dateRangeInvalid, MSG.pageTooLarge] },
    handler: async (caller, input) => {
      const list = await caller.adminPayments.list({
        page: input.page,
        status: input.status,
        method: input.paymentMethod,
        startDate: input.startDate,
        endDate: input.endDate,
        limit: input.limit,
      });
      return {
        transactions: list.transactions.map(toLegacyTransaction),
        pagination: {
          total: list.pagination.total,
          totalPages: list.pagination.totalPages,
          currentPage: list.pagination.currentPage,
        },
        summary: list.totals,
      };
    },
  }),
  route({
    method: "POST",
    path: "/api/admin/payments/transactions/:id/confirm",
    summary: "Admin: confirm a pending transaction's payment, crediting its points once",
    description:
      "Only pending transactions; a second (or concurrent) confirmation answers 409 and credits nothing, as does one whose credit the member's balance could not hold. The answer's `confirmedBy` names the administrator who confirmed.",
    access: "admin",
    input: transactionPath,
    response: z.object({ message: z.string(), transaction: legacyTransaction }).strict(),
    example: { message: "入金を確認しました。", transaction: { ...EXAMPLE_ADMIN_TRANSACTION, user: undefined } },
    errors: {
      404: MSG.notFound,
      409: [MSG.transactionAlreadyConfirmed, MSG.transactionNotPending, MSG.creditWouldOverflow],
    },
    handler: async (caller, input) => ({
      message: "入金を確認しました。",
      transaction: toLegacyTransaction(await caller.adminPayments.confirm({ id: input.id })),
    }),
  }),
  route({
    method: "POST",
    path: "/api/admin/payments/transactions/:id/cancel",
    summary: "Admin: cancel a pending transaction (its payment code leaves the member's answers)",
    access: "admin",
    input: transactionPath,
    response: z.object({ message: z.string(), transaction: legacyTransaction }).strict(),
    example: {
      message: "取引をキャンセルしました。",
      transaction: { ...EXAMPLE_TRANSACTION, status: "cancelled", cancelledAt: "2025-08-21T02:00:00.000Z" },
    },
    errors: { 404: MSG.notFound, 409: [MSG.transactionAlreadyConfirmed, MSG.transactionNotPending] },
    handler: async (caller, input) => ({
      message: "取引をキャンセルしました。",
      transaction: toLegacyTransaction(await caller.adminPayments.cancel({ id: input.id })),
    }),
  }),
  route({
    method: "GET",
    path: "/api/admin/payments/settings",
    summary: "Admin: payment settings (the SmartPit API key masked to its last 4 characters)",
    access: "admin",
    response: legacySettings,
    example: EXAMPLE_SETTINGS,
    handler: async (caller) => toLegacySettings(await caller.adminPayments.getSettings()),
  }),
  route({
    method: "PUT",
    path: "/api/admin/payments/settings",
    summary:
      "Admin: save settings: one section (exchangeRate, smartPit, bankTransfer or general), several, or the GET answer; answers all settings",
    description:
      "Spec §7 sends one section key per request; several, or the whole GET answer sent back, are accepted too (its top-level minimumPurchase, maximumPurchase and bankTransferBalance are the general section). Read-only fields (`apiKeySet`) and unknown keys are ignored; an empty, absent or masked `apiKey` keeps the stored key. Fields left out keep their stored value: the merge happens under the settings row's lock, so concurrent saves of different sections or fields all persist. Minimums (spec §5): rate fields ≥ 1, minimumPurchase ≥ 100, maximumPurchase ≥ 1000 and ≥ minimumPurchase, bankTransferBalance ≥ 0; the maximum purchase at the rate may buy at most 100,000,000 points. Every section saved is audited (before → after).",
    access: "admin",
    input: settingsBody,
    response: legacySettings,
    example: EXAMPLE_SETTINGS,
    errors: {
      400: [
        MSG.exchangeAmountInvalid,
        MSG.minimumPurchaseInvalid,
        MSG.maximumPurchaseInvalid,
        MSG.purchaseLimitsOrder,
        MSG.bankBalanceInvalid,
        MSG.smartPitKeyRequired,
        MSG.bankDetailsRequired,
        MSG.exchangeBoundExceeded,
      ],
    },
    handler: async (caller, patch) => toLegacySettings(await caller.adminPayments.saveSettings(patch)),
  }),
  route({
    method: "GET",
    path: "/api/admin/payments/unused-balance-report.csv",
    summary: "Admin: 資金決済法 unused-balance report (paid points outstanding at each 3/31 and 9/30) as CSV",
    description: "UTF-8 with a BOM (opens in Excel), CRLF line ends; computed from the point lots.",
    access: "admin",
    contentType: "text/csv",
    response: z.string(),
    example:
      "\uFEFF基準日,未使用残高（有償ポイント）,未使用残高（円）,届出・供託の要否,要供託額（円）\r\n2025-09-30,550,1400,否,0\r\n",
    handler: async (caller, _input, _request, reply) => {
      reply.header("content-disposition", 'attachment; filename="unused-balance-report.csv"');
      return caller.adminPayments.unusedBalanceCsv({});
    },
  }),
  route({
    method: "POST",
    path: "/api/payments/smartpit/notify",
    summary: "SmartPit → us: a payment code was paid (signed; no bearer token)",
    description:
      "Headers `X-SmartPit-Signature` (hex HMAC-SHA256, keyed with the API key, of `<timestamp>.<nonce>.<raw body>`), `X-SmartPit-Timestamp` (Unix seconds, ±5 minutes) and `X-SmartPit-Nonce` (each accepted once). Body `{ transactionId, paymentCode, amount, paidAt }`. A valid notification confirms a pending transaction exactly as an administrator would (confirmedVia smartpit). Money for a cancelled or expired order is never dropped: the order is reinstated as paid and credited when its member's account is live and the balance can hold it; otherwise the payment is listed for the administrators to settle or refund; both answer 200 with the order's status. Every notification is stored with its outcome. Forged or stale → 401; replayed or already paid → 409; unknown transaction or code → 404; amount differing → 400.",
    access: "public",
    rawBody: true,
    input: z.object({}).passthrough(),
    response: notifyAnswer,
    example: { received: true, transactionId: "TX20250820K7M2Q9RZ", status: "paid" },
    errors: {
      400: MSG.notificationAmountMismatch,
      401: MSG.notificationRejected,
      404: MSG.notFound,
      409: [MSG.notificationReplayed, MSG.transactionAlreadyConfirmed],
    },
    handler: async (caller, _input, request) => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers ?? {})) {
        if (name.startsWith("x-smartpit-") && typeof value === "string") headers[name] = value.slice(0, 512);
      }
      const t = await caller.purchase.smartPitNotify({ rawBody: rawBodyOf(request).slice(0, 10_000), headers });
      return { received: true as const, transactionId: t.transactionId, status: t.status };
    },
  }),
];

/**
 * Development only (SMARTPIT_SIMULATOR, never in production): `POST /dev/smartpit/pay`
 * `{ transactionId }` plays SmartPit's side of a store payment: it signs the notification with the
 * stored API key and sends it through the real notify route, so the whole path can be tried by hand.
 * Outside /api on purpose: it is not part of the published API.
 */
export function registerSmartPitSimulator(app: FastifyInstance): void {
  app.post("/dev/smartpit/pay", async (request, reply) => {
    const parsed = z.object({ transactionId: text({ max: 64, required: MSG.badRequest }) }).safeParse(request.body);
    if (!parsed.success) return reply.status(400).send({ message: MSG.badRequest });
    let notification: Awaited<ReturnType<typeof simulateStorePayment>>;
    try {
      notification = await simulateStorePayment(app.deps.db, parsed.data.transactionId);
    } catch (error) {
      if (error instanceof AppError && error.code === "NOT_FOUND")
        return reply.status(404).send({ message: MSG.notFound });
      throw error;
    }
    const answer = await app.inject({
      method: "POST",
      url: "/api/payments/smartpit/notify",
      payload: notification.rawBody,
      headers: notification.headers,
    });
    return reply.status(answer.statusCode).type("application/json").send(answer.body);
  });
}
