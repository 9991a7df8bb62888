import { profileReviewIdInput, profileReviewQueueInput, profileReviewRejectInput } from "@enmusubi/shared";
import { adminProcedure, router } from "../trpc";
import { approveProfileReview, rejectProfileReview } from "./decide";
import { profileReviewQueue } from "./queue";

/**
 * Administrators: 「プロフィール審査」, the members' photo and 自己紹介 changes waiting for the review
 * (docs/decisions/0044). Approve or reject once; audited; a rejection is mailed.
 */
export const adminProfileReviewRouter = router({
  queue: adminProcedure
    .input(profileReviewQueueInput)
    .query(({ ctx, input }) => profileReviewQueue(ctx.db, ctx.photoUrls, input)),
  approve: adminProcedure.input(profileReviewIdInput).mutation(async ({ ctx, input }) => {
    const result = await approveProfileReview(ctx, ctx.session.id, input.id);
    return { success: true as const, ...result };
  }),
  reject: adminProcedure.input(profileReviewRejectInput).mutation(async ({ ctx, input }) => {
    const result = await rejectProfileReview(ctx, ctx.session.id, input);
    return { success: true as const, ...result };
  }),
});
