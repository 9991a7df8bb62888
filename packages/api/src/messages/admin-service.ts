import { type Db, messages, users } from "@enmusubi/db";
import {
  type AdminMessageListInput,
  adminMessageListInput,
  MSG,
  rangeEnd,
  rangeStart,
  type SendAsUserInput,
} from "@enmusubi/shared";
import { and, desc, eq, gte, inArray, isNull, lt, or, type SQL, sql } from "drizzle-orm";
import { writeAudit } from "../audit/audit-log";
import { AppError } from "../errors";
import { adminSearch, newestWindow, SEARCH_WINDOW } from "./admin-search";
import { paged, selectMessages, toAdminMessage } from "./message-rows";
import { partnerWhere } from "./partner-search";
import { insertMessages, liveRecipients, markAnswered } from "./send";

/** The administrators' messages (spec §6, §7): the lists, sending (as themselves or as a member), corrections. */

/** Admin lists count at most this many matches (or up to the page after the one shown): never all 1,000,000. */
export const ADMIN_COUNT_CAP = 10_000;

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
  const partner = input.partner ? await adminPartner(db, input.box, input.partner) : null;
  const where = and(adminWhere(db, input), search?.where, partner?.where);
  const page = await paged(db, where, input.page, input.limit, toAdminMessage, ADMIN_COUNT_CAP, {
    countInOrder: Boolean(input.dateFrom || input.dateTo),
  });
  return { ...page, searchWindow: search?.window ?? partner?.window ?? null };
}

/**
 * The sent / inbox screens' name filter (partner-search.ts): the recipient's name or userID on the
 * sent box, the sender's on the inbox, either on all. Without an index to serve it (a short or
 * broad keyword) it looks within the newest SEARCH_WINDOW messages, as the search box does.
 */
async function adminPartner(db: Db, box: "all" | "sent" | "inbox", keyword: string) {
  const columns =
    box === "sent"
      ? [messages.toUserId]
      : box === "inbox"
        ? [messages.fromUserId]
        : [messages.fromUserId, messages.toUserId];
  const partner = await partnerWhere(db, columns, keyword, { userId: true });
  if (partner.indexed) return { where: partner.where, window: null };
  const window = await newestWindow(db);
  return { where: and(window ?? undefined, partner.where), window: SEARCH_WINDOW };
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
