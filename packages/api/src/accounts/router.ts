import { consentInput, emailChangeInput, linkTokenInput, noticeSettingInput, withdrawInput } from "@enmusubi/shared";
import { noticeSetting, setNoticeSetting, stopByLink } from "../notices/settings";
import { pointBalance } from "../points/balance";
import { memberProcedure, publicProcedure, router } from "../trpc";
import { acceptTerms, consentState } from "./consent";
import { confirmEmailChange, requestEmailChange } from "./email-change";
import { withdraw, withdrawalPreview } from "./withdraw";

/**
 * The member's own account (decision 0034): consent to the terms, the balance by expiry and 退会
 * (decision 0034); the settings screen's notice-mail setting and its one-click stop link, the
 * e-mail change and its confirmation link (decision 0033). The password changes through
 * profile.update.
 */
export const accountRouter = router({
  /** Whether the member must still accept the terms in force (the member shell asks once). */
  consent: memberProcedure.query(({ ctx }) => consentState(ctx.db, ctx.session.id)),
  acceptTerms: memberProcedure
    .input(consentInput)
    .mutation(({ ctx, input }) => acceptTerms(ctx.db, ctx.session.id, input)),
  /** Purchased and free points, the next expiry and the days points expire on. */
  pointBalance: memberProcedure.query(({ ctx }) => pointBalance(ctx.db, ctx.session.id)),
  /** What 退会 would forfeit now (the confirmation names it). */
  withdrawalPreview: memberProcedure.query(({ ctx }) => withdrawalPreview(ctx.db, ctx.session.id)),
  withdraw: memberProcedure.input(withdrawInput).mutation(async ({ ctx, input }) => {
    const result = await withdraw(ctx, ctx.session.id, input);
    // The member's open live streams end (every instance hears the mailbox channel).
    ctx.mailbox.publish([ctx.session.id]);
    return result;
  }),
  noticeSetting: memberProcedure.query(({ ctx }) => noticeSetting(ctx.db, ctx.session.id)),
  setNoticeSetting: memberProcedure
    .input(noticeSettingInput)
    .mutation(({ ctx, input }) => setNoticeSetting(ctx.db, ctx.session.id, input.enabled)),
  /** The stop link of a notice mail: no login, works once (decision 0033). */
  stopNotice: publicProcedure.input(linkTokenInput).mutation(({ ctx, input }) => stopByLink(ctx, input.token)),
  requestEmailChange: memberProcedure
    .input(emailChangeInput)
    .mutation(({ ctx, input }) => requestEmailChange(ctx, ctx.session.id, input)),
  /** The link mailed to the new address: no login (it may be opened on another device). */
  confirmEmailChange: publicProcedure
    .input(linkTokenInput)
    .mutation(({ ctx, input }) => confirmEmailChange(ctx, input.token)),
});
