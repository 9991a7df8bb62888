import { userBlocks } from "@enmusubi/db";
import { type AnyColumn, type Placeholder, type SQL, sql } from "drizzle-orm";

/**
 * The block rule, in one place for every domain: a member and someone they blocked, or someone
 * who blocked them, do not see each other in member lists (search, favourites, footprints, board)
 * and cannot message each other.
 */

/** An id, or a prepared statement's placeholder for one. */
type Id = string | Placeholder;

/** An SQL condition: `a` and `b` (ids or columns) have a block between them, either way. */
export function blockedBetween(a: Id | AnyColumn | SQL, b: Id | AnyColumn | SQL): SQL {
  return sql`exists (select 1 from ${userBlocks} where (${userBlocks.blockerId} = ${a} and ${userBlocks.blockedId} = ${b}) or (${userBlocks.blockerId} = ${b} and ${userBlocks.blockedId} = ${a}))`;
}

/** A WHERE condition: the member in `userColumn` and `viewerId` have no block either way. */
export function notBlockedWith(viewerId: Id, userColumn: AnyColumn | SQL): SQL {
  return sql`not ${blockedBetween(viewerId, userColumn)}`;
}

/** A key for an ordered pair of members (a batch send's (sender, recipient) pairs). */
export const pairKey = (a: string, b: string) => `${a} ${b}`;
