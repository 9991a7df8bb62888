import { boardIdInput, boardListInput, boardPageInput, boardPostInput, boardReactInput } from "@enmusubi/shared";
import { z } from "zod";
import { paidProcedure } from "../points/paid-procedure";
import { router, verifiedProcedure } from "../trpc";
import { boardAccess, enterBoard } from "./access";
import { listBoard, listMyPosts } from "./listing";
import { BOARD_POST_ACTION, BOARD_VIEW_ACTION } from "./model";
import { createPost, deleteOwnPost } from "./posts";
import { react, readPost } from "./reactions";
import { postPeople } from "./views";

/**
 * The message board for members. Reading and posting on it is one of the four acts of
 * 出会い系サイト規制法 art. 11, so every procedure starts from verifiedProcedure.
 */
export const boardRouter = router({
  /** Whether the board is open to me now, until when, and what an entry costs. */
  access: verifiedProcedure.query(({ ctx }) => boardAccess(ctx.db, ctx.session.id)),
  /** A paid entry: message_board_view once, then BOARD_ENTRY_MINUTES of free paging and searching. */
  enter: paidProcedure(BOARD_VIEW_ACTION, { verified: true }).mutation(({ ctx }) =>
    enterBoard(ctx.db, ctx.charge, ctx.session.id),
  ),
  /** The board, 10 per page newest first, searched; 402 unless free or an entry window is open. */
  list: verifiedProcedure
    .input(boardListInput)
    .query(({ ctx, input }) => listBoard(ctx.db, ctx.session.id, input, ctx.session.gender)),
  myPosts: verifiedProcedure
    .input(boardPageInput.optional())
    .query(({ ctx, input }) => listMyPosts(ctx.db, ctx.session.id, input?.page ?? 1)),
  /** Who liked, disliked and read these posts (latest 100 each; public profiles only). */
  people: verifiedProcedure
    .input(z.object({ ids: z.array(boardIdInput.shape.id).max(50) }))
    .query(({ ctx, input }) => postPeople(ctx.db, ctx.session.id, input.ids)),
  create: paidProcedure(BOARD_POST_ACTION, { verified: true })
    .input(boardPostInput)
    .mutation(async ({ ctx, input }) =>
      createPost(ctx.db, ctx.charge, ctx.session.id, input, await ctx.screening.current(ctx.db)),
    ),
  delete: verifiedProcedure
    .input(boardIdInput)
    .mutation(({ ctx, input }) => deleteOwnPost(ctx.db, ctx.session.id, input.id)),
  react: verifiedProcedure
    .input(boardReactInput)
    .mutation(({ ctx, input }) => react(ctx.db, ctx.session.id, input.id, input.kind)),
  read: verifiedProcedure.input(boardIdInput).mutation(({ ctx, input }) => readPost(ctx.db, ctx.session.id, input.id)),
});
