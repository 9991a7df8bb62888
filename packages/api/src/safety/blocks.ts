import { type Db, userBlocks } from "@enmusubi/db";
import { MSG } from "@enmusubi/shared";
import { type AnyColumn, and, eq, inArray, or, type SQL, sql } from "drizzle-orm";
import { AppError } from "../errors";

/**
 * The block rule, in one place for every domain: a member and someone they blocked, or someone
 * who blocked them, do not see each other in member lists (search, favourites, footprints, board)
 * and cannot message each other.
 */

/** A WHERE condition: the member in `userColumn` and `viewerId` have no block either way. */
export function notBlockedWith(viewerId: string, userColumn: AnyColumn | SQL): SQL {
  return sql`not exists (select 1 from ${userBlocks} where (${userBlocks.blockerId} = ${viewerId} and ${userBlocks.blockedId} = ${userColumn}) or (${userBlocks.blockerId} = ${userColumn} and ${userBlocks.blockedId} = ${viewerId}))`;
}

/** Whether either member has blocked the other. */
export async function isBlockedEitherWay(db: Db, a: string, b: string): Promise<boolean> {
  const [row] = await db
    .select({ blockerId: userBlocks.blockerId })
    .from(userBlocks)
    .where(
      or(
        and(eq(userBlocks.blockerId, a), eq(userBlocks.blockedId, b)),
        and(eq(userBlocks.blockerId, b), eq(userBlocks.blockedId, a)),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/** Refuses an exchange between two members when either has blocked the other (FORBIDDEN). */
export async function assertNotBlocked(db: Db, a: string, b: string): Promise<void> {
  if (await isBlockedEitherWay(db, a, b)) throw new AppError("FORBIDDEN", MSG.blockedEitherWay);
}

/** Whether `userId` and any of `otherIds` have a block either way (a batch send checks all at once). */
export async function isBlockedWithAny(db: Db, userId: string, otherIds: string[]): Promise<boolean> {
  if (otherIds.length === 0) return false;
  const [row] = await db
    .select({ blockerId: userBlocks.blockerId })
    .from(userBlocks)
    .where(
      or(
        and(eq(userBlocks.blockerId, userId), inArray(userBlocks.blockedId, otherIds)),
        and(inArray(userBlocks.blockerId, otherIds), eq(userBlocks.blockedId, userId)),
      ),
    )
    .limit(1);
  return Boolean(row);
}
