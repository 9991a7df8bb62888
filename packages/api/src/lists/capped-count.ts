import type { Db } from "@enmusubi/db";
import { count, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { countLimit } from "./limit";

/**
 * Administrators' lists count at most this many matches (decision 0011): beyond it the screen says
 * "1,000件以上" instead of the database counting 1,000,000 rows for every page.
 */
export const LIST_COUNT_CAP = 1000;

/**
 * How many rows of `table` match `where`, counting no further than `cap` (raised to the end of the
 * page asked for, so that page and the next are always offered). `totalCapped`: there are more,
 * `total` is then a lower bound.
 */
export async function cappedCount(
  db: Db,
  table: PgTable,
  where: SQL | undefined,
  cap = LIST_COUNT_CAP,
): Promise<{ total: number; totalCapped: boolean }> {
  const [row] = await countingUpTo(db, table, where, countLimit(cap, LIST_COUNT_CAP));
  const n = row?.total ?? 0;
  return n > cap ? { total: cap, totalCapped: true } : { total: n, totalCapped: false };
}

/**
 * The statement counting the rows of `table` that match `where`, read in `order`, stopping after
 * `limit` of them (a LIMIT from lists/limit.ts): the count of a capped list.
 */
export function countingUpTo(db: Db, table: PgTable, where: SQL | undefined, limit: number, order: SQL[] = []) {
  return db.select({ total: count() }).from(
    db
      .select({ one: sql`1` })
      .from(table)
      .where(where)
      .orderBy(...order)
      .limit(limit)
      .as("matches"),
  );
}

/**
 * A page's count carried along its rows (decision 0037): `counting` (a one-row count) as an
 * uncorrelated subquery column, which PostgreSQL runs once per statement, so a page and its count
 * are one round trip. Without `counting` the column is null. Read back with `carriedTotal`.
 */
export const carriedCount = (counting?: SQLWrapper) =>
  (counting ? sql<number | null>`(${counting.getSQL()})` : sql<number | null>`null`).mapWith(Number);

/**
 * The count a page's rows carried (`carriedCount` as `matches`); a page past the last match has
 * no row to carry it, so the statement `counting` builds then runs on its own.
 */
export async function carriedTotal(
  rows: ReadonlyArray<{ matches: number | null }>,
  counting: () => PromiseLike<Array<{ total: number }>>,
): Promise<number> {
  return rows[0]?.matches ?? (await counting())[0]?.total ?? 0;
}
