import { randomUUID } from "node:crypto";
import { boardPosts, type Db } from "@enmusubi/db";
import { type BoardPostInput, MSG } from "@enmusubi/shared";
import { and, eq, isNull, sql } from "drizzle-orm";
import { writeAudit } from "../audit/audit-log";
import { AppError } from "../errors";
import type { Charge } from "../points/charge";
import { holdPost } from "../screening/holds";
import type { RuleSet } from "../screening/matcher";
import { refuseIfRefused, screenFields } from "../screening/screen";
import { heldView } from "./held";
import type { AdminBoardPost, BoardPost } from "./model";
import { adminViews, memberViews } from "./views";

// Writing and deleting posts.

/**
 * A member posts (inside the paid-procedure transaction: message_board_post charged once). The
 * title and content are screened first (decision 0042): refused, nothing is written or charged;
 * masked, the post is published masked; held, it is charged and kept for an administrator
 * (`status: "held"`, not on the board: the author sees it 「確認中」 among their own posts).
 */
export async function createPost(
  tx: Db,
  charge: Charge,
  authorId: string,
  input: BoardPostInput,
  rules: RuleSet,
): Promise<BoardPost & { status: "published" | "held" }> {
  const screened = screenFields(rules, { title: input.title, content: input.content });
  refuseIfRefused(screened, authorId, "board_post");
  if (screened.action === "hold") {
    const id = randomUUID();
    const result = await charge({ reference: id });
    await holdPost(tx, { id, authorId, ...screened.fields, chargedPoints: result.required, ...screened });
    return heldView(tx, authorId, { id, ...screened.fields, createdAt: new Date() });
  }
  const [post] = await tx
    .insert(boardPosts)
    .values({ authorId, ...screened.fields })
    .returning({ id: boardPosts.id });
  if (!post) throw new Error("board post insert returned nothing");
  await charge({ reference: post.id });
  const [view] = await memberViews(tx, authorId, [post.id]);
  if (!view) throw new Error("new board post not found");
  return { ...view, status: "published" };
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
