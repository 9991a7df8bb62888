import { type Db, favorites, userBlocks, users } from "@enmusubi/db";
import { MSG } from "@enmusubi/shared";
import { and, desc, eq, inArray } from "drizzle-orm";
import { AppError } from "../errors";
import { type PublicProfile, selectPublicProfiles, toPublicProfile } from "../members/public-profile";

/**
 * Safety (出会い系サイト規制法 art. 12, decision 0009): members block and report (here and in
 * reports.ts); administrators handle reports from a queue (moderation-queue.ts, moderation.ts) and
 * suspend or reinstate accounts (suspension.ts). The block rule every list applies is blocks.ts.
 */

/** The blocked list shows this many at most (the newest). */
export const BLOCK_LIST_MAX = 500;

// ---- blocking ------------------------------------------------------------------------------

/** The account `otherId` as a member may address it for a block: self and administrators refused. */
async function blockTarget(db: Db, memberId: string, otherId: string) {
  if (otherId === memberId) throw new AppError("BAD_REQUEST", MSG.blockSelf);
  const [other] = await db
    .select({ id: users.id, role: users.role, deletedAt: users.deletedAt })
    .from(users)
    .where(eq(users.id, otherId));
  if (other?.role === "admin") throw new AppError("BAD_REQUEST", MSG.blockAdmin);
  return other;
}

/**
 * Blocks a member; blocking again changes nothing. The blocker's favourite of that member is
 * removed in the same transaction (a block ends the contact; unblocking does not bring it back).
 * Unknown or deleted members are NOT_FOUND.
 */
export async function blockMember(db: Db, blockerId: string, blockedId: string): Promise<{ success: true }> {
  return db.transaction(async (tx) => {
    const other = await blockTarget(tx, blockerId, blockedId);
    if (!other || other.deletedAt) throw new AppError("NOT_FOUND", MSG.notFound);
    await tx.insert(userBlocks).values({ blockerId, blockedId }).onConflictDoNothing();
    await tx.delete(favorites).where(and(eq(favorites.userId, blockerId), eq(favorites.favoriteUserId, blockedId)));
    return { success: true as const };
  });
}

/** Lifts a block; lifting one that is not there changes nothing (a deleted member's block too). */
export async function unblockMember(db: Db, blockerId: string, blockedId: string): Promise<{ success: true }> {
  await blockTarget(db, blockerId, blockedId);
  await db.delete(userBlocks).where(and(eq(userBlocks.blockerId, blockerId), eq(userBlocks.blockedId, blockedId)));
  return { success: true };
}

/** The members I blocked (live ones, public shape), most recent block first. */
export async function listBlocked(db: Db, blockerId: string): Promise<Array<PublicProfile & { blockedAt: Date }>> {
  const blocks = await db
    .select({ id: userBlocks.blockedId, blockedAt: userBlocks.createdAt })
    .from(userBlocks)
    .where(eq(userBlocks.blockerId, blockerId))
    .orderBy(desc(userBlocks.createdAt), desc(userBlocks.blockedId))
    .limit(BLOCK_LIST_MAX);
  if (blocks.length === 0) return [];
  const profiles = new Map(
    // A suspended member I blocked stays on my list (I may still lift the block).
    (
      await selectPublicProfiles(
        db,
        inArray(
          users.id,
          blocks.map((b) => b.id),
        ),
        { includeSuspended: true },
      )
    ).map((p) => [p.id, toPublicProfile(p)]),
  );
  return blocks.flatMap((b) => {
    const profile = profiles.get(b.id);
    return profile ? [{ ...profile, blockedAt: b.blockedAt }] : [];
  });
}
