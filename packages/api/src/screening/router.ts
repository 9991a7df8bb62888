import {
  screeningQueueInput,
  screeningRejectInput,
  screeningReleaseInput,
  screeningRuleIdInput,
  screeningRuleInput,
  screeningRuleListInput,
  screeningRuleUpdateInput,
} from "@enmusubi/shared";
import { adminProcedure, router } from "../trpc";
import { rejectHold, releaseHold } from "./holds";
import { listHeld } from "./queue";
import { createRule, deleteRule, listRules, updateRule } from "./rules";

/**
 * Administrators: the screening rules (NGワード・検知ルール) and the queue of held messages and
 * posts (投稿・メッセージ確認). Every change is audited (decision 0042).
 */
export const adminScreeningRouter = router({
  rules: adminProcedure.input(screeningRuleListInput).query(({ ctx, input }) => listRules(ctx.db, input)),
  createRule: adminProcedure
    .input(screeningRuleInput)
    .mutation(({ ctx, input }) => createRule(ctx.db, ctx.screening, ctx.session.id, input)),
  updateRule: adminProcedure
    .input(screeningRuleUpdateInput)
    .mutation(({ ctx, input }) => updateRule(ctx.db, ctx.screening, ctx.session.id, input)),
  deleteRule: adminProcedure
    .input(screeningRuleIdInput)
    .mutation(({ ctx, input }) => deleteRule(ctx.db, ctx.screening, ctx.session.id, input.id)),
  queue: adminProcedure.input(screeningQueueInput).query(({ ctx, input }) => listHeld(ctx.db, input)),
  /** Delivers a held message (or publishes a held post) now, once. */
  release: adminProcedure.input(screeningReleaseInput).mutation(async ({ ctx, input }) => {
    const { mailboxes } = await releaseHold(ctx.db, ctx.session.id, input.id);
    ctx.mailbox.publish(mailboxes);
    return { success: true as const };
  }),
  /** Never delivers it; refunds its points through the ledger, once. */
  reject: adminProcedure.input(screeningRejectInput).mutation(async ({ ctx, input }) => {
    const result = await rejectHold(ctx.db, ctx.session.id, input.id, input.reason);
    return { success: true as const, refunded: result.refunded };
  }),
});
