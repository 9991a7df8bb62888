import type { RouterOutputs } from "@enmusubi/api";
import {
  adminBoardListInput,
  BOARD_ENTRY_MINUTES,
  BOARD_LIMIT_MAX,
  BOARD_OFFSET_MAX,
  BOARD_PAGE_SIZE,
  boardContent,
  boardListInput,
  boardTitle,
  instantOf,
  isInstantText,
  japanDayOf,
  MSG,
  uuid,
} from "@enmusubi/shared";
import { z } from "zod";
import { type Caller, route } from "./adapter";
import { queryBoolean, queryNumber } from "./coerce";
import { EXAMPLE_ANNUAL_INCOME, EXAMPLE_OCCUPATION, SCREENING_REFUSALS } from "./examples";
import { legacyPublicProfile, toLegacyPublicProfile } from "./members";
import { INSUFFICIENT_POINTS_EXAMPLE } from "./openapi";
import { asMemberOrOperator } from "./operator";

/**
 * The message board rows of spec §7 (/api/board*) over the `board.*` procedures, plus our own
 * entry rows (GET /api/board/access, POST /api/board/enter) and the administrators' rows
 * (/api/admin/board*). A post is `{ _id, userID, title, content, created_at, readerCount, likes,
 * dislikes, readBy }` (spec §3): the author (`userID`) and the people in likes / dislikes / readBy
 * are public profiles only (never email, points, role, birthday or login ID); each of the three
 * lists holds the latest BOARD_PEOPLE_MAX (100) people, the counts give the totals. An
 * administrator's post is signed `{ _id: "operator", name: "運営事務局" }`.
 */

type MemberPost = RouterOutputs["board"]["list"]["posts"][number] & { status?: "published" | "held" };
type AdminPost = RouterOutputs["adminBoard"]["list"]["posts"][number];
type People = RouterOutputs["board"]["people"];
type Profile = z.input<typeof legacyPublicProfile>;

const operatorAuthor = z.strictObject({
  _id: z.literal("operator"),
  name: z.string(),
  photoLink: z.null(),
  isOperator: z.literal(true),
});
const OPERATOR: z.input<typeof operatorAuthor> = {
  _id: "operator",
  name: MSG.boardOperatorName,
  photoLink: null,
  isOperator: true,
};

const reaction = z.enum(["like", "dislike"]).nullable();

const postFields = {
  _id: z.string(),
  title: z.string(),
  content: z.string().meta({ description: "Plain text; show it as text, never as HTML" }),
  created_at: z.iso.datetime(),
  readerCount: z.number().int().min(0),
  likeCount: z.number().int().min(0),
  dislikeCount: z.number().int().min(0),
  byOperator: z.boolean(),
};

const legacyPost = z.strictObject({
  ...postFields,
  userID: z.union([legacyPublicProfile, operatorAuthor]).nullable().meta({
    description: "The author: a member's public profile, the operator's signature, or null (a member who left)",
  }),
  likes: z.array(legacyPublicProfile).meta({ description: "The latest 100 members who like it (likeCount: all)" }),
  dislikes: z.array(legacyPublicProfile).meta({ description: "The latest 100 who dislike it (dislikeCount: all)" }),
  readBy: z.array(legacyPublicProfile).meta({ description: "The latest 100 readers (readerCount: all)" }),
  myReaction: reaction,
  isRead: z.boolean(),
  isMine: z.boolean(),
  status: z.enum(["published", "held"]).optional().meta({
    description:
      "The caller's own posts only (POST /api/board, /api/board/my-posts): held while a screening rule keeps it for the operator's review (確認中; charged now, published when released, refunded when rejected; decision 0042)",
  }),
});

const adminPost = z.strictObject({
  ...postFields,
  userID: z
    .union([legacyPublicProfile.extend({ userID: z.string() }).strict(), operatorAuthor])
    .nullable()
    .meta({ description: "The author with their login ID, or the operator's signature" }),
  operator: z
    .strictObject({ _id: z.string(), name: z.string().nullable() })
    .nullable()
    .meta({ description: "The administrator who wrote an operator post" }),
});

const pagination = z.strictObject({
  currentPage: z.number().int().min(1),
  limit: z.number().int().min(1).meta({ description: "Posts per page (added field)" }),
  totalPages: z.number().int().min(1),
  totalPosts: z.number().int().min(0),
  hasNextPage: z.boolean(),
  hasPrevPage: z.boolean(),
  totalIsLowerBound: z
    .boolean()
    .meta({ description: "true: more than totalPosts match (totals are counted up to 1,000, or the page asked for)" }),
});

const postPage = z.strictObject({ posts: z.array(legacyPost), pagination });
const adminPage = z.strictObject({ posts: z.array(adminPost), pagination });

function toLegacyPost(p: MemberPost, people: People): z.input<typeof legacyPost> {
  const them = people[p.id] ?? { likes: [], dislikes: [], readBy: [] };
  return {
    _id: p.id,
    userID: p.byOperator ? OPERATOR : p.author ? toLegacyPublicProfile(p.author) : null,
    title: p.title,
    content: p.content,
    created_at: new Date(p.createdAt).toISOString(),
    readerCount: p.readerCount,
    likeCount: p.likeCount,
    dislikeCount: p.dislikeCount,
    byOperator: p.byOperator,
    likes: them.likes.map(toLegacyPublicProfile),
    dislikes: them.dislikes.map(toLegacyPublicProfile),
    readBy: them.readBy.map(toLegacyPublicProfile),
    myReaction: p.myReaction,
    isRead: p.isRead,
    isMine: p.isMine,
    ...(p.status ? { status: p.status } : {}),
  };
}

function toLegacyAdminPost(p: AdminPost): z.input<typeof adminPost> {
  return {
    _id: p.id,
    userID: p.byOperator ? OPERATOR : p.author ? { ...toLegacyPublicProfile(p.author), userID: p.author.userID } : null,
    operator: p.operator ? { _id: p.operator.id, name: p.operator.name } : null,
    title: p.title,
    content: p.content,
    created_at: new Date(p.createdAt).toISOString(),
    readerCount: p.readerCount,
    likeCount: p.likeCount,
    dislikeCount: p.dislikeCount,
    byOperator: p.byOperator,
  };
}

/** Posts with their people (one more call for all of a page's posts). */
async function withPeople(caller: Caller, page: RouterOutputs["board"]["list"]) {
  const people = page.posts.length === 0 ? {} : await caller.board.people({ ids: page.posts.map((p) => p.id) });
  return { posts: page.posts.map((p) => toLegacyPost(p, people)), pagination: page.pagination };
}

// ---- inputs ---------------------------------------------------------------------------------

/** A legacy date may come as an ISO instant; the day is the Japanese day it falls on. */
const dayOf = (v: unknown) => (typeof v === "string" && isInstantText(v.trim()) ? japanDayOf(instantOf(v.trim())) : v);

const page = queryNumber(boardListInput.shape.page).meta({ description: "1-based page (10 posts a page)" });
const optionalText = (description: string) =>
  z.string({ error: MSG.boardSearchBadRequest }).optional().meta({ description });

const listQuery = z
  .object({
    page,
    limit: queryNumber(boardListInput.shape.limit.unwrap().optional()).meta({
      description: `Posts per page, 1–${BOARD_LIMIT_MAX} (default ${BOARD_PAGE_SIZE}, spec §9); page × limit reaches at most the ${BOARD_OFFSET_MAX.toLocaleString("en")}th post`,
    }),
    search: optionalText(
      "Part of the title or the content, 1–50 characters: any substring, Japanese too (「食事」 finds 「東京で食事しませんか」); NFKC, case-insensitive",
    ),
    dateFrom: z.preprocess(
      dayOf,
      optionalText("From this day (YYYY-MM-DD, Japan time; an ISO instant stands for its Japanese day)"),
    ),
    dateTo: z.preprocess(
      dayOf,
      optionalText("Up to and including this day (YYYY-MM-DD, Japan time; an ISO instant stands for its Japanese day)"),
    ),
    userId: optionalText("A poster's _id, or part of a poster's name (at most 50 characters)"),
    excludeSameSex: queryBoolean(boardListInput.shape.excludeSameSex).meta({
      description:
        "true (the default, as GET /api/users/search's): only posts of members of the other gender and the operator's; false: every member's, the caller's own too (decision 0040)",
    }),
  })
  .transform((q, ctx) => {
    const parsed = boardListInput.safeParse({
      page: q.page,
      limit: q.limit,
      keyword: q.search,
      posterUserID: q.userId,
      startDate: q.dateFrom,
      endDate: q.dateTo,
      excludeSameSex: q.excludeSameSex,
    });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) ctx.addIssue({ code: "custom", message: issue.message });
      return z.NEVER;
    }
    return parsed.data;
  });

const pageQuery = z.object({ page });

const postId = z.object({ id: uuid(MSG.notFound).meta({ description: "The post's _id" }) });
const postBody = z.object({
  title: boardTitle.meta({ description: "Trimmed, 1–100 characters" }),
  content: boardContent.meta({ description: "Trimmed, 1–2,000 characters; plain text" }),
});
const adminListQuery = z.object({
  page: queryNumber(adminBoardListInput.shape.page).meta({ description: "1-based page (10 posts a page)" }),
  userID: adminBoardListInput.shape.userID.meta({ description: "An author's login ID, or part of it" }),
});

// ---- examples -------------------------------------------------------------------------------

const EXAMPLE_PROFILE: Profile = {
  _id: "3f6c6a4e-1b2d-4c9e-8a7f-0d1e2f3a4b5c",
  name: "山田花子",
  photoLink: "/uploads/photos/0123456789abcdef0123456789abcdef.jpg",
  gender: "female",
  age: 30,
  address: "東京都",
  occupation: EXAMPLE_OCCUPATION,
  annual_income: EXAMPLE_ANNUAL_INCOME,
  createdAt: "2025-08-20T01:23:45.000Z",
  verified: true,
};
const EXAMPLE_READER: Profile = {
  ...EXAMPLE_PROFILE,
  _id: "9d8c7b6a-5f4e-4d3c-8b2a-19f8e7d6c5b4",
  name: "佐藤太郎",
  gender: "male",
  photoLink: null,
  occupation: null,
  annual_income: null,
};
const EXAMPLE_POST: z.input<typeof legacyPost> = {
  _id: "7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f",
  userID: EXAMPLE_PROFILE,
  title: "週末に食事しませんか",
  content: "東京で食事しませんか。和食が好きです。",
  created_at: "2025-08-21T09:30:00.000Z",
  readerCount: 1,
  likeCount: 1,
  dislikeCount: 0,
  byOperator: false,
  likes: [EXAMPLE_READER],
  dislikes: [],
  readBy: [EXAMPLE_READER],
  myReaction: null,
  isRead: false,
  isMine: false,
};
const EXAMPLE_PAGINATION = {
  limit: BOARD_PAGE_SIZE,
  currentPage: 1,
  totalPages: 1,
  totalPosts: 1,
  hasNextPage: false,
  hasPrevPage: false,
  totalIsLowerBound: false,
};
const EXAMPLE_ADMIN_POST: z.input<typeof adminPost> = {
  _id: EXAMPLE_POST._id,
  userID: { ...EXAMPLE_PROFILE, userID: "k3x9m2pq" },
  operator: null,
  title: EXAMPLE_POST.title,
  content: EXAMPLE_POST.content,
  created_at: EXAMPLE_POST.created_at,
  readerCount: 1,
  likeCount: 1,
  dislikeCount: 0,
  byOperator: false,
};

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

/** Likes, dislikes and reads need the board open as the list does (issue 23): the same 402. */
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
    response: z.strictObject({
      success: z.literal(true),
      likes: z.array(legacyPublicProfile),
      dislikes: z.array(legacyPublicProfile),
      likeCount: z.number().int().min(0),
      dislikeCount: z.number().int().min(0),
      myReaction: reaction,
    }),
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

const done = z.strictObject({ success: z.literal(true), message: z.string() });

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
    input: z.object({
      id: uuid(MSG.notFound).meta({ description: "The member's _id (public profile id)" }),
      page,
    }),
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
