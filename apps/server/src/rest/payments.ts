import { MSG, pageWithinOffset, TRANSACTIONS_PAGE_SIZE } from "@enmusubi/shared";
import { z } from "zod";
import { route } from "./adapter";
import {
  bonusQuoteAnswer,
  bonusQuoteQuery,
  cardBody,
  cardResultAnswer,
  notifyAnswer,
  ORDER_ERRORS,
  pageQuery,
  purchaseBody,
  received,
  signedNotification,
  transactionPath,
} from "./payment-inputs";
import {
  EXAMPLE_CARD_TRANSACTION,
  EXAMPLE_TRANSACTION,
  legacyTransaction,
  memberSettings,
  toLegacyTransaction,
} from "./payment-shapes";

/*
 * Legacy rows of spec §7 for a member's purchases over the `purchase` procedures (SmartPit, bank
 * transfer and the card of decision 0046, with the bonus quote of decision 0047), and the
 * processors' signed notifications. Inputs in payment-inputs.ts, shapes in payment-shapes.ts, the
 * administrators' rows in admin-payments.ts; the development simulators are
 * plugins/smartpit-simulator.ts and plugins/card-simulator.ts.
 */

export const paymentRoutes = [
  route({
    method: "GET",
    path: "/api/purchase/settings",
    summary: "Member: exchange rate, purchase limits, active payment methods and bank details",
    description:
      "SmartPit's merchant id and API key, and the card processor's merchant id and secret, are never answered. A method is active only when switched on and configured completely.",
    access: "member",
    response: memberSettings,
    example: {
      exchangeRate: { yenAmount: 1000, pointAmount: 500, isActive: true },
      limits: { minimum: 1000, maximum: 100000 },
      bankTransfer: null,
      smartPit: { isActive: true },
      card: { isActive: true },
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
        card: { isActive: s.methods.card },
      };
    },
  }),
  route({
    method: "GET",
    path: "/api/purchase/bonus-quote",
    summary: "Member: the bonus points a purchase of this amount by this payment method placed now would be credited",
    description:
      "Decision 0047. The same rule and the same rules the credit uses: the first-purchase bonus (while the member has no completed purchase; an order's is given to the first one paid), the highest amount tier the amount reaches, and the campaign running for the method, added up. An order is credited the bonus of the rules in force when it was placed, whenever its payment arrives. Bonus points are free points, valid `bonusValidityDays` days from the credit. `endsAt` is a campaign's end (orders placed before it count).",
    access: "member",
    input: bonusQuoteQuery,
    response: bonusQuoteAnswer,
    example: {
      amount: 5000,
      paymentMethod: "smart_pit",
      points: 2500,
      bonusPoints: 1050,
      totalPoints: 3550,
      items: [
        { kind: "first_purchase", label: "初回購入ボーナス", points: 300, endsAt: null },
        { kind: "tier", label: "金額別ボーナス（5,000円以上）", points: 250, endsAt: null },
        { kind: "campaign", label: "春の購入キャンペーン", points: 500, endsAt: "2026-03-31T15:00:00.000Z" },
      ],
      firstPurchase: true,
      bonusValidityDays: 180,
    },
    errors: { 400: [MSG.amountInvalid, MSG.paymentMethodInvalid] },
    handler: async (caller, input) => {
      const q = await caller.purchase.bonusQuote(input);
      return {
        ...q,
        items: q.items.map((i) => ({ ...i, endsAt: i.endsAt ? new Date(i.endsAt).toISOString() : null })),
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
    errors: ORDER_ERRORS,
    handler: async (caller, input) => toLegacyTransaction(await caller.purchase.create(input)),
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
    handler: async (caller, _input, request) =>
      received(await caller.purchase.smartPitNotify(signedNotification(request, "x-smartpit-"))),
  }),
  route({
    method: "POST",
    path: "/api/purchase/card",
    summary: "Member: order points by card; answers the processor's payment page to send the member to",
    description:
      "The card payment (decision 0046): the order is made pending at the amount's points (computed on the server from the active rate, within the settings' limits and the bounds of `POST /api/purchase`), and `cardDetails.checkoutUrl` is the processor's hosted payment page (it also runs EMV 3-D Secure) with the order's id, amount, our return and notification URLs and a timestamp, signed with HMAC-SHA256 and the merchant secret. The member's browser goes there; the processor notifies `POST /api/payments/card/notify`, which credits the points at once, and sends the member back to the result page (`GET /api/purchase/card/{id}/result`). Offered only while the card is switched on and configured completely (merchant id, secret, payment page).",
    access: "member",
    input: cardBody,
    response: legacyTransaction,
    example: EXAMPLE_CARD_TRANSACTION,
    status: 201,
    errors: ORDER_ERRORS,
    handler: async (caller, input) =>
      toLegacyTransaction(await caller.purchase.create({ amount: input.amount, paymentMethod: "card" })),
  }),
  route({
    method: "GET",
    path: "/api/purchase/card/:id/result",
    summary: "Member: a card order's result after the payment page, with the balance now",
    description:
      "What the result page shows when the processor sends the member back: the order's status (`paid` once the processor's notification has credited it, `bonusPoints` the purchase bonus credited with it; `pending` while it has not arrived yet, ask again; `failed` when declined or abandoned) and the member's balance. `:id` is the order's reference or `_id`; another member's order, or an order of another method, is 404.",
    access: "member",
    input: transactionPath,
    response: cardResultAnswer,
    example: {
      transactionId: "TX20250820P4W8N2HC",
      status: "paid",
      amount: 3000,
      points: 1500,
      bonusPoints: 300,
      confirmedAt: "2025-08-20T01:25:02.000Z",
      balance: 1920,
    },
    errors: { 404: MSG.notFound },
    handler: async (caller, input) => {
      const r = await caller.purchase.cardResult({ id: input.id });
      return { ...r, confirmedAt: r.confirmedAt ? new Date(r.confirmedAt).toISOString() : null };
    },
  }),
  route({
    method: "POST",
    path: "/api/payments/card/notify",
    summary: "Card processor → us: a payment's result or a refund (signed; no bearer token)",
    description:
      "Headers `X-Card-Signature` (hex HMAC-SHA256, keyed with the merchant secret, of `<timestamp>.<nonce>.<raw body>`), `X-Card-Timestamp` (Unix seconds, ±5 minutes) and `X-Card-Nonce` (each accepted once). Body `{ event, transactionId, paymentId, amount, occurredAt }`, `event` one of `payment.captured`, `payment.failed`, `refund.completed`. Every notification is stored with its outcome (decision 0018). `payment.captured` credits a pending order at once (confirmedVia card) and, when the administrators accept a card payment as the age check, marks the member's first card payer verified; a cancelled or expired order is reinstated and credited, or listed for the administrators when it cannot be; 200 with the order's status. `payment.failed` ends a pending order failed. `refund.completed` takes a paid order's points back through the ledger when they are all still there (status `refunded`); otherwise it is listed for the administrators and nothing is taken. Forged or stale → 401; replayed, already paid, or a refund of an order not paid → 409; unknown order → 404; amount differing → 400.",
    access: "public",
    rawBody: true,
    input: z.object({}).passthrough(),
    response: notifyAnswer,
    example: { received: true, transactionId: "TX20250820P4W8N2HC", status: "paid" },
    errors: {
      400: [MSG.notificationAmountMismatch, MSG.invalidJson],
      401: MSG.notificationRejected,
      404: MSG.notFound,
      409: [MSG.notificationReplayed, MSG.transactionAlreadyConfirmed, MSG.cardRefundNotPaid],
    },
    handler: async (caller, _input, request) =>
      received(await caller.purchase.cardNotify(signedNotification(request, "x-card-"))),
  }),
];
