import {
  annualIncomes,
  boardEntries,
  boardPostGrams,
  boardPosts,
  boardReactions,
  boardReads,
  type Db,
  occupations,
  prepaidActions,
  users,
} from "@enmusubi/db";
import {
  BOARD_ENTRY_MINUTES,
  BOARD_PAGE_SIZE,
  type BoardPostInput,
  type boardListInput,
  japanDayStart,
  MSG,
} from "@enmusubi/shared";
import { and, asc, count, desc, eq, gt, gte, ilike, inArray, isNull, lt, lte, or, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { z } from "zod";
import { writeAudit } from "../audit/audit-log";
import { AppError } from "../errors";
import { likeEscape } from "../lists/like";
import { type PublicProfile, toPublicProfile } from "../members/public-profile";
import { chargeAction } from "../points/ledger";
import type { Charge } from "../points/paid-procedure";
import { cachedPointCosts } from "../reference/service";
import { notBlockedWith } from "../safety/blocks";
import { referenceColumns } from "../users/user-view";
import { chooseDrivingGram, matchesEveryWord, parseKeyword } from "./search";

/**
 * The message board 掲示板 (spec §3 Board post, §4 view gating / read / like-dislike toggles,
 * §5 post rules, §6, §9). Members see authors in the public profile shape only; administrators'
 * posts are signed as the operator. Deleted posts, posts of deleted or suspended members and posts
 * of members blocked either way never reach a member. Bodies are plain text; clients show them as text.
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
  /** Posts per page. */
  limit: number;
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
  const [cost, openUntil] = [await viewCost(db), await openEntry(db, userId)];
  return { open: cost === 0 || openUntil !== null, openUntil, cost };
}

/**
 * What a board view costs, from this process's copy of the point costs (reference/cache.ts,
 * decision 0012): it only decides whether the board is free or needs a window. A charge reads the
 * cost again inside its own transaction (chargeAction), never this copy.
 */
async function viewCost(db: Db): Promise<number> {
  const cost = (await cachedPointCosts(db)).find((c) => c.actionName === BOARD_VIEW_ACTION);
  if (!cost) throw new AppError("BAD_REQUEST", MSG.unknownAction);
  return cost.pointCost;
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
  const cost = await viewCost(db);
  if (cost === 0 || (await openEntry(db, userId)) !== null) return;
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
        details: { success: false, required: cost, available: me?.points ?? 0 },
      });
    }
    // The credit is locked by this transaction, so the charge consumes it instead of the balance.
    await chargeAction(tx, { userId, actionName: BOARD_VIEW_ACTION, quantity: 1 });
  });
}

// ---- lists -----------------------------------------------------------------------------------

export type BoardListFilters = z.output<typeof boardListInput>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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

/** The smallest and the largest chunk a walk reads (each next chunk is 4× the last). */
const WALK_MIN_CHUNK = 64;
const WALK_MAX_CHUNK = 4096;

interface Entry {
  id: string;
  /** The exact timestamp as text (a JS Date would drop the microseconds the keyset compares). */
  at: string;
  /** Whether the post passes the filter (its author's conditions, the keyword). */
  kept: boolean;
}

/**
 * The next `size` entries of an ordered source (a gram's posts or all live posts), newest first,
 * after `cursor`, each with whether it passes `filter`: one statement per chunk. The author's
 * conditions sit in a correlated EXISTS kept as a subplan (OFFSET 0: never turned into a join), so
 * the plan is fixed: the source's index in order, then each post by primary key (a gram's entry)
 * and its author by primary key, for the rows the LIMIT takes. As a join, both planners started
 * from every author instead.
 */
function nextChunk(
  db: Db,
  gram: string | undefined,
  scope: Scope,
  filter: SQL | undefined,
  cursor: Entry | undefined,
  size: number,
) {
  const author = sql`exists (select 1 from ${users} where ${users.id} = ${boardPosts.authorId} and ${filter ?? sql`true`} offset 0)`;
  if (gram !== undefined) {
    const g = boardPostGrams;
    return db
      .select({
        id: g.postId,
        at: sql<string>`${g.createdAt}::text`,
        // Qualified by hand: drizzle writes a select field's own columns without their table.
        kept: sql<boolean>`exists (select 1 from ${boardPosts} where ${boardPosts}."id" = ${g}."post_id" and ${author})`,
      })
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
    .select({ id: p.id, at: sql<string>`${p.createdAt}::text`, kept: sql<boolean>`${author}` })
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
 * chunks (keyset, never OFFSET), each chunk read and checked in one statement. This is the nested
 * loop the planner should pick, written out: with joins and a LIMIT, PGlite and PostgreSQL both
 * misjudge the substring check's selectivity and may sort every match instead (measured with
 * bench:board). The first chunk is `need` entries (within the chunk bounds): fewer could never
 * find `need` matches, so it reads nothing a smaller start would not, in one round trip instead of
 * several. The work is about the posts read until `need` matches, whatever the board's size.
 */
async function walk(db: Db, gram: string | undefined, scope: Scope, filter: SQL | undefined, need: number) {
  const found: string[] = [];
  let cursor: Entry | undefined;
  for (
    let size = Math.min(Math.max(need, WALK_MIN_CHUNK), WALK_MAX_CHUNK);
    ;
    size = Math.min(size * 4, WALK_MAX_CHUNK)
  ) {
    const chunk = await nextChunk(db, gram, scope, filter, cursor, size);
    for (const entry of chunk) {
      if (!entry.kept) continue;
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
async function findPage(
  db: Db,
  scope: Scope,
  keyword: string | undefined,
  page: number,
  size = BOARD_PAGE_SIZE,
): Promise<Found> {
  const offset = (page - 1) * size;
  const countLimit = Math.max(BOARD_COUNT_CAP, offset + size);
  let match: SQL | undefined;
  let gram: string | undefined;
  if (keyword !== undefined) {
    const { words, grams } = await parseKeyword(db, keyword);
    if (grams.length > 0) {
      match = matchesEveryWord(boardPosts.searchText, words);
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
    ids: matches.slice(offset, offset + size),
    total: Math.min(matches.length, countLimit),
    totalIsLowerBound: matches.length > countLimit,
    hasNextPage: matches.length > offset + size,
  };
}

function pagination(page: number, found: Found, size = BOARD_PAGE_SIZE): BoardPagination {
  const totalPages = Math.max(1, Math.ceil(found.total / size), found.hasNextPage ? page + 1 : page);
  return {
    currentPage: page,
    limit: size,
    totalPages,
    totalPosts: found.total,
    hasNextPage: found.hasNextPage,
    hasPrevPage: page > 1,
    totalIsLowerBound: found.totalIsLowerBound,
  };
}

const live = and(isNull(boardPosts.deletedAt), isNull(users.deletedAt));

/**
 * What a member may see: live posts of live authors who are not suspended, with no block either
 * way (operator posts too). A suspended member's posts leave the board while the suspension lasts
 * (like a deleted member's, for good), so no member reads, likes or answers them; administrators
 * still see them in the back-office list (issue 21).
 */
const visibleTo = (viewerId: string) =>
  and(live, isNull(users.suspendedAt), notBlockedWith(viewerId, boardPosts.authorId));

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
    // The other gender (there are two) than the viewer's, read by the walk's own statement.
    conditions.push(
      or(
        eq(users.role, "admin"),
        sql`${users.gender} <> (select me.gender from ${users} me where me.id = ${viewerId})`,
      ),
    );
  }
  const scope: Scope = {
    where: and(...conditions),
    from: input.startDate ? japanDayStart(input.startDate) : undefined,
    to: input.endDate ? japanDayStart(input.endDate, 1) : undefined,
    authorId,
  };
  const size = input.limit ?? BOARD_PAGE_SIZE;
  const found = await findPage(db, scope, input.keyword, input.page, size);
  return { posts: await memberViews(db, viewerId, found.ids), pagination: pagination(input.page, found, size) };
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

/** Posts by id with their counts and their authors' public profile columns, in one statement. */
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
      authorDeletedAt: users.deletedAt,
      authorName: users.name,
      authorUserID: users.userId,
      authorPhotoLink: users.photoLink,
      authorGender: users.gender,
      authorBirthday: users.birthday,
      authorAddress: users.address,
      authorCreatedAt: users.createdAt,
      ...referenceColumns,
      readerCount: sql<number>`(select count(*)::int from ${boardReads} where ${boardReads.postId} = ${boardPosts.id})`,
      likeCount: sql<number>`(select count(*)::int from ${boardReactions} where ${boardReactions.postId} = ${boardPosts.id} and ${boardReactions.kind} = 'like')`,
      dislikeCount: sql<number>`(select count(*)::int from ${boardReactions} where ${boardReactions.postId} = ${boardPosts.id} and ${boardReactions.kind} = 'dislike')`,
      myReaction: sql<Reaction | null>`(select ${boardReactions.kind} from ${boardReactions} where ${boardReactions.postId} = ${boardPosts.id} and ${boardReactions.userId} = ${mine})`,
      isRead: sql<boolean>`exists (select 1 from ${boardReads} where ${boardReads.postId} = ${boardPosts.id} and ${boardReads.userId} = ${mine})`,
    })
    .from(boardPosts)
    .innerJoin(users, eq(users.id, boardPosts.authorId))
    .leftJoin(occupations, eq(users.occupationId, occupations.id))
    .leftJoin(annualIncomes, eq(users.annualIncomeId, annualIncomes.id))
    .where(inArray(boardPosts.id, ids))
    .orderBy(desc(boardPosts.createdAt), desc(boardPosts.id));
}

type PostRow = Awaited<ReturnType<typeof selectPostRows>>[number];

/** The author in the public shape: live members only (as selectPublicProfiles), never administrators. */
function authorProfile(r: PostRow): PublicProfile | null {
  if (r.authorRole !== "user" || r.authorDeletedAt !== null) return null;
  return toPublicProfile({
    id: r.authorId,
    name: r.authorName,
    photoLink: r.authorPhotoLink,
    gender: r.authorGender,
    birthday: r.authorBirthday,
    address: r.authorAddress,
    occupationId: r.occupationId,
    occupationName: r.occupationName,
    annualIncomeId: r.annualIncomeId,
    annualIncomeLabel: r.annualIncomeLabel,
    createdAt: r.authorCreatedAt,
  });
}

/** Posts by id, in the member shape, newest first. */
export async function memberViews(db: Db, viewerId: string, ids: string[]): Promise<BoardPost[]> {
  if (ids.length === 0) return [];
  const rows = await selectPostRows(db, ids, viewerId);
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    content: r.content,
    createdAt: r.createdAt,
    author: authorProfile(r),
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
  return rows.map((r) => {
    const profile = authorProfile(r);
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
 * of each list. Posts the viewer cannot see are left out. One statement: the visible posts, each
 * list ranked in it, and the people's public profile columns.
 */
export async function postPeople(
  db: Db,
  viewerId: string,
  postIds: string[],
): Promise<Record<string, { likes: PublicProfile[]; dislikes: PublicProfile[]; readBy: PublicProfile[] }>> {
  if (postIds.length === 0) return {};
  const r = boardReactions;
  const reads = boardReads;
  const people = db
    .select({
      postId: r.postId,
      userId: r.userId,
      kind: sql<string>`${r.kind}::text`.as("kind"),
      rank: sql<number>`row_number() over (partition by ${r.postId}, ${r.kind} order by ${r.createdAt} desc, ${r.userId})`.as(
        "rank",
      ),
    })
    .from(r)
    .where(and(inArray(r.postId, postIds), notBlockedWith(viewerId, r.userId)))
    .unionAll(
      db
        .select({
          postId: reads.postId,
          userId: reads.userId,
          kind: sql<string>`'read'`.as("kind"),
          rank: sql<number>`row_number() over (partition by ${reads.postId} order by ${reads.createdAt} desc, ${reads.userId})`.as(
            "rank",
          ),
        })
        .from(reads)
        .where(and(inArray(reads.postId, postIds), notBlockedWith(viewerId, reads.userId))),
    )
    .as("people");
  const person = alias(users, "person");
  const personOccupation = alias(occupations, "person_occupation");
  const personIncome = alias(annualIncomes, "person_income");
  const rows = await db
    .select({
      postId: boardPosts.id,
      kind: people.kind,
      id: person.id,
      name: person.name,
      photoLink: person.photoLink,
      gender: person.gender,
      birthday: person.birthday,
      address: person.address,
      occupationId: personOccupation.id,
      occupationName: personOccupation.name,
      annualIncomeId: personIncome.id,
      annualIncomeLabel: personIncome.label,
      createdAt: person.createdAt,
    })
    .from(boardPosts)
    .innerJoin(users, eq(users.id, boardPosts.authorId))
    .leftJoin(people, and(eq(people.postId, boardPosts.id), lte(people.rank, BOARD_PEOPLE_MAX)))
    // Ranked before this check, as the lists always were: a deleted member among the latest is left out, not replaced.
    .leftJoin(
      person,
      and(eq(person.id, people.userId), isNull(person.deletedAt), isNull(person.suspendedAt), eq(person.role, "user")),
    )
    .leftJoin(personOccupation, eq(person.occupationId, personOccupation.id))
    .leftJoin(personIncome, eq(person.annualIncomeId, personIncome.id))
    .where(and(inArray(boardPosts.id, postIds), visibleTo(viewerId)))
    .orderBy(boardPosts.id, people.kind, people.rank);
  const out: Record<string, { likes: PublicProfile[]; dislikes: PublicProfile[]; readBy: PublicProfile[] }> = {};
  const keys = { like: "likes", dislike: "dislikes", read: "readBy" } as const;
  for (const row of rows) {
    let lists = out[row.postId];
    if (!lists) {
      lists = { likes: [], dislikes: [], readBy: [] };
      out[row.postId] = lists;
    }
    const key = keys[row.kind as keyof typeof keys];
    if (!key || row.id === null || row.gender === null || row.createdAt === null) continue;
    lists[key].push(toPublicProfile({ ...row, id: row.id, gender: row.gender, createdAt: row.createdAt }));
  }
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
