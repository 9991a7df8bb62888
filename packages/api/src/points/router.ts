import { deductPointsInput } from "@enmusubi/shared";
import { memberProcedure, router } from "../trpc";
import { prepayAction } from "./prepaid";

export const pointsRouter = router({
  /**
   * The legacy prepay call: charges cost × quantity now and records the units, so the action that
   * follows consumes them instead of charging twice. Insufficient points → PAYMENT_REQUIRED with
   * the spec's message and `{ required, available }`.
   */
  deduct: memberProcedure
    .input(deductPointsInput)
    .mutation(({ ctx, input }) => prepayAction(ctx.db, { userId: ctx.session.id, ...input })),
});
