import {
  verificationApproveInput,
  verificationIdInput,
  verificationQueueInput,
  verificationRejectInput,
  verificationSubmitInput,
} from "@enmusubi/shared";
import { adminProcedure, memberProcedure, router } from "../trpc";
import {
  approveVerification,
  idImageOf,
  rejectVerification,
  submitVerification,
  verificationQueue,
  verificationStatus,
} from "./service";

/** A member's own age verification (decision 0006). */
export const verificationRouter = router({
  /** `{ status, rejectReason, submittedAt, verifiedAt }` of the caller. */
  status: memberProcedure.query(({ ctx }) => verificationStatus(ctx.db, ctx.session.id)),
  /** Submit an ID image (data URL or base64); allowed while unverified or rejected, else CONFLICT. */
  submit: memberProcedure
    .input(verificationSubmitInput)
    .mutation(({ ctx, input }) => submitVerification(ctx, ctx.session.id, input.image)),
});

/** Administrators: the review queue, the ID image, approve and reject (audited, mailed). */
export const adminVerificationRouter = router({
  queue: adminProcedure.input(verificationQueueInput).query(({ ctx, input }) => verificationQueue(ctx.db, input)),
  /** The ID image as a data URL (the REST row GET /api/admin/verifications/:id/image serves the bytes). */
  image: adminProcedure.input(verificationIdInput).query(async ({ ctx, input }) => {
    const bytes = await idImageOf(ctx, input.id);
    return { dataUrl: `data:image/jpeg;base64,${bytes.toString("base64")}` };
  }),
  /** `birthday`: read from the ID; required when the member's is unknown, and becomes theirs (decision 0043). */
  approve: adminProcedure.input(verificationApproveInput).mutation(async ({ ctx, input }) => {
    const result = await approveVerification(ctx, ctx.session.id, input.id, input.birthday);
    return { success: true as const, ...result };
  }),
  reject: adminProcedure.input(verificationRejectInput).mutation(async ({ ctx, input }) => {
    const result = await rejectVerification(ctx, ctx.session.id, input.id, input.reason);
    return { success: true as const, ...result };
  }),
});
