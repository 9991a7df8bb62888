import {
  blockInput,
  dismissReportInput,
  moderationQueueInput,
  reportIdInput,
  reportInput,
  standingInput,
  suspendInput,
  unsuspendInput,
} from "@enmusubi/shared";
import { adminProcedure, memberProcedure, router } from "../trpc";
import { blockMember, listBlocked, unblockMember } from "./blocking";
import { dismissReport, removeReportedContent, suspendReportedMember } from "./moderation";
import { moderationQueue } from "./moderation-queue";
import { createReport } from "./reports";
import { suspendedAmong, suspendMember, unsuspendMember } from "./suspension";

/** A member's own safety tools: block, unblock, the blocked list, reports. */
export const safetyRouter = router({
  block: memberProcedure
    .input(blockInput)
    .mutation(({ ctx, input }) => blockMember(ctx.db, ctx.session.id, input.userId)),
  unblock: memberProcedure
    .input(blockInput)
    .mutation(({ ctx, input }) => unblockMember(ctx.db, ctx.session.id, input.userId)),
  blocked: memberProcedure.query(({ ctx }) => listBlocked(ctx.db, ctx.session.id)),
  report: memberProcedure.input(reportInput).mutation(({ ctx, input }) => createReport(ctx, ctx.session.id, input)),
});

/** Administrators: the moderation queue and its actions, account suspension. */
export const adminModerationRouter = router({
  queue: adminProcedure.input(moderationQueueInput).query(({ ctx, input }) => moderationQueue(ctx.db, input)),
  dismiss: adminProcedure.input(dismissReportInput).mutation(async ({ ctx, input }) => {
    const result = await dismissReport(ctx, ctx.session.id, input);
    ctx.onMailQueued();
    return result;
  }),
  removeContent: adminProcedure.input(reportIdInput).mutation(async ({ ctx, input }) => {
    const { mailboxes } = await removeReportedContent(ctx, ctx.session.id, input.id);
    ctx.mailbox.publish(mailboxes);
    ctx.onMailQueued();
    return { success: true as const };
  }),
  /** Suspends the member the report is about (closes every open report against them). */
  suspendReported: adminProcedure.input(reportIdInput).mutation(async ({ ctx, input }) => {
    const { suspendedUserId, ...result } = await suspendReportedMember(ctx, ctx.session.id, input.id);
    // Its open live-count streams end (every instance hears the member's mailbox channel).
    ctx.mailbox.publish([suspendedUserId]);
    ctx.onMailQueued();
    return result;
  }),
  /** Suspends an account (user management): no login, its tokens refused at once; audited. */
  suspend: adminProcedure.input(suspendInput).mutation(async ({ ctx, input }) => {
    const result = await suspendMember(ctx, ctx.session.id, input);
    // Its open live-count streams end (every instance hears the member's mailbox channel).
    ctx.mailbox.publish([input.userId]);
    return result;
  }),
  unsuspend: adminProcedure
    .input(unsuspendInput)
    .mutation(({ ctx, input }) => unsuspendMember(ctx, ctx.session.id, input)),
  /** Which of the given accounts are suspended (the user management row menu). */
  standing: adminProcedure.input(standingInput).query(({ ctx, input }) => suspendedAmong(ctx.db, input.userIds)),
});
