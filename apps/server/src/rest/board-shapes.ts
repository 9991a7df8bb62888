import type { RouterOutputs } from "@enmusubi/api";
import { MSG } from "@enmusubi/shared";
import { z } from "zod";
import { legacyPublicProfile, toLegacyPublicProfile } from "./members";

/**
 * The legacy board shapes of spec §3 and the mapping of the `board.*` and `adminBoard.*`
 * procedures' answers into them. A post is `{ _id, userID, title, content, created_at,
 * readerCount, likes, dislikes, readBy }`: the author (`userID`) and the people in likes /
 * dislikes / readBy are public profiles only (never email, points, role, birthday or login ID);
 * each of the three lists holds the latest BOARD_PEOPLE_MAX (100) people, the counts give the
 * totals. An administrator's post is signed `{ _id: "operator", name: "運営事務局" }`. The query
 * and body schemas are in board-inputs.ts, the examples in board-examples.ts, the routes in board.ts.
 */

type MemberPost = RouterOutputs["board"]["list"]["posts"][number] & { status?: "published" | "held" };
type AdminPost = RouterOutputs["adminBoard"]["list"]["posts"][number];
type People = RouterOutputs["board"]["people"];

const operatorAuthor = z.strictObject({
  _id: z.literal("operator"),
  name: z.string(),
  photoLink: z.null(),
  isOperator: z.literal(true),
});
export const OPERATOR: z.input<typeof operatorAuthor> = {
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

export const legacyPost = z.strictObject({
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

export const adminPost = z.strictObject({
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

/** A like or dislike answered: the new lists (latest 100 each), the counts and the caller's reaction. */
export const reacted = z.strictObject({
  success: z.literal(true),
  likes: z.array(legacyPublicProfile),
  dislikes: z.array(legacyPublicProfile),
  likeCount: z.number().int().min(0),
  dislikeCount: z.number().int().min(0),
  myReaction: reaction,
});

export const done = z.strictObject({ success: z.literal(true), message: z.string() });

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

export const postPage = z.strictObject({ posts: z.array(legacyPost), pagination });
export const adminPage = z.strictObject({ posts: z.array(adminPost), pagination });

export function toLegacyPost(p: MemberPost, people: People): z.input<typeof legacyPost> {
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

export function toLegacyAdminPost(p: AdminPost): z.input<typeof adminPost> {
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
