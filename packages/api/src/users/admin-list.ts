import { annualIncomes, type Db, occupations, rowsOf, users } from "@enmusubi/db";
import { type adminUserListInput, type Gender, pageOffset } from "@enmusubi/shared";
import { and, asc, desc, eq, inArray, isNull, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { z } from "zod";
import { anyId } from "../lists/any-id";
import { carriedCount, countingUpTo, LIST_COUNT_CAP } from "../lists/capped-count";
import { likeEscape } from "../lists/like";
import { countLimit, fixedLimit, pageLimit } from "../lists/limit";
import { pagesFor } from "../lists/pages";
import { perDatabaseShape } from "../request-scope";
import { keywordFilter } from "./admin-keyword";
import { toUserView, type UserView, userColumns } from "./user-view";

/**
 * The administrators' user list (spec §2 admin screen 1): searched, counted and paged in the
 * database, so the screen stays fast with 100,000 members (and at 1,000,000, decision 0011).
 */

const GENDER_TERMS: Record<string, Gender> = {
  male: "male",
  m: "male",
  男性: "male",
  男: "male",
  female: "female",
  f: "female",
  女性: "female",
  女: "female",
};

interface Search {
  where: SQL | undefined;
  /** One userID prefix: the matches are listed in userID order (see listUsers). */
  prefix: boolean;
}

function searchCondition(field: "userID" | "gender", search: string): Search {
  if (!search) return { where: undefined, prefix: false };
  if (field === "gender") {
    const gender = GENDER_TERMS[search.toLowerCase()];
    return { where: gender ? eq(users.gender, gender) : sql`false`, prefix: false };
  }
  const ids = [
    ...new Set(
      search
        .split(/[,、，\s]+/)
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  if (ids.length === 0) return { where: undefined, prefix: false };
  if (ids.length === 1) {
    // One ID: a case-insensitive prefix (so an admin finds "ab12…" while typing), which the
    // users_user_id_prefix_idx index answers without reading the table.
    const escaped = likeEscape((ids[0] ?? "").toLowerCase());
    return { where: sql`lower(${users.userId}) like ${`${escaped}%`}`, prefix: true };
  }
  return { where: inArray(users.userId, ids), prefix: false };
}

/**
 * The order of a page. A userID prefix lists its matches by userID (the exact ID first), read in
 * order from users_user_id_prefix_idx (text_pattern_ops, hence the `~<~` byte order): newest
 * first, a broad prefix ("lm00": 100,000 of the oldest members at 1,000,000) had either to walk
 * the newest members until it met its matches or to sort all of them (decision 0011).
 */
function listOrder(prefix: boolean, reversed = false): SQL[] {
  if (prefix) {
    const op = sql.raw(reversed ? "~>~" : "~<~");
    return [sql`lower(${users.userId}) using ${op}`, sql`${users.userId} using ${op}`];
  }
  return reversed ? [asc(users.createdAt), asc(users.id)] : [desc(users.createdAt), desc(users.id)];
}

/**
 * The list counts at most this many matches exactly. Beyond it the total is PostgreSQL's own
 * estimate of the matching rows (the plan's row count from the table statistics), flagged
 * `totalEstimated`: counting 1,000,000 members for the "総ユーザー数" line cost more than the page.
 */
export const USER_COUNT_CAP = 10_000;

/**
 * A row of the list: the user, whether the account is suspended (the row's 利用停止 / 停止解除
 * button) and whether its phone is verified (decision 0048).
 */
export type ListedUser = UserView & { suspended: boolean; phoneVerified: boolean };

/**
 * Live users matching `where`, in the public shape plus their standing: the page answers each
 * row's standing itself, so the screen needs no read per row (a page's 50 batched
 * standing reads passed the server's URL limit and the buttons drew nothing).
 */
function selectListedUsers(db: Db, where?: SQL, counting?: SQLWrapper, matches = carriedCount(counting)) {
  return db
    .select({
      ...userColumns,
      suspendedAt: users.suspendedAt,
      phoneVerifiedAt: users.phoneVerifiedAt,
      // The first page's count carried along its rows (lists/capped-count.ts).
      matches,
    })
    .from(users)
    .leftJoin(occupations, eq(users.occupationId, occupations.id))
    .leftJoin(annualIncomes, eq(users.annualIncomeId, annualIncomes.id))
    .where(and(isNull(users.deletedAt), where))
    .$dynamic();
}

function toListedUser(row: Awaited<ReturnType<typeof selectListedUsers>>[number]): ListedUser {
  // The fresh view, completed in place (no copy per row, decision 0037).
  const listed = toUserView(row) as ListedUser;
  listed.suspended = row.suspendedAt !== null;
  listed.phoneVerified = row.phoneVerifiedAt !== null;
  return listed;
}

export interface UserPage {
  users: ListedUser[];
  /** Every match, or when `totalEstimated` the planner's estimate (never below USER_COUNT_CAP + 1). */
  total: number;
  totalEstimated: boolean;
  /** A keyword's matches stopped at the cap: `total` is a lower bound ("1,000人以上"). */
  totalCapped: boolean;
  /** Every live user (the header's 総ユーザー数), the same rule: exact to USER_COUNT_CAP, then estimated. */
  allUsers: number;
  allUsersEstimated: boolean;
  page: number;
  pageSize: number;
  totalPages: number;
}

/** The planner's row estimate for a query (EXPLAIN, no execution). */
export async function plannedRows(db: Db, query: SQL): Promise<number> {
  const rows = await rowsOf<Record<string, unknown>>(db, sql`explain (format json) ${query}`);
  const raw = rows[0] ? Object.values(rows[0])[0] : undefined;
  const plan = (typeof raw === "string" ? JSON.parse(raw) : raw) as Array<{ Plan?: { "Plan Rows"?: number } }>;
  return Math.round(plan?.[0]?.Plan?.["Plan Rows"] ?? 0);
}

/**
 * What a list input selects: `where` (live users, the field search, the keyword) and how to read
 * it. Shared by the list and the CSV export (admin-export.ts), so both select the same members.
 */
export async function userSelection(db: Db, input: { field: "userID" | "gender"; search: string; q: string }) {
  const { where: search, prefix: fieldPrefix } = searchCondition(input.field, input.search);
  const keyword = await keywordFilter(db, input.q);
  const filter = and(
    search,
    keyword?.where,
    // A few ids, read by primary key: one array parameter (ids the database just answered).
    keyword?.candidates ? anyId(users.id, keyword.candidates) : undefined,
  );
  // A keyword lists newest first (its matches are read from its candidates or along the list's index).
  const prefix = fieldPrefix && !keyword;
  return {
    filter,
    where: and(isNull(users.deletedAt), filter),
    prefix,
    keyword: keyword !== undefined,
    /** A common keyword: its matches are found by walking the list's index newest first. */
    walk: keyword !== undefined && keyword.candidates === undefined,
  };
}

/** Live users, every one: exact up to USER_COUNT_CAP, above it the planner's estimate. */
export async function countAllUsers(db: Db): Promise<{ total: number; estimated: boolean }> {
  const where = isNull(users.deletedAt);
  const [counted] = await countingUpTo(db, users, where, fixedLimit(USER_COUNT_CAP + 1));
  const exact = counted?.total ?? 0;
  if (exact <= USER_COUNT_CAP) return { total: exact, estimated: false };
  return {
    total: Math.max(USER_COUNT_CAP + 1, await plannedRows(db, sql`select 1 from ${users} where ${where}`)),
    estimated: true,
  };
}

/** Every live user, as statement text for planned_rows (no parameters). */
const LIVE_USERS = new PgDialect().sqlToQuery(sql`select 1 from ${users} where ${isNull(users.deletedAt)}`).sql;

/**
 * The whole list's count as its first page carries it: exact up to USER_COUNT_CAP, above it the
 * planner's estimate (never below the cap + 1), in one scalar subquery: the page, its count and
 * the estimate are one round trip (planned_rows, migration 0038; decision 0037).
 */
const wholeListMatches = (db: Db) =>
  sql<number>`(select case when c.n > ${sql.raw(String(USER_COUNT_CAP))}
    then greatest(${sql.raw(String(USER_COUNT_CAP + 1))}, planned_rows(${LIVE_USERS})) else c.n end
    from (${countingUpTo(db, users, isNull(users.deletedAt), countLimit(USER_COUNT_CAP, USER_COUNT_CAP)).getSQL()}) c(n))`.mapWith(
    Number,
  );

/** The first page of every live user, its count (or estimate) riding along: built once per page size. */
const wholeListFirstPageOf = perDatabaseShape(String, (db, pageSize: number) =>
  selectListedUsers(db, undefined, undefined, wholeListMatches(db))
    .orderBy(...listOrder(false))
    .limit(pageLimit(pageSize))
    .prepare("admin_user_list"),
);

export async function listUsers(
  db: Db,
  // Parsed once, by the procedure (adminUserListInput), not again here.
  input: z.output<typeof adminUserListInput>,
  options: { countCap?: number } = {},
): Promise<UserPage> {
  const { filter: search, where, prefix, keyword, walk } = await userSelection(db, input);
  const offset = pageOffset(input.page, input.pageSize);
  // Exact up to the cap (or one page past the page asked for), read through an index and stopped
  // there; above it, the estimate. A keyword's matches are counted to LIST_COUNT_CAP and no
  // further (the planner cannot estimate a substring test): "1,000人以上".
  const cap = Math.max(options.countCap ?? (keyword ? LIST_COUNT_CAP : USER_COUNT_CAP), offset + input.pageSize);
  // A prefix is counted along its index range: unordered, the planner took a sequential scan that
  // stops at the cap, and such a scan of a large table starts where the previous one stopped
  // (synchronized scans), so it sometimes read most of the members before it met the prefix's.
  // A common keyword is counted newest first too, along users_live_created_idx; a rare one among
  // its candidates.
  // Built only when used: the whole list's first page (below) has its own, prepared.
  const counting = () =>
    countingUpTo(
      db,
      users,
      where,
      countLimit(cap, keyword ? LIST_COUNT_CAP : USER_COUNT_CAP),
      prefix || walk ? listOrder(prefix) : [],
    );
  // The first page is never read from the end (below): the count rides along its rows, one
  // statement fewer (decision 0037); a first page without rows has no match to count. The whole list's
  // first page, the screen's usual view, runs a statement prepared once per page size.
  const whole = offset === 0 && !search && options.countCap === undefined;
  const first = whole
    ? await wholeListFirstPageOf(db, input.pageSize).execute()
    : offset === 0
      ? await selectListedUsers(db, search, counting())
          .orderBy(...listOrder(prefix))
          .limit(pageLimit(input.pageSize))
      : undefined;
  // Above the cap, the whole list's first page carried the estimate itself.
  const exact = first ? (first[0]?.matches ?? 0) : ((await counting())[0]?.total ?? 0);
  const totalCapped = keyword && exact > cap;
  const totalEstimated = !keyword && exact > cap;
  const total = totalCapped
    ? cap
    : totalEstimated && !whole
      ? Math.max(cap + 1, await plannedRows(db, sql`select 1 from ${users} where ${where}`))
      : exact;
  // The header tells every member and the matches apart (decision 0036): without a filter they are one.
  const all = search ? await countAllUsers(db) : { total, estimated: totalEstimated };
  // Pages in the second half of an exactly counted list are read from the other end, so its last
  // page skips a few rows instead of nearly all of them (an estimate cannot say where the end is).
  const fromEnd = !totalEstimated && !totalCapped && offset > total / 2;
  const rows =
    first ??
    (fromEnd
      ? (
          await selectListedUsers(db, search)
            .orderBy(...listOrder(prefix, true))
            .limit(Math.max(0, Math.min(input.pageSize, total - offset)))
            .offset(Math.max(0, total - offset - input.pageSize))
        ).reverse()
      : await selectListedUsers(db, search)
          .orderBy(...listOrder(prefix))
          .limit(pageLimit(input.pageSize))
          .offset(offset));
  return {
    users: rows.map(toListedUser),
    total,
    totalEstimated,
    totalCapped,
    allUsers: all.total,
    allUsersEstimated: all.estimated,
    page: input.page,
    pageSize: input.pageSize,
    totalPages: pagesFor(total, totalCapped, input.pageSize),
  };
}
