import type { RouterOutputs } from "@enmusubi/api";
import { BOARD_ENTRY_MINUTES, MSG } from "@enmusubi/shared";
import { z } from "zod";
import { type Caller, route } from "./adapter";
import { EXAMPLE_ADMIN_POST, EXAMPLE_PAGINATION, EXAMPLE_POST, EXAMPLE_READER } from "./board-examples";
import { adminListQuery, listQuery, memberPostsQuery, pageQuery, postBody, postId } from "./board-inputs";
import {
  adminPage,
  adminPost,
  done,
  legacyPost,
  OPERATOR,
  postPage,
  reacted,
  toLegacyAdminPost,
  toLegacyPost,
} from "./board-shapes";
import { SCREENING_REFUSALS } from "./examples";
import { toLegacyPublicProfile } from "./members";
import { INSUFFICIENT_POINTS_EXAMPLE } from "./openapi";
import { asMemberOrOperator } from "./operator";

/**
 * The message board rows of spec §7 (/api/board*) over the `board.*` procedures, plus our own
 * entry rows (GET /api/board/access, POST /api/board/enter) and the administrators' rows
 * (/api/admin/board*). Their shapes and the mapping into them are in board-shapes.ts, the query
 * and body schemas (paging included) in board-inputs.ts, the examples in board-examples.ts.
 */

/** Posts with their people (one more call for all of a page's posts). */
async function withPeople(caller: Caller, page: RouterOutputs["board"]["list"]) {
  const people = page.posts.length === 0 ? {} : await caller.board.people({ ids: page.posts.map((p) => p.id) });
  return { posts: page.posts.map((p) => toLegacyPost(p, people)), pagination: page.pagination };
}

const LIST_ERRORS = {
  400: [
    MSG.boardSearchBadRequest,
    MSG.boardKeywordTooLong,
    MSG.boardPosterTooLong,
    MSG.boardDateInvalid,
    MSG.boardDateRangeInvalid,
  ],
  402: MSG.boardEntryRequired,
} as const;

const GATE_DESCRIPTION = `When viewing costs points (message_board_view above 0) the board answers 402 until the member enters: POST /api/board/enter (charged once, then ${BOARD_ENTRY_MINUTES} minutes of free paging and searching), or the legacy POST /api/users/deduct-points with message_board_view, whose credit opens the window here.`;

/** Likes, dislikes and reads need the board open as the list does (decision 0020): the same 402. */
const ACT_GATE_DESCRIPTION = `Needs the board open, as the list does: 402 (the list's answer, with required/available) when viewing costs points and the member has no open entry window (POST /api/board/enter opens one for ${BOARD_ENTRY_MINUTES} minutes). The member's own posts are not gated. A post the member cannot see answers 404 first.`;
const ACT_ERRORS = { 402: MSG.boardEntryRequired, 404: MSG.notFound } as const;

function boardList(path: string) {
  return route({
    method: "GET",
    path,
    summary: "Member: the board, newest first, 10 a page (limit: 1–50), searched and filtered",
    description: `${GATE_DESCRIPTION} Deleted posts, posts of members who left and of members blocked either way are never listed. Unless \`excludeSameSex=false\`, only posts of members of the other gender and the operator's are listed (the caller's own are in GET /api/board/my-posts).`,
    access: "member",
    input: listQuery,
    response: postPage,
    example: { posts: [EXAMPLE_POST], pagination: EXAMPLE_PAGINATION },
    errors: LIST_ERRORS,
    handler: async (caller, input) => withPeople(caller, await caller.board.list(input)),
  });
}

function reactRow(kind: "like" | "dislike") {
  return route({
    method: "PUT",
    path: `/api/board/:id/${kind}`,
    summary:
      kind === "like" ? "Member: like a post (again: take it back)" : "Member: dislike a post (again: take it back)",
    description: `Like and dislike exclude each other: the other one is replaced. Answers the new lists (latest 100 each) and counts. ${ACT_GATE_DESCRIPTION}`,
    access: "member",
    input: postId,
    response: reacted,
    example: {
      success: true,
      likes: kind === "like" ? [EXAMPLE_READER] : [],
      dislikes: kind === "dislike" ? [EXAMPLE_READER] : [],
      likeCount: kind === "like" ? 1 : 0,
      dislikeCount: kind === "dislike" ? 1 : 0,
      myReaction: kind,
    },
    errors: ACT_ERRORS,
    handler: async (caller, input) => {
      const result = await caller.board.react({ id: input.id, kind });
      const people = (await caller.board.people({ ids: [input.id] }))[input.id] ?? { likes: [], dislikes: [] };
      return {
        success: true as const,
        likes: people.likes.map(toLegacyPublicProfile),
        dislikes: people.dislikes.map(toLegacyPublicProfile),
        likeCount: result.likes,
        dislikeCount: result.dislikes,
        myReaction: result.myReaction,
      };
    },
  });
}

export const boardRoutes = [
  boardList("/api/board"),
  boardList("/api/board/"),
  route({
    method: "GET",
    path: "/api/board/access",
    summary: "Member: is the board open to me, until when, and what an entry costs",
    access: "member",
    response: z.strictObject({
      open: z.boolean(),
      openUntil: z.iso.datetime().nullable(),
      cost: z.number().int().min(0),
    }),
    example: { open: true, openUntil: "2025-08-21T10:00:00.000Z", cost: 10 },
    handler: async (caller) => {
      const access = await caller.board.access();
      return { ...access, openUntil: access.openUntil ? new Date(access.openUntil).toISOString() : null };
    },
  }),
  route({
    method: "POST",
    path: "/api/board/enter",
    summary: `Member: enter the board (message_board_view once; ${BOARD_ENTRY_MINUTES} minutes of free paging and searching)`,
    description:
      "Entering again while the window is open charges nothing and does not extend it. A prepaid deduct-points credit is used first. 402 with required/available when short.",
    access: "member",
    response: z.strictObject({
      success: z.literal(true),
      message: z.string(),
      openUntil: z.iso.datetime(),
      charged: z.number().int().min(0),
      remainingPoints: z.number().int().min(0),
    }),
    status: 201,
    example: {
      success: true,
      message: MSG.boardEntered,
      openUntil: "2025-08-21T10:00:00.000Z",
      charged: 10,
      remainingPoints: 90,
    },
    errors: { 402: INSUFFICIENT_POINTS_EXAMPLE },
    handler: async (caller) => {
      const entry = await caller.board.enter();
      return {
        success: true as const,
        message: MSG.boardEntered,
        ...entry,
        openUntil: new Date(entry.openUntil).toISOString(),
      };
    },
  }),
  route({
    method: "GET",
    path: "/api/board/my-posts",
    summary: "Member: my own posts, newest first, 10 a page (never needs an entry)",
    access: "member",
    input: pageQuery,
    response: postPage,
    example: { posts: [{ ...EXAMPLE_POST, isMine: true }], pagination: EXAMPLE_PAGINATION },
    errors: { 400: MSG.boardSearchBadRequest },
    handler: async (caller, input) => withPeople(caller, await caller.board.myPosts({ page: input.page })),
  }),
  route({
    method: "GET",
    path: "/api/board/:id",
    summary: "Member: one member's posts (spec §7 GET /api/board/{userID}: the member's _id), newest first, 10 a page",
    description: `${GATE_DESCRIPTION} An _id that names no visible member answers an empty page. (The parameter is named id like the other rows' of /api/board/…; it is the member's _id.)`,
    access: "member",
    input: memberPostsQuery,
    response: postPage,
    example: { posts: [EXAMPLE_POST], pagination: EXAMPLE_PAGINATION },
    errors: { 400: [MSG.notFound, MSG.boardSearchBadRequest], 402: MSG.boardEntryRequired },
    // The member is named: their posts whatever their gender (decision 0040; the row has no such filter).
    handler: async (caller, input) =>
      withPeople(caller, await caller.board.list({ posterUserID: input.id, page: input.page, excludeSameSex: false })),
  }),
  route({
    method: "POST",
    path: "/api/board",
    summary: "Member: post on the board (message_board_post when it costs more than 0)",
    description: "A prepaid deduct-points credit is used first; 402 with required/available when short.",
    access: "member",
    input: postBody,
    response: z.strictObject({ success: z.literal(true), message: z.string(), post: legacyPost }),
    status: 201,
    example: {
      success: true,
      message: MSG.postCreated,
      post: { ...EXAMPLE_POST, readerCount: 0, likeCount: 0, likes: [], readBy: [], isMine: true },
    },
    errors: {
      400: [
        MSG.postTitleContentRequired,
        MSG.postTitleTooLong,
        MSG.postContentTooLong,
        MSG.textInvalid,
        ...SCREENING_REFUSALS,
      ],
      402: INSUFFICIENT_POINTS_EXAMPLE,
    },
    handler: async (caller, input) => {
      const post = await caller.board.create(input);
      const message = post.status === "held" ? MSG.postHeldForReview : MSG.postCreated;
      return { success: true as const, message, post: toLegacyPost(post, {}) };
    },
  }),
  route({
    method: "DELETE",
    path: "/api/board/:id",
    summary: "Member: delete one of my posts (others' answer 404); administrator: delete any post (audited)",
    description:
      "With an administrator's token this is DELETE /api/admin/board/{id}: any live post, recorded in the audit log.",
    access: "signedIn",
    input: postId,
    response: done,
    example: { success: true, message: MSG.postDeleted },
    errors: { 404: MSG.notFound },
    handler: async (caller, input) => {
      await asMemberOrOperator(
        () => caller.board.delete(input),
        () => caller.adminBoard.delete(input),
      );
      return { success: true as const, message: MSG.postDeleted };
    },
  }),
  route({
    method: "PUT",
    path: "/api/board/:id/read",
    summary: "Member: mark a post read (again: alreadyRead, nothing changes)",
    description: ACT_GATE_DESCRIPTION,
    access: "member",
    input: postId,
    response: z.strictObject({
      success: z.literal(true),
      alreadyRead: z.boolean(),
      readerCount: z.number().int().min(0),
    }),
    example: { success: true, alreadyRead: false, readerCount: 1 },
    errors: ACT_ERRORS,
    handler: async (caller, input) => ({ success: true as const, ...(await caller.board.read(input)) }),
  }),
  reactRow("like"),
  reactRow("dislike"),
  route({
    method: "GET",
    path: "/api/admin/board/stats",
    summary: "Admin: board tiles (live posts, their reads, likes and dislikes)",
    access: "admin",
    response: z.strictObject({
      totalPosts: z.number().int().min(0),
      totalViews: z.number().int().min(0),
      totalLikes: z.number().int().min(0),
      totalDislikes: z.number().int().min(0),
    }),
    example: { totalPosts: 120, totalViews: 3400, totalLikes: 560, totalDislikes: 12 },
    handler: (caller) => caller.adminBoard.stats(),
  }),
  route({
    method: "GET",
    path: "/api/admin/board",
    summary: "Admin: every live post, newest first, 10 a page; userID filters by the author's login ID",
    access: "admin",
    input: adminListQuery,
    response: adminPage,
    example: { posts: [EXAMPLE_ADMIN_POST], pagination: EXAMPLE_PAGINATION },
    errors: { 400: [MSG.boardSearchBadRequest, MSG.boardPosterTooLong] },
    handler: async (caller, input) => {
      const page = await caller.adminBoard.list(input);
      return { posts: page.posts.map(toLegacyAdminPost), pagination: page.pagination };
    },
  }),
  route({
    method: "POST",
    path: "/api/admin/board",
    summary: "Admin: post as the operator (members see 運営事務局; audited)",
    access: "admin",
    input: postBody,
    response: z.strictObject({ success: z.literal(true), message: z.string(), post: adminPost }),
    status: 201,
    example: {
      success: true,
      message: MSG.postCreated,
      post: {
        ...EXAMPLE_ADMIN_POST,
        userID: OPERATOR,
        operator: { _id: "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d", name: "管理者" },
        byOperator: true,
        readerCount: 0,
        likeCount: 0,
      },
    },
    errors: { 400: [MSG.postTitleContentRequired, MSG.postTitleTooLong, MSG.postContentTooLong, MSG.textInvalid] },
    handler: async (caller, input) => ({
      success: true as const,
      message: MSG.postCreated,
      post: toLegacyAdminPost(await caller.adminBoard.create(input)),
    }),
  }),
  route({
    method: "DELETE",
    path: "/api/admin/board/:id",
    summary: "Admin: delete any post (audited)",
    access: "admin",
    input: postId,
    response: done,
    example: { success: true, message: MSG.postDeleted },
    errors: { 404: MSG.notFound },
    handler: async (caller, input) => {
      await caller.adminBoard.delete(input);
      return { success: true as const, message: MSG.postDeleted };
    },
  }),
];
