import { type Db, messages, users } from "@enmusubi/db";
import {
  type MemberMessageBox,
  type MemberMessageListInput,
  MSG,
  memberMessageListInput,
  type VerificationStatus,
} from "@enmusubi/shared";
import { aliasedTable, and, count, eq, inArray, isNull, or, type Placeholder, type SQL, sql } from "drizzle-orm";
import { AppError } from "../errors";
import { thumbnailLink } from "../photos/storage";
import { blockedBetween, notBlockedWith } from "../safety/blocks";
import { assertMayMarkRead, assertMayOpen } from "../verification/gate";
import { type Party, paged, type Role, selectMessages } from "./message-rows";
import { partnerWhere } from "./partner-search";
import { type MailboxMessage, openCost, shownTo, toMailboxMessage } from "./sealed";

/** A member's mailbox (spec §2, §4): what they sent or received, the unread count, their contacts. */

/**
 * A member's mailbox, newest first, paged in the database: received (inbox), received and unread
 * (with `withOperator` also the operator's messages, read or not: the 未読 screen), received and
 * read (受信), or sent. `partner`: only messages whose other side's name contains it
 * (partner-search.ts). `viewerStatus`: the member's verification state as the request's session
 * read it. Another member's message not yet opened is listed sealed: a preview line, no body
 * (sealed.ts, decision 0027).
 */
export async function listMemberMessages(
  db: Db,
  userId: string,
  raw: MemberMessageListInput,
  viewerStatus: VerificationStatus,
) {
  const input = memberMessageListInput.parse(raw);
  const sent = input.box === "sent";
  // The other side of each message of the box.
  const other = sent ? messages.toUserId : messages.fromUserId;
  const values: { userId: string; counterpartId?: string } = { userId };
  if (input.counterpartId) values.counterpartId = input.counterpartId;
  const box = {
    // Prepared once per box and filter (message-rows.ts `PreparedWhere`, decision 0037).
    key: `mailbox|${input.box}|${input.withOperator}|${values.counterpartId !== undefined}`,
    values,
    where: (v: { userId: string | Placeholder; counterpartId?: string | Placeholder }) =>
      and(
        sent ? eq(messages.fromUserId, v.userId) : and(eq(messages.toUserId, v.userId), readState(db, input)),
        v.counterpartId === undefined ? undefined : eq(other, v.counterpartId),
        // While either has blocked the other, their messages leave both mailboxes (unblocking brings them back).
        notBlockedWith(v.userId, other),
      ),
  };
  // `partner`: a name search, whose statement depends on its words: built per call.
  const partner = input.partner ? (await partnerWhere(db, [other], input.partner, { userId: false })).where : undefined;
  const page = await paged(db, partner ? and(box.where(values), partner) : box, input.page, input.limit, (r) => r);
  return { ...page, messages: shownTo({ id: userId, verificationStatus: viewerStatus }, page.messages) };
}

/** The received boxes' read state: unread (and the operator's with `withOperator`), read, or any. */
function readState(db: Db, input: { box: MemberMessageBox; withOperator: boolean }): SQL | undefined {
  if (input.box === "read") return eq(messages.isRead, true);
  if (input.box !== "unread") return undefined;
  if (!input.withOperator) return eq(messages.isRead, false);
  // The operator's accounts are few: their ids as a subquery on users (users_role_created_idx).
  const operator = db.select({ id: users.id }).from(users).where(eq(users.role, "admin"));
  return or(eq(messages.isRead, false), inArray(messages.fromUserId, operator));
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
 * The unread count and the balance of a member who may still be signed in, or null once the
 * account is deleted or suspended: the live stream ends then (decision 0015). One statement.
 */
export async function liveStateOf(db: Db, userId: string): Promise<{ count: number; points: number } | null> {
  const [row] = await db
    .select({
      n: sql<number>`(select count(*)::int from ${messages} m where m.to_user_id = ${userId} and m.is_read = false
        and m.deleted_at is null and not ${blockedBetween(userId, sql`m.from_user_id`)})`,
      points: users.points,
    })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt), isNull(users.suspendedAt)));
  return row ? { count: Number(row.n), points: row.points } : null;
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
        // A suspended member cannot be written to (decision 0015), so is not offered either.
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
 * Answers the sender, whose 送信 list now shows it 既読.
 */
export async function markRead(
  db: Db,
  reader: { id: string; role: Role; verificationStatus: VerificationStatus },
  id: string,
): Promise<{ fromUserId: string }> {
  if (reader.role === "user") await assertMayMarkRead(db, reader, id);
  const [row] = await db
    .update(messages)
    .set({ isRead: true, readAt: sql`coalesce(${messages.readAt}, now())` })
    .where(and(eq(messages.id, id), eq(messages.toUserId, reader.id), isNull(messages.deletedAt)))
    .returning({ fromUserId: messages.fromUserId });
  if (!row) throw new AppError("NOT_FOUND", MSG.notFound);
  return row;
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
