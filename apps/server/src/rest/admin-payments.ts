import { MSG } from "@enmusubi/shared";
import { z } from "zod";
import { route } from "./adapter";
import { adminListQuery, transactionPath } from "./payment-inputs";
import {
  EXAMPLE_ADMIN_TRANSACTION,
  EXAMPLE_SETTINGS,
  EXAMPLE_TRANSACTION,
  legacySettings,
  legacyTransaction,
  settingsBody,
  toLegacySettings,
  toLegacyTransaction,
} from "./payment-shapes";

/*
 * Legacy rows of spec §7 for the administrators' payments screen over the `adminPayments`
 * procedures: transactions, confirming and cancelling, the payment settings, and the 資金決済法
 * report as CSV. Inputs in payment-inputs.ts, shapes in payment-shapes.ts.
 */

export const adminPaymentRoutes = [
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
];
