import {
  adminTransactionsInput,
  bankSettingsInput,
  bonusQuoteInput,
  bonusRulesSaveInput,
  campaignCreateInput,
  campaignEndInput,
  cardNotifyInput,
  cardSettingsInput,
  exchangeSettingsInput,
  generalSettingsInput,
  notificationListInput,
  notificationResolveInput,
  purchaseCreateInput,
  purchaseHistoryInput,
  purchaseQuoteInput,
  salesInput,
  settingsPatchInput,
  smartPitNotifyInput,
  smartPitSettingsInput,
  transactionRefInput,
  unusedBalanceReportInput,
} from "@enmusubi/shared";
import { enforceRateLimit, RATE_LIMITS } from "../security/rate-limit";
import { adminProcedure, memberProcedure, publicProcedure, router } from "../trpc";
import { cancelTransaction, confirmTransaction, listTransactions, sales } from "./admin-transactions";
import { adminBonusRules, createCampaign, endCampaign, saveBonusRules } from "./bonus-admin";
import { quoteBonus } from "./bonuses";
import { handleCardNotification } from "./card-notification";
import { listNotifications, resolveNotification } from "./notifications";
import { legalInfo, memberPurchaseSettings, quote } from "./purchase-info";
import { unusedBalanceCsv, unusedBalanceReport } from "./report";
import {
  getAdminSettings,
  saveSettings,
  updateBank,
  updateCard,
  updateExchange,
  updateGeneral,
  updateSmartPit,
} from "./settings";
import { handleSmartPitNotification } from "./smart-pit-notification";
import { cardResult, createPurchase, ownTransaction, purchaseHistory } from "./transactions";

/** Orders a member may place per hour: real buyers place a few; a script cannot fill the admin list. */
export const PURCHASE_RATE_LIMIT = { max: 20, windowMs: 60 * 60_000 };

/** The one source of the figures 特商法, the terms and the purchase screen show. */
export const legalRouter = router({
  info: publicProcedure.query(({ ctx }) => legalInfo(ctx.db, ctx.operator)),
});

export const purchaseRouter = router({
  /** Rate, limits, active methods and bank details; never the SmartPit id or API key. */
  settings: memberProcedure.query(({ ctx }) => memberPurchaseSettings(ctx.db)),
  quote: memberProcedure.input(purchaseQuoteInput).query(({ ctx, input }) => quote(ctx.db, input.amount)),
  /** The bonus a purchase of this amount by this method placed now would be credited (decision 0047). */
  bonusQuote: memberProcedure
    .input(bonusQuoteInput)
    .query(({ ctx, input }) => quoteBonus(ctx.db, ctx.session.id, input)),
  /** Points are computed on the server; any `points` the client sends is ignored. */
  create: memberProcedure.input(purchaseCreateInput).mutation(async ({ ctx, input }) => {
    await enforceRateLimit(ctx.limiter, [[`purchase:user:${ctx.session.id}`, PURCHASE_RATE_LIMIT]]);
    // A card order answers the processor's payment page to send the member to (decision 0046).
    return createPurchase(ctx.db, ctx.session.id, input, { publicUrl: ctx.publicUrl });
  }),
  history: memberProcedure
    .input(purchaseHistoryInput)
    .query(({ ctx, input }) => purchaseHistory(ctx.db, ctx.session.id, input.page, ctx.publicUrl)),
  /**
   * SmartPit's payment notification (public: SmartPit has no account here). Trusted only through its
   * signature over the exact body with the API key; the REST row passes the raw body and headers.
   */
  smartPitNotify: publicProcedure.input(smartPitNotifyInput).mutation(({ ctx, input }) =>
    handleSmartPitNotification(ctx.db, {
      ...input,
      mayRecordForged: () => ctx.limiter.hit(`smartpit-forged:ip:${ctx.ip}`, RATE_LIMITS.forgedNotificationsPerIp),
      // The member's header balance follows, with the notice that the points arrived (decision 0031).
      onCredited: (userId) => ctx.mailbox.publish([userId], "balance"),
    }),
  ),
  /**
   * The card processor's result notification (public: the processor has no account here), trusted
   * only through its signature with the merchant secret over the exact body (decision 0046).
   */
  cardNotify: publicProcedure.input(cardNotifyInput).mutation(({ ctx, input }) =>
    handleCardNotification(ctx.db, {
      ...input,
      mayRecordForged: () => ctx.limiter.hit(`card-forged:ip:${ctx.ip}`, RATE_LIMITS.forgedNotificationsPerIp),
      onCredited: (userId) => ctx.mailbox.publish([userId], "balance"),
    }),
  ),
  /** The result page after the processor's payment page: the member's own card order and balance now. */
  cardResult: memberProcedure
    .input(transactionRefInput)
    .query(({ ctx, input }) => cardResult(ctx.db, ctx.session.id, input.id)),
  /** One of the member's own transactions; another member's is NOT_FOUND. */
  get: memberProcedure
    .input(transactionRefInput)
    .query(({ ctx, input }) => ownTransaction(ctx.db, ctx.session.id, input.id, ctx.publicUrl)),
});

export const adminPaymentsRouter = router({
  list: adminProcedure.input(adminTransactionsInput).query(({ ctx, input }) => listTransactions(ctx.db, input)),
  confirm: adminProcedure
    .input(transactionRefInput)
    .mutation(({ ctx, input }) =>
      confirmTransaction(ctx.db, ctx.session.id, input.id, (userId) => ctx.mailbox.publish([userId], "balance")),
    ),
  cancel: adminProcedure
    .input(transactionRefInput)
    .mutation(({ ctx, input }) => cancelTransaction(ctx.db, ctx.session.id, input.id)),
  sales: adminProcedure.input(salesInput).query(({ ctx, input }) => sales(ctx.db, input)),
  getSettings: adminProcedure.query(({ ctx }) => getAdminSettings(ctx.db)),
  updateExchange: adminProcedure
    .input(exchangeSettingsInput)
    .mutation(({ ctx, input }) => updateExchange(ctx.db, ctx.session.id, input)),
  updateSmartPit: adminProcedure
    .input(smartPitSettingsInput)
    .mutation(({ ctx, input }) => updateSmartPit(ctx.db, ctx.session.id, input)),
  updateBank: adminProcedure
    .input(bankSettingsInput)
    .mutation(({ ctx, input }) => updateBank(ctx.db, ctx.session.id, input)),
  updateCard: adminProcedure
    .input(cardSettingsInput)
    .mutation(({ ctx, input }) => updateCard(ctx.db, ctx.session.id, input)),
  updateGeneral: adminProcedure
    .input(generalSettingsInput)
    .mutation(({ ctx, input }) => updateGeneral(ctx.db, ctx.session.id, input)),
  /** Any sections and fields at once, merged with the stored settings under the row lock (the legacy PUT). */
  saveSettings: adminProcedure
    .input(settingsPatchInput)
    .mutation(({ ctx, input }) => saveSettings(ctx.db, ctx.session.id, input)),
  /** Purchase bonuses (decision 0047): the rules in force, the campaigns, what the preview needs. */
  bonusRules: adminProcedure.query(({ ctx }) => adminBonusRules(ctx.db)),
  /** The first-purchase bonus and the amount tiers from now on (audited). */
  saveBonusRules: adminProcedure
    .input(bonusRulesSaveInput)
    .mutation(({ ctx, input }) => saveBonusRules(ctx.db, ctx.session.id, input)),
  /** A campaign starting now or later, overlapping no campaign of the same method (audited). */
  createCampaign: adminProcedure
    .input(campaignCreateInput)
    .mutation(({ ctx, input }) => createCampaign(ctx.db, ctx.session.id, input)),
  /** A scheduled campaign withdrawn, a running one ended now (audited). */
  endCampaign: adminProcedure
    .input(campaignEndInput)
    .mutation(({ ctx, input }) => endCampaign(ctx.db, ctx.session.id, input.id)),
  /** 資金決済法: paid-for points outstanding at each 3/31 and 9/30, from the lots. */
  unusedBalanceReport: adminProcedure.input(unusedBalanceReportInput).query(({ ctx }) => unusedBalanceReport(ctx.db)),
  /** The same report as CSV (UTF-8 with a BOM, CRLF): the one implementation the REST download serves. */
  unusedBalanceCsv: adminProcedure
    .input(unusedBalanceReportInput)
    .query(async ({ ctx }) => unusedBalanceCsv(await unusedBalanceReport(ctx.db))),
  /** Payment notifications received and what became of each; `open`: money still to settle or refund. */
  notifications: adminProcedure
    .input(notificationListInput)
    .query(({ ctx, input }) => listNotifications(ctx.db, input)),
  /** Money that could not be credited, marked settled or refunded (audited). */
  resolveNotification: adminProcedure
    .input(notificationResolveInput)
    .mutation(({ ctx, input }) => resolveNotification(ctx.db, ctx.session.id, input)),
});
