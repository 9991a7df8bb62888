import {
  boardEntries,
  boardPostGrams,
  boardPosts,
  boardReactions,
  boardReads,
  type Db,
  prepaidActions,
  users,
} from "@enmusubi/db";
import { BOARD_ENTRY_MINUTES, BOARD_PAGE_SIZE, type BoardPostInput, type boardListInput, MSG } from "@enmusubi/shared";
import { and, asc, count, desc, eq, gt, gte, ilike, inArray, isNull, lt, lte, or, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import { writeAudit } from "../audit/audit-log";
import { AppError } from "../errors";
import { type PublicProfile, selectPublicProfiles, toPublicProfile } from "../members/public-profile";
import { chargeAction, unitCost } from "../points/ledger";
import type { Charge } from "../points/paid-procedure";
import { notBlockedWith } from "../safety/blocks";
import { chooseDrivingGram, keywordGrams, normalizeKeyword } from "./search";

/**
 * The message board 掲示板 (spec §3 Board post, §4 view gating / read / like-dislike toggles,
 * §5 post rules, §6, §9). Members see authors in the public profile shape only; administrators'
 * posts are signed as the operator. Deleted posts, posts of deleted members and posts of members
 * blocked either way never reach a member. Bodies are plain text; clients show them as text.
 */

export const BOARD_VIEW_ACTION = "message_board_view";
export const BOARD_POST_ACTION = "message_board_post";
/**
 * Totals are counted exactly up to this many posts (100 pages), or to the page asked for when
 * deeper; beyond it `totalPosts` is a lower bound (`totalIsLowerBound`). A count of every match
 * of a common keyword among 1,000,000 posts would make each page cost the whole board.
 */
export const BOARD_COUNT_CAP = 1000;
/** People listed per post in the legacy likes / dislikes / readBy arrays: the latest this many. */
export const BOARD_PEOPLE_MAX = 100;

export type Reaction = "like" | "dislike";

export interface BoardPost {
  id: string;
  title: string;
  content: string;
  createdAt: Date;
  /** The member who wrote it (public shape); null for the operator's posts. */
  author: PublicProfile | null;
  /** Written by an administrator: shown as 運営事務局. */
  byOperator: boolean;
  readerCount: number;
  likeCount: number;
  dislikeCount: number;
  myReaction: Reaction | null;
  isRead: boolean;
  isMine: boolean;
}

export interface AdminBoardPost extends Omit<BoardPost, "author"> {
  /** Administrators also see the author's login ID (members never do). */
  author: (PublicProfile & { userID: string }) | null;
  /** The administrator who wrote an operator post. */
  operator: { id: string; name: string | null } | null;
}

export interface BoardPagination {
  currentPage: number;
  totalPages: number;
  totalPosts: number;
  hasNextPage: boolean;
  hasPrevPage: boolean;
  /** true when there are more than `totalPosts` matches (counted up to BOARD_COUNT_CAP). */
  totalIsLowerBound: boolean;
}

export interface BoardPage<P = BoardPost> {
  posts: P[];
  pagination: BoardPagination;
}

// ---- entry window (spec §4 board view gating) ----------------------------------------------

async function openEntry(db: Db, userId: string): Promise<Date | null> {
  const [entry] = await db
    .select({ openUntil: boardEntries.openUntil })
    .from(boardEntries)
    .where(and(eq(boardEntries.userId, userId), gt(boardEntries.openUntil, sql`now()`)));
  return entry?.openUntil ?? null;
}

/** Whether the member may read the board now: free, or inside a paid entry window. */
export async function boardAccess(
  db: Db,
  userId: string,
): Promise<{ open: boolean; openUntil: Date | null; cost: number }> {
  const [cost, openUntil] = [await unitCost(db, BOARD_VIEW_ACTION), await openEntry(db, userId)];
  return { open: cost === 0 || openUntil !== null, openUntil, cost };
}

/** Claims the window when none is open (a conditional upsert: concurrent entries claim it once). */
async function claimWindow(tx: Db, userId: string): Promise<Date | null> {
  const [claimed] = await tx
    .insert(boardEntries)
    .values({ userId, openUntil: sql`now() + make_interval(mins => ${BOARD_ENTRY_MINUTES})` })
    .onConflictDoUpdate({
      target: boardEntries.userId,
      set: { openUntil: sql`excluded.open_until`, enteredAt: sql`now()` },
      setWhere: sql`${boardEntries.openUntil} <= now()`,
    })
    .returning({ openUntil: boardEntries.openUntil });
  return claimed?.openUntil ?? null;
}

/**
 * A paid entry (board.enter, inside the paid-procedure transaction): opens the board for
 * BOARD_ENTRY_MINUTES and charges message_board_view once (a prepaid deduct-points credit first).
 * Entering again while the window is open charges nothing and does not extend it: the window
 * ends BOARD_ENTRY_MINUTES after the paid entry, so a member always knows what a payment bought.
 */
export async function enterBoard(
  tx: Db,
  charge: Charge,
  userId: string,
): Promise<{ openUntil: Date; charged: number; remainingPoints: number }> {
  const claimed = await claimWindow(tx, userId);
  if (claimed) {
    const result = await charge({ quantity: 1 });
    return {
      openUntil: claimed,
      charged: result.available - result.remainingPoints,
      remainingPoints: result.remainingPoints,
    };
  }
  const result = await charge({ quantity: 0 });
  const openUntil = await openEntry(tx, userId);
  if (!openUntil) throw new Error("board entry window vanished inside its transaction");
  return { openUntil, charged: 0, remainingPoints: result.remainingPoints };
}

/**
 * Refuses to show the board (402) unless it is free or an entry window is open. The legacy
 * client's "deduct-points, then list" also works: a prepaid message_board_view credit opens the
 * window here (the credit is used up; no further points are taken).
 */
export async function assertBoardOpen(db: Db, userId: string): Promise<void> {
  const access = await boardAccess(db, userId);
  if (access.open) return;
  await db.transaction(async (tx) => {
    if (!(await claimWindow(tx, userId))) return; // opened meanwhile by a concurrent call
    const [credit] = await tx
      .select({ id: prepaidActions.id })
      .from(prepaidActions)
      .where(
        and(
          eq(prepaidActions.userId, userId),
          eq(prepaidActions.actionName, BOARD_VIEW_ACTION),
          gt(prepaidActions.remaining, 0),
          gt(prepaidActions.expiresAt, sql`now()`),
        ),
      )
      .orderBy(asc(prepaidActions.createdAt))
      .limit(1)
      .for("update");
    if (!credit) {
      const [me] = await tx.select({ points: users.points }).from(users).where(eq(users.id, userId));
      // Thrown inside the transaction: the claimed window is rolled back with it.
      throw new AppError("PAYMENT_REQUIRED", MSG.boardEntryRequired, {
        details: { success: false, required: access.cost, available: me?.points ?? 0 },
      });
    }
    // The credit is locked by this transaction, so the charge consumes it instead of the balance.
    await chargeAction(tx, { userId, actionName: BOARD_VIEW_ACTION, quantity: 1 });
  });
}

// ---- lists -----------------------------------------------------------------------------------

export type BoardListFilters = z.output<typeof boardListInput>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `%`, `_` and `\` stand for themselves in a LIKE pattern. */
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Midnight in Japan of a YYYY-MM-DD day (the dates members pick are Japanese calendar days). */
const japanDayStart = (day: string, plusDays = 0) =>
  new Date(new Date(`${day}T00:00:00+09:00`).getTime() + plusDays * 86_400_000);

interface Found {
  ids: string[];
  total: number;
  totalIsLowerBound: boolean;
  hasNextPage: boolean;
}

const noneFound: Found = { ids: [], total: 0, totalIsLowerBound: false, hasNextPage: false };

/** Where a list looks: conditions on the post and its author, a time range, or one author's posts. */
interface Scope {
  where: SQL | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  authorId?: string | undefined;
}

/** The first chunk a walk reads, and the largest (each next chunk is 4× the last). */
const WALK_FIRST_CHUNK = 64;
const WALK_MAX_CHUNK = 4096;

interface Entry {
  id: string;
  /** The exact timestamp as text (a JS Date would drop the microseconds the keyset compares). */
  at: string;
}

/** The next `size` entries of an ordered source (a gram's posts or all live posts), newest first, after `cursor`. */
function nextChunk(db: Db, gram: string | undefined, scope: Scope, cursor: Entry | undefined, size: number) {
  if (gram !== undefined) {
    const g = boardPostGrams;
    return db
      .select({ id: g.postId, at: sql<string>`${g.createdAt}::text` })
      .from(g)
      .where(
        and(
          eq(g.gram, gram),
          scope.from ? gte(g.createdAt, scope.from) : undefined,
          scope.to ? lt(g.createdAt, scope.to) : undefined,
          cursor ? sql`(${g.createdAt}, ${g.postId}) < (${cursor.at}::timestamptz, ${cursor.id}::uuid)` : undefined,
        ),
      )
      .orderBy(desc(g.createdAt), desc(g.postId))
      .limit(size);
  }
  const p = boardPosts;
  return db
    .select({ id: p.id, at: sql<string>`${p.createdAt}::text` })
    .from(p)
    .where(
      and(
        isNull(p.deletedAt),
        scope.from ? gte(p.createdAt, scope.from) : undefined,
        scope.to ? lt(p.createdAt, scope.to) : undefined,
        cursor ? sql`(${p.createdAt}, ${p.id}) < (${cursor.at}::timestamptz, ${cursor.id}::uuid)` : undefined,
      ),
    )
    .orderBy(desc(p.createdAt), desc(p.id))
    .limit(size);
}

/**
 * The first `need` posts matching `filter`, newest first, read from an ordered index in growing
 * chunks (keyset, never OFFSET) and checked a chunk at a time by primary key. This is the nested
 * loop the planner should pick, written out: with joins and a LIMIT, PGlite and PostgreSQL both
 * misjudge the substring check's selectivity and may sort every match instead (measured with
 * bench:board). The work is about the posts read until `need` matches, whatever the board's size.
 */
async function walk(db: Db, gram: string | undefined, scope: Scope, filter: SQL | undefined, need: number) {
  const found: string[] = [];
  let cursor: Entry | undefined;
  for (let size = WALK_FIRST_CHUNK; ; size = Math.min(size * 4, WALK_MAX_CHUNK)) {
    const chunk = await nextChunk(db, gram, scope, cursor, size);
    if (chunk.length === 0) break;
    // The author's conditions sit in a correlated EXISTS kept as a subplan (OFFSET 0: never turned
    // into a join), so the plan is fixed: the chunk's posts by primary key, then each author by
    // primary key. As a join, both planners started from every author instead.
    const kept = new Set(
      (
        await db
          .select({ id: boardPosts.id })
          .from(boardPosts)
          .where(
            and(
              inArray(
                boardPosts.id,
                chunk.map((c) => c.id),
              ),
              sql`exists (select 1 from ${users} where ${users.id} = ${boardPosts.authorId} and ${filter ?? sql`true`} offset 0)`,
            ),
          )
      ).map((r) => r.id),
    );
    for (const entry of chunk) {
      if (!kept.has(entry.id)) continue;
      found.push(entry.id);
      if (found.length >= need) return found;
    }
    if (chunk.length < size) break;
    cursor = chunk[chunk.length - 1];
  }
  return found;
}

/**
 * One page of posts in `scope` (plus the keyword), newest first, and their count up to
 * BOARD_COUNT_CAP (or the page asked for, when deeper). With a keyword the walk reads the
 * keyword's driving gram in board_post_grams (search.ts); without, the live posts' index. One
 * author's posts are few: they are read in one query by the author index.
 */
async function findPage(db: Db, scope: Scope, keyword: string | undefined, page: number): Promise<Found> {
  const offset = (page - 1) * BOARD_PAGE_SIZE;
  const countLimit = Math.max(BOARD_COUNT_CAP, offset + BOARD_PAGE_SIZE);
  let match: SQL | undefined;
  let gram: string | undefined;
  if (keyword !== undefined) {
    const normalized = await normalizeKeyword(db, keyword);
    const grams = keywordGrams(normalized);
    if (grams.length > 0) {
      match = sql`strpos(${boardPosts.searchText}, ${normalized}) > 0`;
      if (!scope.authorId) {
        const driving = await chooseDrivingGram(db, grams);
        if (driving.posts === 0) return noneFound;
        gram = driving.gram;
      }
    }
  }
  let matches: string[];
  if (scope.authorId) {
    const rows = await db
      .select({ id: boardPosts.id })
      .from(boardPosts)
      .innerJoin(users, eq(users.id, boardPosts.authorId))
      .where(
        and(
          eq(boardPosts.authorId, scope.authorId),
          scope.where,
          match,
          scope.from ? gte(boardPosts.createdAt, scope.from) : undefined,
          scope.to ? lt(boardPosts.createdAt, scope.to) : undefined,
        ),
      )
      .orderBy(desc(boardPosts.createdAt), desc(boardPosts.id))
      .limit(countLimit + 1);
    matches = rows.map((r) => r.id);
  } else {
    matches = await walk(db, gram, scope, and(scope.where, match), countLimit + 1);
  }
  return {
    ids: matches.slice(offset, offset + BOARD_PAGE_SIZE),
    total: Math.min(matches.length, countLimit),
    totalIsLowerBound: matches.length > countLimit,
    hasNextPage: matches.length > offset + BOARD_PAGE_SIZE,
  };
}

function pagination(page: number, found: Found): BoardPagination {
  const totalPages = Math.max(1, Math.ceil(found.total / BOARD_PAGE_SIZE), found.hasNextPage ? page + 1 : page);
  return {
    currentPage: page,
    totalPages,
    totalPosts: found.total,
    hasNextPage: found.hasNextPage,
    hasPrevPage: page > 1,
    totalIsLowerBound: found.totalIsLowerBound,
  };
}

const live = and(isNull(boardPosts.deletedAt), isNull(users.deletedAt));

/** What a member may see: live posts of live authors with no block either way (operator posts too). */
const visibleTo = (viewerId: string) => and(live, notBlockedWith(viewerId, boardPosts.authorId));

/** The board (spec §7 GET /api/board/): gated by the entry window (402), filtered, 10 per page. */
export async function listBoard(db: Db, viewerId: string, input: BoardListFilters): Promise<BoardPage> {
  await assertBoardOpen(db, viewerId);
  const conditions: Array<SQL | undefined> = [visibleTo(viewerId)];
  let authorId: string | undefined;
  if (input.posterUserID) {
    if (UUID.test(input.posterUserID)) authorId = input.posterUserID;
    else {
      // A poster's name, in part (members never see login IDs: decision 0002).
      conditions.push(eq(users.role, "user"), ilike(users.name, `%${likeEscape(input.posterUserID)}%`));
    }
  }
  if (input.excludeSameSex) {
    const [me] = await db.select({ gender: users.gender }).from(users).where(eq(users.id, viewerId));
    if (me) conditions.push(or(eq(users.role, "admin"), eq(users.gender, me.gender === "male" ? "female" : "male")));
  }
  const scope: Scope = {
    where: and(...conditions),
    from: input.startDate ? japanDayStart(input.startDate) : undefined,
    to: input.endDate ? japanDayStart(input.endDate, 1) : undefined,
    authorId,
  };
  const found = await findPage(db, scope, input.keyword, input.page);
  return { posts: await memberViews(db, viewerId, found.ids), pagination: pagination(input.page, found) };
}

/** My own posts, newest first: never gated (they are mine). */
export async function listMyPosts(db: Db, userId: string, page: number): Promise<BoardPage> {
  const found = await findPage(db, { where: live, authorId: userId }, undefined, page);
  return { posts: await memberViews(db, userId, found.ids), pagination: pagination(page, found) };
}

/** Every live post (administrators), optionally one author's by login ID (exact or in part). */
export async function listAdminBoard(
  db: Db,
  input: { page: number; userID?: string | undefined },
): Promise<BoardPage<AdminBoardPost>> {
  const conditions: Array<SQL | undefined> = [live];
  let authorId: string | undefined;
  if (input.userID) {
    // A whole login ID names one account: read its posts by the author index, not the whole board.
    const exact = await db
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.userId}) = lower(${input.userID})`)
      .limit(2);
    if (exact.length === 1) authorId = exact[0]?.id;
    else conditions.push(ilike(users.userId, `%${likeEscape(input.userID)}%`));
  }
  const found = await findPage(db, { where: and(...conditions), authorId }, undefined, input.page);
  return { posts: await adminViews(db, found.ids), pagination: pagination(input.page, found) };
}

// ---- shaping ---------------------------------------------------------------------------------

function selectPostRows(db: Db, ids: string[], viewerId: string | null) {
  const mine = viewerId ?? "00000000-0000-0000-0000-000000000000";
  return db
    .select({
      id: boardPosts.id,
      title: boardPosts.title,
      content: boardPosts.content,
      createdAt: boardPosts.createdAt,
      authorId: boardPosts.authorId,
      authorRole: users.role,
      authorName: users.name,
      authorUserID: users.userId,
      readerCount: sql<number>`(select count(*)::int from ${boardReads} where ${boardReads.postId} = ${boardPosts.id})`,
      likeCount: sql<number>`(select count(*)::int from ${boardReactions} where ${boardReactions.postId} = ${boardPosts.id} and ${boardReactions.kind} = 'like')`,
      dislikeCount: sql<number>`(select count(*)::int from ${boardReactions} where ${boardReactions.postId} = ${boardPosts.id} and ${boardReactions.kind} = 'dislike')`,
      myReaction: sql<Reaction | null>`(select ${boardReactions.kind} from ${boardReactions} where ${boardReactions.postId} = ${boardPosts.id} and ${boardReactions.userId} = ${mine})`,
      isRead: sql<boolean>`exists (select 1 from ${boardReads} where ${boardReads.postId} = ${boardPosts.id} and ${boardReads.userId} = ${mine})`,
    })
    .from(boardPosts)
    .innerJoin(users, eq(users.id, boardPosts.authorId))
    .where(inArray(boardPosts.id, ids))
    .orderBy(desc(boardPosts.createdAt), desc(boardPosts.id));
}

async function profilesOf(db: Db, ids: string[]): Promise<Map<string, PublicProfile>> {
  if (ids.length === 0) return new Map();
  const rows = await selectPublicProfiles(db, inArray(users.id, [...new Set(ids)]));
  return new Map(rows.map((r) => [r.id, toPublicProfile(r)]));
}

/** Posts by id, in the member shape, newest first. */
export async function memberViews(db: Db, viewerId: string, ids: string[]): Promise<BoardPost[]> {
  if (ids.length === 0) return [];
  const rows = await selectPostRows(db, ids, viewerId);
  const authors = await profilesOf(
    db,
    rows.filter((r) => r.authorRole === "user").map((r) => r.authorId),
  );
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    content: r.content,
    createdAt: r.createdAt,
    author: r.authorRole === "user" ? (authors.get(r.authorId) ?? null) : null,
    byOperator: r.authorRole === "admin",
    readerCount: Number(r.readerCount),
    likeCount: Number(r.likeCount),
    dislikeCount: Number(r.dislikeCount),
    myReaction: r.myReaction,
    isRead: Boolean(r.isRead),
    isMine: r.authorId === viewerId,
  }));
}

async function adminViews(db: Db, ids: string[]): Promise<AdminBoardPost[]> {
  if (ids.length === 0) return [];
  const rows = await selectPostRows(db, ids, null);
  const authors = await profilesOf(
    db,
    rows.filter((r) => r.authorRole === "user").map((r) => r.authorId),
  );
  return rows.map((r) => {
    const profile = r.authorRole === "user" ? authors.get(r.authorId) : undefined;
    return {
      id: r.id,
      title: r.title,
      content: r.content,
      createdAt: r.createdAt,
      author: profile ? { ...profile, userID: r.authorUserID } : null,
      byOperator: r.authorRole === "admin",
      operator: r.authorRole === "admin" ? { id: r.authorId, name: r.authorName } : null,
      readerCount: Number(r.readerCount),
      likeCount: Number(r.likeCount),
      dislikeCount: Number(r.dislikeCount),
      myReaction: null,
      isRead: false,
      isMine: false,
    };
  });
}

/**
 * Who liked, disliked and read each post (the legacy likes / dislikes / readBy arrays): public
 * profiles of live members with no block either way with the viewer, the latest BOARD_PEOPLE_MAX
 * of each list. Posts the viewer cannot see are left out.
 */
export async function postPeople(
  db: Db,
  viewerId: string,
  postIds: string[],
): Promise<Record<string, { likes: PublicProfile[]; dislikes: PublicProfile[]; readBy: PublicProfile[] }>> {
  if (postIds.length === 0) return {};
  const visible = await db
    .select({ id: boardPosts.id })
    .from(boardPosts)
    .innerJoin(users, eq(users.id, boardPosts.authorId))
    .where(and(inArray(boardPosts.id, postIds), visibleTo(viewerId)));
  const ids = visible.map((v) => v.id);
  if (ids.length === 0) return {};
  const reactionsOf = (kind: Reaction) => {
    const inner = db
      .select({
        postId: boardReactions.postId,
        userId: boardReactions.userId,
        rank: sql<number>`row_number() over (partition by ${boardReactions.postId} order by ${boardReactions.createdAt} desc, ${boardReactions.userId})`.as(
          "rank",
        ),
      })
      .from(boardReactions)
      .where(
        and(
          inArray(boardReactions.postId, ids),
          eq(boardReactions.kind, kind),
          notBlockedWith(viewerId, boardReactions.userId),
        ),
      )
      .as("ranked");
    return db
      .select({ postId: inner.postId, userId: inner.userId })
      .from(inner)
      .where(lte(inner.rank, BOARD_PEOPLE_MAX))
      .orderBy(inner.postId, inner.rank);
  };
  const readers = () => {
    const inner = db
      .select({
        postId: boardReads.postId,
        userId: boardReads.userId,
        rank: sql<number>`row_number() over (partition by ${boardReads.postId} order by ${boardReads.createdAt} desc, ${boardReads.userId})`.as(
          "rank",
        ),
      })
      .from(boardReads)
      .where(and(inArray(boardReads.postId, ids), notBlockedWith(viewerId, boardReads.userId)))
      .as("ranked");
    return db
      .select({ postId: inner.postId, userId: inner.userId })
      .from(inner)
      .where(lte(inner.rank, BOARD_PEOPLE_MAX))
      .orderBy(inner.postId, inner.rank);
  };
  const likes = await reactionsOf("like");
  const dislikes = await reactionsOf("dislike");
  const reads = await readers();
  const profiles = await profilesOf(
    db,
    [...likes, ...dislikes, ...reads].map((r) => r.userId),
  );
  const out: Record<string, { likes: PublicProfile[]; dislikes: PublicProfile[]; readBy: PublicProfile[] }> = {};
  for (const id of ids) out[id] = { likes: [], dislikes: [], readBy: [] };
  const add = (list: Array<{ postId: string; userId: string }>, key: "likes" | "dislikes" | "readBy") => {
    for (const r of list) {
      const p = profiles.get(r.userId);
      if (p) out[r.postId]?.[key].push(p);
    }
  };
  add(likes, "likes");
  add(dislikes, "dislikes");
  add(reads, "readBy");
  return out;
}

// ---- writes ----------------------------------------------------------------------------------

/** A member posts (inside the paid-procedure transaction: message_board_post charged once). */
export async function createPost(tx: Db, charge: Charge, authorId: string, input: BoardPostInput): Promise<BoardPost> {
  const [post] = await tx
    .insert(boardPosts)
    .values({ authorId, ...input })
    .returning({ id: boardPosts.id });
  if (!post) throw new Error("board post insert returned nothing");
  await charge({ reference: post.id });
  const [view] = await memberViews(tx, authorId, [post.id]);
  if (!view) throw new Error("new board post not found");
  return view;
}

/** An administrator posts as the operator (shown to members as 運営事務局); audited. */
export async function createOperatorPost(db: Db, adminId: string, input: BoardPostInput): Promise<AdminBoardPost> {
  return db.transaction(async (tx) => {
    const [post] = await tx
      .insert(boardPosts)
      .values({ authorId: adminId, ...input })
      .returning({ id: boardPosts.id });
    if (!post) throw new Error("board post insert returned nothing");
    await writeAudit(tx, {
      adminId,
      action: "board.create",
      targetType: "board_post",
      targetId: post.id,
      details: { title: input.title },
    });
    const [view] = await adminViews(tx, [post.id]);
    if (!view) throw new Error("new board post not found");
    return view;
  });
}

/** A member deletes one of their own posts (soft delete); anyone else's, or a deleted one, is NOT_FOUND. */
export async function deleteOwnPost(db: Db, userId: string, postId: string): Promise<{ ok: true }> {
  const deleted = await db
    .update(boardPosts)
    .set({ deletedAt: sql`now()` })
    .where(and(eq(boardPosts.id, postId), eq(boardPosts.authorId, userId), isNull(boardPosts.deletedAt)))
    .returning({ id: boardPosts.id });
  if (deleted.length === 0) throw new AppError("NOT_FOUND", MSG.notFound);
  return { ok: true };
}

/** An administrator deletes any live post (soft delete), audited in the same transaction. */
export async function deleteAnyPost(db: Db, adminId: string, postId: string): Promise<{ ok: true }> {
  return db.transaction(async (tx) => {
    const [post] = await tx
      .update(boardPosts)
      .set({ deletedAt: sql`now()` })
      .where(and(eq(boardPosts.id, postId), isNull(boardPosts.deletedAt)))
      .returning({ id: boardPosts.id, authorId: boardPosts.authorId, title: boardPosts.title });
    if (!post) throw new AppError("NOT_FOUND", MSG.notFound);
    await writeAudit(tx, {
      adminId,
      action: "board.delete",
      targetType: "board_post",
      targetId: post.id,
      details: { authorId: post.authorId, title: post.title },
    });
    return { ok: true as const };
  });
}

/** A post the member may act on (react, read): visible to them, else NOT_FOUND. */
async function assertVisible(db: Db, viewerId: string, postId: string): Promise<void> {
  const [post] = await db
    .select({ id: boardPosts.id })
    .from(boardPosts)
    .innerJoin(users, eq(users.id, boardPosts.authorId))
    .where(and(eq(boardPosts.id, postId), visibleTo(viewerId)));
  if (!post) throw new AppError("NOT_FOUND", MSG.notFound);
}

async function reactionCounts(db: Db, postId: string) {
  const rows = await db
    .select({ kind: boardReactions.kind, n: count() })
    .from(boardReactions)
    .where(eq(boardReactions.postId, postId))
    .groupBy(boardReactions.kind);
  return {
    likes: rows.find((r) => r.kind === "like")?.n ?? 0,
    dislikes: rows.find((r) => r.kind === "dislike")?.n ?? 0,
  };
}

/**
 * Like / dislike as exclusive toggles (spec §4): the same kind again takes it back, the other kind
 * replaces it. One member's toggles on one post run one at a time (a transaction-scoped advisory
 * lock), so a double click never leaves a state neither click asked for; different members never
 * wait for each other.
 */
export async function react(
  db: Db,
  userId: string,
  postId: string,
  kind: Reaction,
): Promise<{ likes: number; dislikes: number; myReaction: Reaction | null }> {
  await assertVisible(db, userId, postId);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`board:${postId}:${userId}`}, 0))`);
    const removed = await tx
      .delete(boardReactions)
      .where(and(eq(boardReactions.postId, postId), eq(boardReactions.userId, userId), eq(boardReactions.kind, kind)))
      .returning({ kind: boardReactions.kind });
    let myReaction: Reaction | null = null;
    if (removed.length === 0) {
      await tx
        .insert(boardReactions)
        .values({ postId, userId, kind })
        .onConflictDoUpdate({
          target: [boardReactions.postId, boardReactions.userId],
          set: { kind, createdAt: sql`now()` },
        });
      myReaction = kind;
    }
    return { ...(await reactionCounts(tx, postId)), myReaction };
  });
}

/** Marks a post read by the member; again changes nothing (spec §4: alreadyRead). */
export async function readPost(
  db: Db,
  userId: string,
  postId: string,
): Promise<{ alreadyRead: boolean; readerCount: number }> {
  await assertVisible(db, userId, postId);
  const inserted = await db
    .insert(boardReads)
    .values({ postId, userId })
    .onConflictDoNothing()
    .returning({ postId: boardReads.postId });
  const [readers] = await db.select({ n: count() }).from(boardReads).where(eq(boardReads.postId, postId));
  return { alreadyRead: inserted.length === 0, readerCount: readers?.n ?? 0 };
}

/** Administrators' tiles: live posts, and the reads, likes and dislikes on them. */
export async function boardStats(
  db: Db,
): Promise<{ totalPosts: number; totalViews: number; totalLikes: number; totalDislikes: number }> {
  const livePost = sql`(select ${boardPosts.id} from ${boardPosts} where ${boardPosts.deletedAt} is null)`;
  const [posts] = await db.select({ n: count() }).from(boardPosts).where(isNull(boardPosts.deletedAt));
  const [views] = await db.select({ n: count() }).from(boardReads).where(sql`${boardReads.postId} in ${livePost}`);
  const reactions = await db
    .select({ kind: boardReactions.kind, n: count() })
    .from(boardReactions)
    .where(sql`${boardReactions.postId} in ${livePost}`)
    .groupBy(boardReactions.kind);
  return {
    totalPosts: posts?.n ?? 0,
    totalViews: views?.n ?? 0,
    totalLikes: reactions.find((r) => r.kind === "like")?.n ?? 0,
    totalDislikes: reactions.find((r) => r.kind === "dislike")?.n ?? 0,
  };
}
