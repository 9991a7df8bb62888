import { adminBoardListInput, boardIdInput, boardPostInput } from "@enmusubi/shared";
import { adminProcedure, router } from "../trpc";
import { listAdminBoard } from "./listing";
import { createOperatorPost, deleteAnyPost } from "./posts";
import { boardStats } from "./reactions";

/** Board management (spec §2 admin screen 9): tiles, every post, operator posts, deletion (audited). */
export const adminBoardRouter = router({
  stats: adminProcedure.query(({ ctx }) => boardStats(ctx.db)),
  list: adminProcedure.input(adminBoardListInput).query(({ ctx, input }) => listAdminBoard(ctx.db, input)),
  create: adminProcedure
    .input(boardPostInput)
    .mutation(({ ctx, input }) => createOperatorPost(ctx.db, ctx.session.id, input)),
  delete: adminProcedure
    .input(boardIdInput)
    .mutation(({ ctx, input }) => deleteAnyPost(ctx.db, ctx.session.id, input.id)),
});
