import { boardPostGrams, boardPosts, type Db, rowsOf, users } from "@enmusubi/db";
import { BOARD_PAGE_SIZE, type boardListInput, type Gender, isUuid, japanDayStart, pageOffset } from "@enmusubi/shared";
import { and, desc, eq, gte, ilike, isNull, lt, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import { likeEscape } from "../lists/like";
import { fixedLimit } from "../lists/limit";
import { pagesFor } from "../lists/pages";
import { chooseDrivingGram, matchesEveryWord, parseKeyword } from "../search/grams";
import { assertBoardOpen } from "./access";
import { heldPostsOf, type OwnPost } from "./held";
import { type AdminBoardPost, BOARD_COUNT_CAP, type BoardPage, type BoardPagination, live, visibleTo } from "./model";
import { adminViews, memberViews } from "./views";

// The lists: the board, my posts, the back-office list.

export type BoardListFilters = z.output<typeof boardListInput>;

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
  /** Only the posts one gender sees by default (`AUDIENCE`): a condition on board_posts alone. */
  audience?: SQL | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  authorId?: string | undefined;
}

/**
 * The posts a viewer of `gender` sees with excludeSameSex (decision 0040): the other gender's and
 * the operator's (author_gender null). Literals, the predicates of the partial indexes
 * board_posts_live_not_{male,female}_created_idx, so the walk of the live posts reads the one that
 * holds exactly these posts.
 */
export const AUDIENCE: Record<Gender, SQL> = {
  male: sql`${boardPosts.authorGender} is distinct from 'male'`,
  female: sql`${boardPosts.authorGender} is distinct from 'female'`,
};

/** The smallest and the largest chunk a walk reads (each next chunk is 4× the last). */
const WALK_MIN_CHUNK = 64;
const WALK_MAX_CHUNK = 4096;

/** Where a walk stopped: the last entry it read (the keyset's next start). */
interface Cursor {
  id: string;
  /** The exact timestamp as text (a JS Date would drop the microseconds the keyset compares). */
  at: string;
}

/**
 * The next `size` entries of an ordered source (a gram's posts or all live posts), newest first,
 * after `cursor`, each with whether it passes `filter`. The author's conditions sit in a
 * correlated EXISTS kept as a subplan (OFFSET 0: never turned into a join), so the plan is fixed:
 * the source's index in order, then each post by primary key (a gram's entry) and its author by
 * primary key, for the rows the LIMIT takes. As a join, both planners started from every author
 * instead. (Exported for the plan test.)
 */
export function nextChunk(
  db: Db,
  gram: string | undefined,
  scope: Scope,
  filter: SQL | undefined,
  cursor: Cursor | undefined,
  size: number,
  usualWalk: boolean,
) {
  // The chunk sizes of a first page's walk are always the same few (lists/limit.ts); a deep page's differ.
  const limit = usualWalk ? fixedLimit(size) : size;
  const author = sql`exists (select 1 from ${users} where ${users.id} = ${boardPosts.authorId} and ${filter ?? sql`true`} offset 0)`;
  if (gram !== undefined) {
    const g = boardPostGrams;
    return db
      .select({
        id: sql<string>`${g.postId}`.as("id"),
        t: sql<Date>`${g.createdAt}`.as("t"),
        // Qualified by hand: drizzle writes a select field's own columns without their table.
        kept: sql<boolean>`exists (select 1 from ${boardPosts} where ${boardPosts}."id" = ${g}."post_id" and ${scope.audience ?? sql`true`} and ${author})`.as(
          "kept",
        ),
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
      .limit(limit);
  }
  const p = boardPosts;
  return db
    .select({
      id: sql<string>`${p.id}`.as("id"),
      t: sql<Date>`${p.createdAt}`.as("t"),
      kept: sql<boolean>`${author}`.as("kept"),
    })
    .from(p)
    .where(
      and(
        isNull(p.deletedAt),
        scope.audience,
        scope.from ? gte(p.createdAt, scope.from) : undefined,
        scope.to ? lt(p.createdAt, scope.to) : undefined,
        cursor ? sql`(${p.createdAt}, ${p.id}) < (${cursor.at}::timestamptz, ${cursor.id}::uuid)` : undefined,
      ),
    )
    .orderBy(desc(p.createdAt), desc(p.id))
    .limit(limit);
}

/** What the database answers of a chunk: the page's kept entries and the chunk's last, with the chunk's figures. */
interface ChunkRow {
  id: string;
  at: string;
  /** A kept entry ranked within the page's window. */
  inPage: boolean;
  keptTotal: number;
  rowTotal: number;
  last: boolean;
}

/**
 * A chunk read, counted and cut in the database: of its `size` entries only the kept ones ranked
 * (lo, hi] among the chunk's kept entries and its last entry (the cursor) come back, each with the
 * chunk's count of kept entries and of rows. Shipping the whole chunk to count it here cost the
 * server 3.4 ms for a page of 10 posts (about a thousand rows, decision 0037).
 */
function readChunk(db: Db, chunk: ReturnType<typeof nextChunk>, lo: number, hi: number): Promise<ChunkRow[]> {
  return rowsOf<ChunkRow>(
    db,
    sql`select x.id, x.at, x.in_page as "inPage", x.kept_total as "keptTotal", x.row_total as "rowTotal", x.rn = x.row_total as "last"
      from (
        select w.*, (w.kept and w.rank > ${lo}::int and w.rank <= ${hi}::int) as in_page
        from (
          select c.id, c.t::text as at, c.kept,
                 (count(*) filter (where c.kept) over (order by c.t desc, c.id desc))::int as rank,
                 (count(*) filter (where c.kept) over ())::int as kept_total,
                 (count(*) over ())::int as row_total,
                 (row_number() over (order by c.t desc, c.id desc))::int as rn
          from (${chunk}) c
        ) w
      ) x
      where x.in_page or x.rn = x.row_total
      order by x.rn`,
  );
}

/**
 * The posts matching `filter`, newest first, counted up to `need`, and the ids of those ranked
 * (from, to] among them: read from an ordered index in growing chunks (keyset, never OFFSET),
 * each chunk read, checked, counted and cut in one statement. This is the nested loop the planner
 * should pick, written out: with joins and a LIMIT, PGlite and PostgreSQL both misjudge the
 * substring check's selectivity and may sort every match instead (measured with bench:board). The
 * first chunk is `need` entries (within the chunk bounds): fewer could never find `need` matches,
 * so it reads nothing a smaller start would not, in one round trip instead of several. The work is
 * about the posts read until `need` matches, whatever the board's size.
 */
async function walk(
  db: Db,
  gram: string | undefined,
  scope: Scope,
  filter: SQL | undefined,
  need: number,
  window: { from: number; to: number },
): Promise<{ ids: string[]; found: number }> {
  const ids: string[] = [];
  let found = 0;
  let cursor: Cursor | undefined;
  for (
    let size = Math.min(Math.max(need, WALK_MIN_CHUNK), WALK_MAX_CHUNK);
    ;
    size = Math.min(size * 4, WALK_MAX_CHUNK)
  ) {
    const chunk = nextChunk(db, gram, scope, filter, cursor, size, need === BOARD_COUNT_CAP + 1);
    const rows = await readChunk(db, chunk, window.from - found, window.to - found);
    const first = rows[0];
    if (!first) break;
    for (const row of rows) if (row.inPage) ids.push(row.id);
    found += first.keptTotal;
    if (found >= need) return { ids, found: need };
    if (first.rowTotal < size) break;
    cursor = rows.find((row) => row.last);
  }
  return { ids, found };
}

/**
 * One page of posts in `scope` (plus the keyword), newest first, and their count up to
 * BOARD_COUNT_CAP (or the page asked for, when deeper). With a keyword the walk reads the
 * keyword's driving gram in board_post_grams (search/grams.ts, decision 0007); without, the live
 * posts' index. One author's posts are few: they are read in one query by the author index.
 */
async function findPage(
  db: Db,
  scope: Scope,
  keyword: string | undefined,
  page: number,
  size = BOARD_PAGE_SIZE,
): Promise<Found> {
  const offset = pageOffset(page, size);
  const countLimit = Math.max(BOARD_COUNT_CAP, offset + size);
  let match: SQL | undefined;
  let gram: string | undefined;
  if (keyword !== undefined) {
    const { words, grams } = await parseKeyword(db, keyword);
    if (grams.length > 0) {
      match = matchesEveryWord(boardPosts.searchText, words);
      if (!scope.authorId) {
        const driving = await chooseDrivingGram(db, grams, boardPostGrams);
        if (driving.posts === 0) return noneFound;
        gram = driving.gram;
      }
    }
  }
  const pageOf = (ids: string[], matched: number): Found => ({
    ids,
    total: Math.min(matched, countLimit),
    totalIsLowerBound: matched > countLimit,
    hasNextPage: matched > offset + size,
  });
  if (!scope.authorId) {
    const walked = await walk(db, gram, scope, and(scope.where, match), countLimit + 1, {
      from: offset,
      to: offset + size,
    });
    return pageOf(walked.ids, walked.found);
  }
  const rows = await db
    .select({ id: boardPosts.id })
    .from(boardPosts)
    .innerJoin(users, eq(users.id, boardPosts.authorId))
    .where(
      and(
        eq(boardPosts.authorId, scope.authorId),
        scope.where,
        scope.audience,
        match,
        scope.from ? gte(boardPosts.createdAt, scope.from) : undefined,
        scope.to ? lt(boardPosts.createdAt, scope.to) : undefined,
      ),
    )
    .orderBy(desc(boardPosts.createdAt), desc(boardPosts.id))
    .limit(countLimit + 1);
  return pageOf(
    rows.slice(offset, offset + size).map((r) => r.id),
    rows.length,
  );
}

function pagination(page: number, found: Found, size = BOARD_PAGE_SIZE): BoardPagination {
  const totalPages = Math.max(pagesFor(found.total, false, size), found.hasNextPage ? page + 1 : page);
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

/**
 * The board (spec §7 GET /api/board/): gated by the entry window (402), filtered, 10 per page. With
 * `excludeSameSex` (the default, as the profile search's) only the other gender's posts and the
 * operator's: a member's own posts are in 自分の投稿 (decision 0040).
 */
export async function listBoard(
  db: Db,
  viewerId: string,
  input: BoardListFilters,
  /** The viewer's gender as the request's session read it (none: read here). */
  viewerGender?: Gender,
): Promise<BoardPage> {
  await assertBoardOpen(db, viewerId);
  const conditions: Array<SQL | undefined> = [visibleTo(viewerId)];
  let authorId: string | undefined;
  if (input.posterUserID) {
    if (isUuid(input.posterUserID)) authorId = input.posterUserID;
    else {
      // A poster's name, in part (members never see login IDs: decision 0002).
      conditions.push(eq(users.role, "user"), ilike(users.name, `%${likeEscape(input.posterUserID)}%`));
    }
  }
  let audience: SQL | undefined;
  if (input.excludeSameSex) {
    const gender =
      viewerGender ?? (await db.select({ gender: users.gender }).from(users).where(eq(users.id, viewerId)))[0]?.gender;
    if (gender) audience = AUDIENCE[gender];
  }
  const scope: Scope = {
    where: and(...conditions),
    audience,
    from: input.startDate ? japanDayStart(input.startDate) : undefined,
    to: input.endDate ? japanDayStart(input.endDate, 1) : undefined,
    authorId,
  };
  const size = input.limit ?? BOARD_PAGE_SIZE;
  const found = await findPage(db, scope, input.keyword, input.page, size);
  return { posts: await memberViews(db, viewerId, found.ids), pagination: pagination(input.page, found, size) };
}

/** My own posts, newest first: never gated (they are mine). */
/**
 * The member's own posts, newest first; the first page starts with those waiting for review
 * (`status: "held"`, decision 0042), which are not counted in the pages.
 */
export async function listMyPosts(db: Db, userId: string, page: number): Promise<BoardPage<OwnPost>> {
  const found = await findPage(db, { where: live, authorId: userId }, undefined, page);
  const published = (await memberViews(db, userId, found.ids)).map((p) => ({ ...p, status: "published" as const }));
  const held = page === 1 ? await heldPostsOf(db, userId) : [];
  return { posts: [...held, ...published], pagination: pagination(page, found) };
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
