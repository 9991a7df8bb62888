import { sql } from "drizzle-orm";

/**
 * LIMIT values written into the statement as literals rather than sent as parameters.
 *
 * Every statement is prepared once per connection (packages/db/src/client.ts). PostgreSQL plans
 * a prepared statement for its parameter values five times, then compares the generic plan's cost
 * with theirs; a `limit $n` it cannot see is costed as a tenth of the rows, so for a capped count
 * or a page of a large table the generic plan always looked dearer and every call was planned
 * again: the profile search cost PostgreSQL 1.8× the CPU of the same SQL with its values written
 * in (pnpm bench:http, decision 0037). As a literal the plan is made once and kept.
 *
 * Only values from a small fixed set may be literals (each distinct text is one more statement
 * prepared on each connection): a page size (at most PAGE_LITERAL_MAX) or a list's usual count
 * cap. Anything else stays a parameter.
 */
const PAGE_LITERAL_MAX = 100;

/** `n` as a literal: only for a value from a fixed set (see above). */
export function fixedLimit(n: number): number {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`not a LIMIT: ${n}`);
  return sql.raw(String(n)) as unknown as number;
}

/** A page size: a literal up to PAGE_LITERAL_MAX (every page size the schemas allow), else a parameter. */
export function pageLimit(n: number): number {
  return Number.isSafeInteger(n) && n >= 0 && n <= PAGE_LITERAL_MAX ? fixedLimit(n) : n;
}

/**
 * The LIMIT of a count that stops one past `cap`: a literal when `cap` is the list's usual cap
 * (`usualCap`, a constant), a parameter when a deep page raised it.
 */
export function countLimit(cap: number, usualCap: number): number {
  return cap === usualCap ? fixedLimit(cap + 1) : cap + 1;
}
