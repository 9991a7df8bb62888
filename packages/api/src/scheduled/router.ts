import { scheduledCreateInput, scheduledIdInput, scheduledListInput } from "@enmusubi/shared";
import { adminProcedure, authedProcedure, router } from "../trpc";
import { cancelScheduled, createScheduled, listAdminPending, listScheduled } from "./entries";

/**
 * Scheduled messages, for members and administrators alike: each sees their own; administrators may cancel any administrator's entry.
 * What an entry may be is what its owner may send now (see send.ts); points are charged when
 * it is sent, through messages.send.
 */
export const scheduledRouter = router({
  create: authedProcedure
    .input(scheduledCreateInput)
    .mutation(({ ctx, input }) => createScheduled(ctx, ctx.session, input)),
  list: authedProcedure.input(scheduledListInput).query(({ ctx, input }) => listScheduled(ctx.db, ctx.session, input)),
  cancel: authedProcedure.input(scheduledIdInput).mutation(async ({ ctx, input }) => {
    await cancelScheduled(ctx.db, ctx.session, input.id);
    return { success: true as const };
  }),
  /** Every administrator's pending entries (user management's panel). */
  adminPending: adminProcedure.query(({ ctx }) => listAdminPending(ctx.db)),
});
