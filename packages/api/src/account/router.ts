import { emailChangeInput, linkTokenInput, noticeSettingInput } from "@enmusubi/shared";
import { noticeSetting, setNoticeSetting, stopByLink } from "../notices/settings";
import { memberProcedure, publicProcedure, router } from "../trpc";
import { confirmEmailChange, requestEmailChange } from "./email-change";

/**
 * The settings screen's account rows (issue 25): the notice-mail setting and its one-click stop
 * link, the e-mail change and its confirmation link. The password changes through profile.update.
 */
export const accountRouter = router({
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
