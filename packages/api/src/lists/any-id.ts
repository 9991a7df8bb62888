import { type SQL, type SQLWrapper, sql } from "drizzle-orm";

/**
 * `column = any($1::uuid[])`: ids as one array parameter. The statement's text is the same
 * whatever the count (an IN list is one more prepared statement per length, and one parameter per
 * id for drizzle to build and postgres.js to bind on every call: a board page repeated its ten
 * post ids in three lists, decision 0037). Only for ids the database answered or a schema checked as
 * UUIDs: they are written into the array's text form as they are.
 */
export function anyId(column: SQLWrapper, ids: readonly string[]): SQL {
  return sql`${column} = any(${`{${ids.join(",")}}`}::uuid[])`;
}
