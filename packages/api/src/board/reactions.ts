import { boardPosts, boardReactions, boardReads, type Db, users } from "@enmusubi/db";
import { MSG } from "@enmusubi/shared";
import { and, count, eq, isNull, sql } from "drizzle-orm";
import { AppError } from "../errors";
import { assertBoardOpen } from "./access";
import { type Reaction, visibleTo } from "./model";

// Reactions, reads and the back-office tiles.

/**
 * A post the member may act on (react, read): visible to them, else NOT_FOUND; then, as for the
 * list, the board must be open to them (free, or an entry window open: 402 boardEntryRequired
 * otherwise, and a prepaid message_board_view credit opens the window as it does for the list).
 * A post id alone never bypasses the window. The member's own posts are not gated, as
 * their own list (board.myPosts) is not. NOT_FOUND comes first, as for every action on an
 * unreachable target: nothing is charged (not even a prepaid credit) for a post one cannot see.
 */
async function assertActionable(db: Db, viewerId: string, postId: string): Promise<void> {
  const [post] = await db
    .select({ authorId: boardPosts.authorId })
    .from(boardPosts)
    .innerJoin(users, eq(users.id, boardPosts.authorId))
    .where(and(eq(boardPosts.id, postId), visibleTo(viewerId)));
  if (!post) throw new AppError("NOT_FOUND", MSG.notFound);
  if (post.authorId !== viewerId) await assertBoardOpen(db, viewerId);
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
  await assertActionable(db, userId, postId);
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
  await assertActionable(db, userId, postId);
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
