import { type Db, messages, users } from "@enmusubi/db";
import { type MemberMessageListInput, MSG, memberMessageListInput, type VerificationStatus } from "@enmusubi/shared";
import { aliasedTable, and, count, eq, isNull, or, sql } from "drizzle-orm";
import { AppError } from "../errors";
import { thumbnailLink } from "../photos/storage";
import { blockedBetween, notBlockedWith } from "../safety/blocks";
import { assertMayMarkRead, assertMayOpen, lockUnverified } from "../verification/gate";
import { type Party, paged, type Role, selectMessages } from "./message-rows";
import { type MailboxMessage, openCost, toMailboxMessage } from "./sealed";

/** A member's mailbox (spec §2, §4): what they sent or received, the unread count, their contacts. */

/**
 * A member's mailbox: received (inbox), received and unread, or sent; newest first. `viewerStatus`:
 * the member's verification state as the request's session read it. Another member's message not
 * yet opened is listed sealed: a preview line, no body (sealed.ts, decision 0027).
 */
export async function listMemberMessages(
  db: Db,
  userId: string,
  raw: MemberMessageListInput,
  viewerStatus: VerificationStatus,
) {
  const input = memberMessageListInput.parse(raw);
  const mine =
    input.box === "sent"
      ? eq(messages.fromUserId, userId)
      : and(eq(messages.toUserId, userId), input.box === "unread" ? eq(messages.isRead, false) : undefined);
  const counterpart = input.counterpartId
    ? input.box === "sent"
      ? eq(messages.toUserId, input.counterpartId)
      : eq(messages.fromUserId, input.counterpartId)
    : undefined;
  // While either has blocked the other, their messages leave both mailboxes (unblocking brings them back).
  const other = input.box === "sent" ? messages.toUserId : messages.fromUserId;
  const page = await paged(db, and(mine, counterpart, notBlockedWith(userId, other)), input.page, input.limit, (r) =>
    toMailboxMessage(userId, r),
  );
  // Until the member is verified, other members' messages are listed without their body (decision
  // 0006), and without a preview either.
  const shown = lockUnverified({ id: userId, verificationStatus: viewerStatus }, page.messages);
  return { ...page, messages: shown.map((m) => (m.locked ? { ...m, preview: null } : m)) };
}

/**
 * Message `id` if `userId` sent or received it and neither has blocked the other: what a member
 * may read or open (get and open answer NOT_FOUND otherwise).
 */
export function oneOfMine(userId: string, id: string) {
  return and(
    eq(messages.id, id),
    or(eq(messages.fromUserId, userId), eq(messages.toUserId, userId)),
    notBlockedWith(
      userId,
      sql`case when ${messages.fromUserId} = ${userId} then ${messages.toUserId} else ${messages.fromUserId} end`,
    ),
  );
}

/**
 * One message the member sent or received; anything else is NOT_FOUND (`viewerStatus` as above).
 * A sealed one is answered without its body, with `openCost`: what `messages.open` would take now
 * (0 when free). A query: it never charges, opens or marks anything.
 */
export async function getMemberMessage(
  db: Db,
  userId: string,
  id: string,
  viewerStatus: VerificationStatus,
): Promise<MailboxMessage & { locked: false; openCost: number }> {
  const [row] = await selectMessages(db, oneOfMine(userId, id));
  if (!row) throw new AppError("NOT_FOUND", MSG.notFound);
  const message = toMailboxMessage(userId, row);
  assertMayOpen({ id: userId, verificationStatus: viewerStatus }, message);
  return { ...message, locked: false, openCost: message.sealed ? await openCost(db, userId) : 0 };
}

export async function unreadCount(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(messages)
    .where(
      and(
        eq(messages.toUserId, userId),
        eq(messages.isRead, false),
        isNull(messages.deletedAt),
        notBlockedWith(userId, messages.fromUserId),
      ),
    );
  return row?.n ?? 0;
}

/**
 * The unread count of a member who may still be signed in, or null once the account is deleted or
 * suspended: the live count's stream ends then (issue 21). One statement, like `unreadCount`.
 */
export async function unreadCountWhileLive(db: Db, userId: string): Promise<number | null> {
  const [row] = await db
    .select({
      n: sql<number>`(select count(*)::int from ${messages} m where m.to_user_id = ${userId} and m.is_read = false
        and m.deleted_at is null and not ${blockedBetween(userId, sql`m.from_user_id`)})`,
    })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt), isNull(users.suspendedAt)));
  return row ? Number(row.n) : null;
}

/** The members and administrators a member has exchanged messages with (the bulk-send recipients). */
export async function listContacts(db: Db, userId: string): Promise<Party[]> {
  const other = aliasedTable(users, "other");
  const rows = await db
    .selectDistinctOn([other.id], { id: other.id, name: other.name, photoLink: other.photoLink, role: other.role })
    .from(messages)
    .innerJoin(
      other,
      sql`${other.id} = case when ${messages.fromUserId} = ${userId} then ${messages.toUserId} else ${messages.fromUserId} end`,
    )
    .where(
      and(
        or(eq(messages.fromUserId, userId), eq(messages.toUserId, userId)),
        isNull(messages.deletedAt),
        isNull(other.deletedAt),
        // A suspended member cannot be written to (issue 21), so is not offered either.
        isNull(other.suspendedAt),
        // Someone blocked either way is no longer offered as a recipient (sending would be refused).
        notBlockedWith(userId, other.id),
      ),
    )
    .orderBy(other.id)
    .limit(500);
  // The thumbnail, as every member-facing answer (decision 0028).
  return rows.map((r) => ({ ...r, photoLink: thumbnailLink(r.photoLink) }));
}

/**
 * The recipient marks a message read: a member (gated by age verification for a member's message,
 * decision 0006) or an administrator (a message addressed to them; the gate is for members).
 */
export async function markRead(
  db: Db,
  reader: { id: string; role: Role; verificationStatus: VerificationStatus },
  id: string,
): Promise<void> {
  if (reader.role === "user") await assertMayMarkRead(db, reader, id);
  const [row] = await db
    .update(messages)
    .set({ isRead: true, readAt: sql`coalesce(${messages.readAt}, now())` })
    .where(and(eq(messages.id, id), eq(messages.toUserId, reader.id), isNull(messages.deletedAt)))
    .returning({ id: messages.id });
  if (!row) throw new AppError("NOT_FOUND", MSG.notFound);
}

/** The recipient marks a message replied (the legacy client's call after a successful reply). */
export async function markReplied(db: Db, userId: string, id: string): Promise<void> {
  const [row] = await db
    .update(messages)
    .set({ hasReply: true })
    .where(and(eq(messages.id, id), eq(messages.toUserId, userId), isNull(messages.deletedAt)))
    .returning({ id: messages.id });
  if (!row) throw new AppError("NOT_FOUND", MSG.notFound);
}
