import { boardPosts, type Db, messages, pointLedger, type ScreeningMatchRecord, screeningHolds } from "@enmusubi/db";
import { MSG, type ScreeningCategory } from "@enmusubi/shared";
import { and, asc, eq, sql } from "drizzle-orm";
import { writeAudit } from "../audit/audit-log";
import { AppError } from "../errors";
import { changeBalance } from "../points/ledger";
import { recordHold } from "./screen";

/*
 * Items a `hold` rule kept back (docs/decisions/0042). A held message or post lives in
 * screening_holds only, so no reader of messages or board_posts can see it; it was charged like
 * any send, in the same transaction (the price shown is the price charged). An administrator
 * releases it — it is then written where it belongs, as a send at that moment, exactly once — or
 * rejects it: it is never delivered and its points come back through the ledger (kind refund,
 * to the lots its charge took them from), once.
 */

/** A message held for one recipient: what `sendAsMember` writes instead of the message. */
export interface HeldMessage {
  id: string;
  recipientId: string;
  /** Points its charge took for this recipient (0 when the recipient is an administrator). */
  chargedPoints: number;
}

/** Writes the holds of one member's send (one per recipient), in the send's transaction, with the hold's event. */
export async function holdMessages(
  tx: Db,
  send: {
    authorId: string;
    body: string;
    replyToId?: string | undefined;
    held: HeldMessage[];
    chargeReference: string;
    matches: ScreeningMatchRecord[];
    category: ScreeningCategory | null;
  },
): Promise<void> {
  await tx.insert(screeningHolds).values(
    send.held.map((h) => ({
      id: h.id,
      kind: "message" as const,
      authorId: send.authorId,
      recipientId: h.recipientId,
      replyToId: send.replyToId ?? null,
      body: send.body,
      matches: send.matches,
      chargedPoints: h.chargedPoints,
      chargeReference: send.chargeReference,
    })),
  );
  await recordHold(tx, send.authorId, send.category, "message");
}

/** Writes a held board post, in the post's transaction, with the hold's event. */
export async function holdPost(
  tx: Db,
  post: {
    id: string;
    authorId: string;
    title: string;
    content: string;
    chargedPoints: number;
    matches: ScreeningMatchRecord[];
    category: ScreeningCategory | null;
  },
): Promise<void> {
  await tx.insert(screeningHolds).values({
    id: post.id,
    kind: "board_post",
    authorId: post.authorId,
    title: post.title,
    body: post.content,
    matches: post.matches,
    chargedPoints: post.chargedPoints,
    chargeReference: post.id,
  });
  await recordHold(tx, post.authorId, post.category, "board_post");
}

/** A held item, locked for its decision; refused when it is unknown (NOT_FOUND) or decided already (CONFLICT). */
async function lockHeld(tx: Db, id: string) {
  const [row] = await tx.select().from(screeningHolds).where(eq(screeningHolds.id, id)).for("update");
  if (!row) throw new AppError("NOT_FOUND", MSG.notFound);
  if (row.status !== "held") throw new AppError("CONFLICT", MSG.screeningAlreadyDecided);
  return row;
}

/**
 * An administrator releases a held item: the message is delivered (or the post published) now,
 * masked as it was held, once — a second release, or one racing a rejection, is refused by the
 * row lock and the status. Audited. Answers the members whose mailboxes changed.
 */
export async function releaseHold(db: Db, adminId: string, id: string): Promise<{ ok: true; mailboxes: string[] }> {
  return db.transaction(async (tx) => {
    const row = await lockHeld(tx, id);
    let releasedId: string;
    let mailboxes: string[] = [];
    if (row.kind === "message") {
      const recipientId = row.recipientId as string;
      const [message] = await tx
        .insert(messages)
        .values({ fromUserId: row.authorId, toUserId: recipientId, body: row.body, replyToId: row.replyToId })
        .returning({ id: messages.id });
      releasedId = (message as { id: string }).id;
      mailboxes = [row.authorId, recipientId];
    } else {
      const [post] = await tx
        .insert(boardPosts)
        .values({ authorId: row.authorId, title: row.title ?? "", content: row.body })
        .returning({ id: boardPosts.id });
      releasedId = (post as { id: string }).id;
    }
    await tx
      .update(screeningHolds)
      .set({ status: "released", decidedBy: adminId, decidedAt: sql`now()`, releasedId })
      .where(eq(screeningHolds.id, id));
    await writeAudit(tx, {
      adminId,
      action: "screening.release",
      targetType: row.kind,
      targetId: id,
      details: { authorId: row.authorId, recipientId: row.recipientId, releasedId },
    });
    return { ok: true as const, mailboxes };
  });
}

/**
 * An administrator rejects a held item: it is never delivered, and the points it was charged come
 * back to the member through the ledger (kind refund, to the lots the charge took, decision 0008),
 * in the same transaction, once. Audited with the reason (the member is not told why).
 */
export async function rejectHold(
  db: Db,
  adminId: string,
  id: string,
  reason: string,
): Promise<{ ok: true; refunded: number }> {
  return db.transaction(async (tx) => {
    const row = await lockHeld(tx, id);
    await tx
      .update(screeningHolds)
      .set({ status: "rejected", decidedBy: adminId, decidedAt: sql`now()`, reason })
      .where(eq(screeningHolds.id, id));
    if (row.chargedPoints > 0) {
      const [charge] = await tx
        .select({ id: pointLedger.id })
        .from(pointLedger)
        .where(
          and(
            eq(pointLedger.userId, row.authorId),
            eq(pointLedger.kind, "charge"),
            eq(pointLedger.reference, row.chargeReference ?? row.id),
          ),
        )
        .limit(1);
      await changeBalance(tx, {
        userId: row.authorId,
        delta: row.chargedPoints,
        kind: "refund",
        actionName: row.kind === "message" ? "send_message" : "message_board_post",
        quantity: 1,
        reference: row.id,
        actorId: adminId,
        note: row.kind === "message" ? "確認で配信されなかったメッセージの返還" : "確認で公開されなかった投稿の返還",
        // A member who has left since is refunded too: the ledger must still add up.
        includeDeleted: true,
        restoreFromLedgerId: charge?.id,
      });
    }
    await writeAudit(tx, {
      adminId,
      action: "screening.reject",
      targetType: row.kind,
      targetId: id,
      details: { authorId: row.authorId, recipientId: row.recipientId, reason, refunded: row.chargedPoints },
    });
    return { ok: true as const, refunded: row.chargedPoints };
  });
}

/** What the author sees of their own held (or rejected) items: 「確認中」, never why. */
export interface OwnHeldItem {
  id: string;
  status: "held" | "rejected";
  title: string | null;
  body: string;
  createdAt: Date;
}

const ownColumns = {
  id: screeningHolds.id,
  status: sql<"held" | "rejected">`${screeningHolds.status}`,
  title: screeningHolds.title,
  body: screeningHolds.body,
  createdAt: screeningHolds.createdAt,
};

/** The member's messages to `partnerId` waiting for review (and rejected ones of the last 30 days), oldest first. */
export async function ownHeldMessages(db: Db, authorId: string, partnerId: string): Promise<OwnHeldItem[]> {
  return db
    .select(ownColumns)
    .from(screeningHolds)
    .where(
      and(
        eq(screeningHolds.authorId, authorId),
        eq(screeningHolds.kind, "message"),
        eq(screeningHolds.recipientId, partnerId),
        sql`(${screeningHolds.status} = 'held' or (${screeningHolds.status} = 'rejected' and ${screeningHolds.decidedAt} > now() - interval '30 days'))`,
      ),
    )
    .orderBy(asc(screeningHolds.createdAt), asc(screeningHolds.id));
}

/** The member's board posts waiting for review, oldest first. */
export async function ownHeldPosts(db: Db, authorId: string): Promise<OwnHeldItem[]> {
  return db
    .select(ownColumns)
    .from(screeningHolds)
    .where(
      and(
        eq(screeningHolds.authorId, authorId),
        eq(screeningHolds.kind, "board_post"),
        eq(screeningHolds.status, "held"),
      ),
    )
    .orderBy(asc(screeningHolds.createdAt), asc(screeningHolds.id));
}
