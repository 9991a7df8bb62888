import { randomUUID } from "node:crypto";
import { type Db, messages, rowsOf, users } from "@enmusubi/db";
import {
  type AdminMessageListInput,
  adminMessageListInput,
  type MemberMessageListInput,
  type MemberSendInput,
  MSG,
  memberMessageListInput,
  rangeEnd,
  rangeStart,
  type SendAsUserInput,
  type VerificationStatus,
} from "@enmusubi/shared";
import { aliasedTable, and, count, desc, eq, gte, inArray, isNull, lt, or, type SQL, sql } from "drizzle-orm";
import { writeAudit } from "../audit/audit-log";
import { AppError } from "../errors";
import type { ChargeBatch } from "../points/batch";
import type { Charge } from "../points/charge";
import { blockedBetween, notBlockedWith, pairKey } from "../safety/blocks";
import { assertMayMarkRead, assertMayOpen, lockUnverified } from "../verification/gate";
import { adminSearch } from "./admin-search";

/**
 * Messages between members, and between members and administrators (spec §2, §4, §6, §7).
 * Members see only what they sent or received (anything else is NOT_FOUND) and see the other side
 * through the public shape (no email, no login ID); administrators see everything, including who
 * really sent a message written "as" a member. Bodies are plain text; clients show them as text.
 */

const sender = aliasedTable(users, "sender");
const recipient = aliasedTable(users, "recipient");
const actingAdmin = aliasedTable(users, "acting_admin");

const columns = {
  id: messages.id,
  body: messages.body,
  createdAt: messages.createdAt,
  isRead: messages.isRead,
  hasReply: messages.hasReply,
  replyToId: messages.replyToId,
  fromId: sender.id,
  fromName: sender.name,
  fromPhoto: sender.photoLink,
  fromRole: sender.role,
  fromUserID: sender.userId,
  fromEmail: sender.email,
  toId: recipient.id,
  toName: recipient.name,
  toPhoto: recipient.photoLink,
  toRole: recipient.role,
  toUserID: recipient.userId,
  toEmail: recipient.email,
  actingAdminId: actingAdmin.id,
  actingAdminName: actingAdmin.name,
};

function selectMessages(db: Db, where: SQL | undefined) {
  return db
    .select(columns)
    .from(messages)
    .innerJoin(sender, eq(sender.id, messages.fromUserId))
    .innerJoin(recipient, eq(recipient.id, messages.toUserId))
    .leftJoin(actingAdmin, eq(actingAdmin.id, messages.sentByAdminId))
    .where(and(isNull(messages.deletedAt), where))
    .$dynamic();
}

type Role = "user" | "admin";
/** One selected row (declared: drizzle cannot infer it through the aliased joins). */
interface Row {
  id: string;
  body: string;
  createdAt: Date;
  isRead: boolean;
  hasReply: boolean;
  replyToId: string | null;
  fromId: string;
  fromName: string | null;
  fromPhoto: string | null;
  fromRole: Role;
  fromUserID: string;
  fromEmail: string;
  toId: string;
  toName: string | null;
  toPhoto: string | null;
  toRole: Role;
  toUserID: string;
  toEmail: string;
  actingAdminId: string | null;
  actingAdminName: string | null;
}

/** The other side of a message as a member sees it. */
export interface Party {
  id: string;
  name: string | null;
  photoLink: string | null;
  role: "user" | "admin";
}

export interface MemberMessage {
  id: string;
  body: string;
  createdAt: Date;
  isRead: boolean;
  hasReply: boolean;
  replyToId: string | null;
  from: Party;
  to: Party;
}

/** Administrators also see login IDs and addresses, and who really wrote a message sent as a member. */
export interface AdminParty extends Party {
  userID: string;
  email: string;
}

export interface AdminMessage extends Omit<MemberMessage, "from" | "to"> {
  from: AdminParty;
  to: AdminParty;
  sentByAdmin: { id: string; name: string | null } | null;
}

export function toMemberMessage(r: Row): MemberMessage {
  return {
    id: r.id,
    body: r.body,
    createdAt: r.createdAt,
    isRead: r.isRead,
    hasReply: r.hasReply,
    replyToId: r.replyToId,
    from: { id: r.fromId, name: r.fromName, photoLink: r.fromPhoto, role: r.fromRole },
    to: { id: r.toId, name: r.toName, photoLink: r.toPhoto, role: r.toRole },
  };
}

export function toAdminMessage(r: Row): AdminMessage {
  const base = toMemberMessage(r);
  return {
    ...base,
    from: { ...base.from, userID: r.fromUserID, email: r.fromEmail },
    to: { ...base.to, userID: r.toUserID, email: r.toEmail },
    sentByAdmin: r.actingAdminId ? { id: r.actingAdminId, name: r.actingAdminName } : null,
  };
}

/** The given messages with their parties, in the order of `ids`. */
async function withParties(db: Db, ids: string[]): Promise<Row[]> {
  if (ids.length === 0) return [];
  const found = new Map(((await selectMessages(db, inArray(messages.id, ids))) as Row[]).map((r) => [r.id, r]));
  return ids.flatMap((id) => found.get(id) ?? []);
}

export interface Page<T> {
  messages: T[];
  /** Every match, or when `totalCapped` a lower bound (the screens say "N件以上"). */
  total: number;
  totalCapped: boolean;
  page: number;
  limit: number;
  totalPages: number;
}

/** Admin lists count at most this many matches (or up to the page after the one shown): never all 1,000,000. */
export const ADMIN_COUNT_CAP = 10_000;

async function paged<T>(
  db: Db,
  where: SQL | undefined,
  page: number,
  limit: number,
  shape: (r: Row) => T,
  countCap?: number,
  options: { countInOrder?: boolean } = {},
): Promise<Page<T>> {
  // `where` reads message columns only (accounts are matched by subqueries), so the count needs no join.
  // With a cap, the count stops after cap + 1 matches (at least one past the page shown).
  const cap = countCap === undefined ? undefined : Math.max(countCap, page * limit);
  const matches = db
    .select({ one: sql`1` })
    .from(messages)
    .where(and(isNull(messages.deletedAt), where))
    .$dynamic();
  // A date range is a range of created_at, the order the rows were written in: unordered, the
  // planner took a sequential scan that stops at the cap, expecting the range's rows spread evenly,
  // and such a scan of a large table starts where the previous one stopped (synchronized scans):
  // it read 886,724 other messages first (200 ms for one day at 1,000,000). Counted newest first,
  // as the page is read, it walks the range in messages_live_idx alone.
  if (options.countInOrder) matches.orderBy(desc(messages.createdAt), desc(messages.id));
  const [totals] =
    cap === undefined
      ? await db
          .select({ total: count() })
          .from(messages)
          .where(and(isNull(messages.deletedAt), where))
      : await db.select({ total: count() }).from(matches.limit(cap + 1).as("capped"));
  const totalCapped = cap !== undefined && (totals?.total ?? 0) > cap;
  const total = totalCapped ? (cap as number) : (totals?.total ?? 0);
  // The page's ids first, from the message indexes alone (joined, the planner would read every
  // message to sort them); then the parties of those few rows.
  const ids = await db
    .select({ id: messages.id })
    .from(messages)
    .where(and(isNull(messages.deletedAt), where))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(limit)
    .offset((page - 1) * limit);
  const rows = await withParties(
    db,
    ids.map((r) => r.id),
  );
  return {
    messages: rows.map(shape),
    total,
    totalCapped,
    page,
    limit,
    // Capped: there is at least one more match, so at least one more page.
    totalPages: Math.max(1, Math.ceil((totalCapped ? total + 1 : total) / limit)),
  };
}

// ---- members -------------------------------------------------------------------------------

/**
 * A member's mailbox: received (inbox), received and unread, or sent; newest first. `viewerStatus`:
 * the member's verification state as the request's session read it.
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
  const page = await paged(
    db,
    and(mine, counterpart, notBlockedWith(userId, other)),
    input.page,
    input.limit,
    toMemberMessage,
  );
  // Until the member is verified, other members' messages are listed without their body (decision 0006).
  return { ...page, messages: await lockUnverified({ id: userId, verificationStatus: viewerStatus }, page.messages) };
}

/** One message the member sent or received; anything else is NOT_FOUND (`viewerStatus` as above). */
export async function getMemberMessage(
  db: Db,
  userId: string,
  id: string,
  viewerStatus: VerificationStatus,
): Promise<MemberMessage & { locked: false }> {
  const [row] = await selectMessages(
    db,
    and(
      eq(messages.id, id),
      or(eq(messages.fromUserId, userId), eq(messages.toUserId, userId)),
      notBlockedWith(
        userId,
        sql`case when ${messages.fromUserId} = ${userId} then ${messages.toUserId} else ${messages.fromUserId} end`,
      ),
    ),
  );
  if (!row) throw new AppError("NOT_FOUND", MSG.notFound);
  const message = toMemberMessage(row);
  assertMayOpen({ id: userId, verificationStatus: viewerStatus }, message);
  return { ...message, locked: false };
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
  return rows;
}

/** Live accounts among `ids`, with their roles; refuses any that is unknown or deleted. */
async function liveRecipients(tx: Db, ids: string[]) {
  const rows = await tx
    .select({ id: users.id, role: users.role })
    .from(users)
    .where(and(inArray(users.id, ids), isNull(users.deletedAt)));
  if (rows.length !== ids.length) throw new AppError("BAD_REQUEST", MSG.recipientUnavailable);
  return rows;
}

/**
 * The message being answered: addressed to `senderId` and written by the one recipient. It is
 * marked replied, and read too when asked (answered from the unread list).
 */
async function markAnswered(tx: Db, replyToId: string, senderId: string, recipientIds: string[], markRead: boolean) {
  const [original] = await tx
    .select({ fromUserId: messages.fromUserId })
    .from(messages)
    .where(and(eq(messages.id, replyToId), eq(messages.toUserId, senderId), isNull(messages.deletedAt)))
    .for("update");
  if (!original || recipientIds.length !== 1 || recipientIds[0] !== original.fromUserId) {
    throw new AppError("BAD_REQUEST", MSG.replyTargetInvalid);
  }
  await tx
    .update(messages)
    .set({ hasReply: true, ...(markRead ? { isRead: true, readAt: sql`coalesce(${messages.readAt}, now())` } : {}) })
    .where(eq(messages.id, replyToId));
}

async function insertMessages(
  tx: Db,
  rows: Array<{ fromUserId: string; toUserId: string; body: string; replyToId?: string; sentByAdminId?: string }>,
): Promise<string[]> {
  const inserted = await tx.insert(messages).values(rows).returning({ id: messages.id });
  return inserted.map((r) => r.id);
}

/** What a member's send needs from the database: refused (and why), or how many recipients are paid. */
interface SendCheck {
  refusal: AppError | null;
  /** Member recipients (each costs send_message); writing to an administrator is free. */
  paid: number;
}

/**
 * The rules of a member's send, for one send or a batch of them in the same two statements: not
 * to oneself, every recipient a live account that is not suspended (else NOT_FOUND, before
 * anything is charged: unknown, deleted and suspended alike, issue 21), no block either way with
 * any of them (a batch is all or nothing, and its refusal names no one). Standing (a verified
 * member, not suspended) is the caller's: `verifiedProcedure` for a request, the dispatcher for a
 * scheduled entry.
 */
export async function checkMemberSends(
  tx: Db,
  sends: Array<{ senderId: string; recipientIds: string[] }>,
): Promise<SendCheck[]> {
  // Every (sender, recipient) pair in one statement: the recipient's role when live, and any block.
  const pairs = sends.flatMap((s) => s.recipientIds.map((id) => sql`(${s.senderId}::uuid, ${id}::uuid)`));
  const rows =
    pairs.length === 0
      ? []
      : await rowsOf<{ sender: string; recipient: string; role: Role | null; blocked: boolean }>(
          tx,
          sql`select v.sender, v.recipient, u.role, ${blockedBetween(sql`v.sender`, sql`v.recipient`)} as blocked
              from (values ${sql.join(pairs, sql`, `)}) as v(sender, recipient)
              left join ${users} u on u.id = v.recipient and u.deleted_at is null and u.suspended_at is null`,
        );
  const live = new Map<string, Role>();
  const blocked = new Set<string>();
  for (const row of rows) {
    if (row.role) live.set(row.recipient, row.role);
    if (row.blocked) blocked.add(pairKey(row.sender, row.recipient));
  }
  return sends.map((s) => {
    if (s.recipientIds.includes(s.senderId))
      return { refusal: new AppError("BAD_REQUEST", MSG.cannotMessageSelf), paid: 0 };
    if (!s.recipientIds.every((id) => live.has(id)))
      return { refusal: new AppError("NOT_FOUND", MSG.recipientUnavailable), paid: 0 };
    if (s.recipientIds.some((id) => blocked.has(pairKey(s.senderId, id))))
      return { refusal: new AppError("FORBIDDEN", MSG.blockedEitherWay), paid: 0 };
    return { refusal: null, paid: s.recipientIds.filter((id) => live.get(id) === "user").length };
  });
}

/**
 * A member writes to one or several accounts, inside the paid procedure's transaction: each
 * member recipient costs `send_message` (one charge of cost × count, all or nothing); writing to
 * an administrator is free. A refusal comes before anything is written or charged.
 */
export async function sendAsMember(tx: Db, charge: Charge, senderId: string, input: MemberSendInput) {
  const [check] = await checkMemberSends(tx, [{ senderId, recipientIds: input.recipientIds }]);
  if (!check || check.refusal) throw check?.refusal ?? new Error("no send check");
  if (input.replyToId) await markAnswered(tx, input.replyToId, senderId, input.recipientIds, input.markRead);
  const ids = await insertMessages(
    tx,
    input.recipientIds.map((toUserId) => ({
      fromUserId: senderId,
      toUserId,
      body: input.body,
      ...(input.replyToId ? { replyToId: input.replyToId } : {}),
    })),
  );
  const result = await charge({ quantity: check.paid, reference: ids[0] });
  return { messageIds: ids, sent: ids.length, cost: result.required, remainingPoints: result.remainingPoints };
}

/**
 * Many members' sends (not replies) at once, in the caller's transaction and a fixed number of
 * statements: the rules of `sendAsMember` (`checkMemberSends`), the charges of `payBatch`
 * (`chargeBatch` bound by the caller to send_message: the batch half of the charging pair, the same
 * rules as the paid procedure's charge, in order, each whole or refused), one INSERT of every message. Answers, per send, its message ids or the error a request would have been
 * given; a refused send writes and charges nothing. The scheduled-message dispatcher's path.
 */
export async function sendManyAsMembers(
  tx: Db,
  payBatch: ChargeBatch,
  sends: Array<{ senderId: string; recipientIds: string[]; body: string }>,
): Promise<Array<{ messageIds: string[] } | AppError>> {
  const checks = await checkMemberSends(tx, sends);
  const ids = sends.map((s) => s.recipientIds.map(() => randomUUID()));
  const open = checks.flatMap((check, index) => (check.refusal ? [] : [index]));
  const charges = await payBatch(
    open.map((index) => ({
      userId: (sends[index] as (typeof sends)[number]).senderId,
      quantity: checks[index]?.paid ?? 0,
      reference: ids[index]?.[0],
    })),
  );
  const results: Array<{ messageIds: string[] } | AppError> = checks.map((c) => c.refusal ?? { messageIds: [] });
  const rows: Array<typeof messages.$inferInsert> = [];
  for (const [n, index] of open.entries()) {
    const charged = charges[n];
    const send = sends[index] as (typeof sends)[number];
    if (charged instanceof AppError) {
      results[index] = charged;
      continue;
    }
    const messageIds = ids[index] as string[];
    results[index] = { messageIds };
    send.recipientIds.forEach((toUserId, r) => {
      rows.push({ id: messageIds[r], fromUserId: send.senderId, toUserId, body: send.body });
    });
  }
  if (rows.length > 0) await tx.insert(messages).values(rows);
  return results;
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

// ---- administrators ------------------------------------------------------------------------

/** Ids of the accounts matching `where` (few for roles and searches), for filters on message columns. */
const accountsWhere = (db: Db, where: SQL | undefined) => db.select({ id: users.id }).from(users).where(where);

function adminWhere(db: Db, input: ReturnType<typeof adminMessageListInput.parse>): SQL | undefined {
  const conditions: Array<SQL | undefined> = [];
  const admins = () => accountsWhere(db, eq(users.role, "admin"));
  if (input.box === "sent") conditions.push(inArray(messages.fromUserId, admins()));
  if (input.box === "inbox") conditions.push(inArray(messages.toUserId, admins()));
  if (input.status === "read") conditions.push(or(eq(messages.isRead, true), eq(messages.hasReply, true)));
  if (input.status === "unread") conditions.push(and(eq(messages.isRead, false), eq(messages.hasReply, false)));
  if (input.status === "replied") conditions.push(eq(messages.hasReply, true));
  // A day is a Japanese day (from its midnight in Tokyo; up to and including it), an instant is exact.
  if (input.dateFrom) conditions.push(gte(messages.createdAt, rangeStart(input.dateFrom)));
  if (input.dateTo) conditions.push(lt(messages.createdAt, rangeEnd(input.dateTo)));
  if (input.counterpartId) {
    conditions.push(or(eq(messages.fromUserId, input.counterpartId), eq(messages.toUserId, input.counterpartId)));
  }
  // The search box is adminSearch (admin-search.ts): index-backed or bounded at any size.
  return and(...conditions);
}

/** Every message (email management), or those sent by or to administrators; filtered and paged in the database. */
export async function listAdminMessages(db: Db, raw: AdminMessageListInput) {
  const input = adminMessageListInput.parse(raw);
  const search = input.search ? await adminSearch(db, input.search) : null;
  const where = and(adminWhere(db, input), search?.where);
  const page = await paged(db, where, input.page, input.limit, toAdminMessage, ADMIN_COUNT_CAP, {
    countInOrder: Boolean(input.dateFrom || input.dateTo),
  });
  return { ...page, searchWindow: search?.window ?? null };
}

/** The last `limit` messages between two accounts, oldest first (send-as-user shows 5). */
export async function conversation(db: Db, input: { userA: string; userB: string; limit: number }) {
  const rows = await selectMessages(
    db,
    or(
      and(eq(messages.fromUserId, input.userA), eq(messages.toUserId, input.userB)),
      and(eq(messages.fromUserId, input.userB), eq(messages.toUserId, input.userA)),
    ),
  )
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(input.limit);
  return rows.reverse().map(toAdminMessage);
}

/**
 * An administrator writes to members (direct or batch), from the admin screens, a scheduled entry
 * or the legacy `POST /api/messages/…` with an administrator's token. Free; administrator rows are
 * refused; audited (one row per send, naming every recipient and message).
 */
export async function sendAsAdmin(
  db: Db,
  adminId: string,
  input: { recipientIds: string[]; body: string; replyToId?: string | undefined },
) {
  return db.transaction(async (tx) => {
    const recipients = await liveRecipients(tx, input.recipientIds);
    if (recipients.some((r) => r.role === "admin")) throw new AppError("BAD_REQUEST", MSG.adminRecipientRefused);
    // A reply from the (shared) admin inbox: the member's message to an administrator, answered to
    // that member alone, is marked read and replied with the reply (spec §4).
    if (input.replyToId) {
      if (input.recipientIds.length !== 1) throw new AppError("BAD_REQUEST", MSG.replyTargetInvalid);
      const [original] = await tx
        .update(messages)
        .set({ hasReply: true, isRead: true, readAt: sql`coalesce(${messages.readAt}, now())` })
        .where(
          and(
            eq(messages.id, input.replyToId),
            isNull(messages.deletedAt),
            eq(messages.fromUserId, input.recipientIds[0] as string),
            inArray(messages.toUserId, accountsWhere(tx, eq(users.role, "admin"))),
          ),
        )
        .returning({ id: messages.id });
      if (!original) throw new AppError("BAD_REQUEST", MSG.replyTargetInvalid);
    }
    const ids = await insertMessages(
      tx,
      input.recipientIds.map((toUserId) => ({
        fromUserId: adminId,
        toUserId,
        body: input.body,
        ...(input.replyToId ? { replyToId: input.replyToId } : {}),
      })),
    );
    await writeAudit(tx, {
      adminId,
      action: "message.send",
      targetType: "message",
      ...(ids[0] ? { targetId: ids[0] } : {}),
      details: { recipientIds: input.recipientIds, messageIds: ids, replyToId: input.replyToId ?? null },
    });
    return { messageIds: ids, sent: ids.length };
  });
}

/**
 * An administrator writes as a member (spec §7 send-as-user): never charged to the member, the
 * acting administrator recorded on the message and in the audit log. Written to an administrator,
 * it answers that administrator's message (`replyToId`, else their latest unanswered one to the
 * member), which is marked read and replied (spec §4).
 */
export async function sendAsUser(db: Db, adminId: string, input: SendAsUserInput) {
  if (input.fromUserId === input.toUserId) throw new AppError("BAD_REQUEST", MSG.cannotMessageSelf);
  return db.transaction(async (tx) => {
    const parties = await liveRecipients(tx, [input.fromUserId, input.toUserId]);
    const from = parties.find((p) => p.id === input.fromUserId);
    const to = parties.find((p) => p.id === input.toUserId);
    if (from?.role !== "user") throw new AppError("BAD_REQUEST", MSG.senderMustBeMember);
    let answered: string | undefined = input.replyToId;
    if (!answered && to?.role === "admin") {
      const [latest] = await tx
        .select({ id: messages.id })
        .from(messages)
        .where(
          and(
            eq(messages.fromUserId, input.toUserId),
            eq(messages.toUserId, input.fromUserId),
            eq(messages.hasReply, false),
            isNull(messages.deletedAt),
          ),
        )
        .orderBy(desc(messages.createdAt))
        .limit(1);
      answered = latest?.id;
    }
    if (answered) await markAnswered(tx, answered, input.fromUserId, [input.toUserId], to?.role === "admin");
    const [id] = await insertMessages(tx, [
      {
        fromUserId: input.fromUserId,
        toUserId: input.toUserId,
        body: input.body,
        sentByAdminId: adminId,
        ...(answered ? { replyToId: answered } : {}),
      },
    ]);
    await writeAudit(tx, {
      adminId,
      action: "message.sendAsUser",
      targetType: "message",
      targetId: id,
      details: { fromUserId: input.fromUserId, toUserId: input.toUserId, replyToId: answered ?? null },
    });
    return { messageId: id as string };
  });
}

/** An administrator corrects a message's body (email management); audited. */
export async function updateMessage(db: Db, adminId: string, input: { id: string; body: string }) {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ body: messages.body, toUserId: messages.toUserId })
      .from(messages)
      .where(and(eq(messages.id, input.id), isNull(messages.deletedAt)))
      .for("update");
    if (!before) throw new AppError("NOT_FOUND", MSG.notFound);
    await tx.update(messages).set({ body: input.body }).where(eq(messages.id, input.id));
    await writeAudit(tx, {
      adminId,
      action: "message.update",
      targetType: "message",
      targetId: input.id,
      details: { body: { from: before.body, to: input.body } },
    });
    return before.toUserId;
  });
}

/** An administrator deletes a message (soft: it leaves every list); audited. Answers the recipient. */
export async function deleteMessage(db: Db, adminId: string, id: string) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(messages)
      .set({ deletedAt: new Date() })
      .where(and(eq(messages.id, id), isNull(messages.deletedAt)))
      .returning({ toUserId: messages.toUserId, fromUserId: messages.fromUserId });
    if (!row) throw new AppError("NOT_FOUND", MSG.notFound);
    await writeAudit(tx, { adminId, action: "message.delete", targetType: "message", targetId: id, details: row });
    return row.toUserId;
  });
}
