import { consentInput, withdrawInput } from "@enmusubi/shared";
import { pointBalance } from "../points/balance";
import { memberProcedure, router } from "../trpc";
import { acceptTerms, consentState } from "./consent";
import { withdraw, withdrawalPreview } from "./withdraw";

/** The member's own account: consent to the terms, the balance by expiry, 退会 (issue 25, decision 0034). */
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
});
