import { conversations, type Db, messages, rowsOf, scheduledMessages, users } from "@enmusubi/db";
import {
  type ConversationListInput,
  conversationListInput,
  MSG,
  pageOffset,
  type ThreadInput,
  threadInput,
  type VerificationStatus,
  WITHDRAWN_MEMBER_NAME,
} from "@enmusubi/shared";
import { aliasedTable, and, asc, desc, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import { AppError } from "../errors";
import { cappedCount } from "../lists/capped-count";
import { likeEscape } from "../lists/like";
import { pagesFor } from "../lists/pages";
import { thumbnailLink } from "../photos/storage";
import { blockedBetween, notBlockedWith } from "../safety/blocks";
import { type ScheduledView, toViews } from "../scheduled/views";
import { type OwnHeldItem, ownHeldMessages } from "../screening/holds";
import type { Viewer } from "../verification/gate";
import { isVerified } from "../verification/standing";
import { type Party, type Row, selectMessages } from "./message-rows";
import { type MailboxMessage, shownTo } from "./sealed";

/**
 * A member's conversations (やりとり, decision 0030): the list, one line per partner, and
 * one conversation, paged backwards. The list reads the `conversations` summary (one row per
 * member and partner, kept by triggers on `messages`, migration 0031) by its index, newest
 * activity first; a conversation reads the pair index of `messages`. Both leave out partners
 * blocked either way and deleted messages, and show messages as the mailbox does: another
 * member's message not opened yet is sealed (a preview line, opened with `messages.open`), and to
 * a member not age-verified a member's message is locked (no body, no preview).
 */

/** The other side of a conversation: the mailbox's party, and whether a member partner can read. */
export interface ConversationPartner extends Party {
  /** Age verification approved (always true for the operator): only then can they read a member's message. */
  verified: boolean;
}

export type ShownMessage = MailboxMessage & { locked: boolean };

export interface ConversationLine {
  partner: ConversationPartner;
  /** The newest message between the two, either way. */
  lastMessage: ShownMessage;
  /** The partner's messages to the member not read yet. */
  unreadCount: number;
}

/** Counted no further than this (the pager then offers one more page). */
const CONVERSATION_COUNT_CAP = 1000;

const partnerOf = (r: {
  id: string;
  name: string | null;
  photoLink: string | null;
  role: "user" | "admin";
  verificationStatus: VerificationStatus;
  withdrawn: boolean;
}): ConversationPartner => ({
  id: r.id,
  // A member who left (退会) is shown as such, without name or photo (decision 0034).
  name: r.withdrawn ? WITHDRAWN_MEMBER_NAME : r.name,
  photoLink: r.withdrawn ? null : thumbnailLink(r.photoLink),
  role: r.role,
  verified: r.role === "admin" || isVerified(r.verificationStatus),
});

/**
 * The member's conversations, newest activity first ((last_at, partner) descending), `limit` a
 * page; `q`: part of the partner's name. Partners blocked either way are left out (unblocking
 * brings them back); deleted and suspended partners stay, as their messages stay (decision 0015).
 */
export async function listConversations(db: Db, viewer: Viewer, raw: ConversationListInput) {
  const input = conversationListInput.parse(raw);
  const partner = aliasedTable(users, "partner");
  // Checked per conversation by the partner's key (`offset 0` keeps the planner from turning it into
  // a join that reads every member whose name matches: 1 in 12 are 佐藤 in the bench).
  const byName = input.q
    ? sql`exists (select 1 from ${users} n where n.id = ${conversations.partnerId}
        and n.name ilike ${`%${likeEscape(input.q)}%`} offset 0)`
    : undefined;
  const where = and(
    eq(conversations.memberId, viewer.id),
    notBlockedWith(viewer.id, conversations.partnerId),
    byName,
  ) as SQL;
  const counted = await cappedCount(
    db,
    conversations,
    where,
    Math.max(CONVERSATION_COUNT_CAP, input.page * input.limit),
  );
  const page = await db
    .select({
      lastMessageId: conversations.lastMessageId,
      unreadCount: conversations.unreadCount,
      id: partner.id,
      name: partner.name,
      photoLink: partner.photoLink,
      role: partner.role,
      verificationStatus: partner.verificationStatus,
      withdrawn: sql<boolean>`(${partner.withdrawnAt} is not null)`,
    })
    .from(conversations)
    .innerJoin(partner, eq(partner.id, conversations.partnerId))
    .where(where)
    .orderBy(desc(conversations.lastAt), desc(conversations.partnerId))
    .limit(input.limit)
    .offset(pageOffset(input.page, input.limit));
  const ids = page.map((p) => p.lastMessageId);
  const rows = ids.length === 0 ? [] : ((await selectMessages(db, inArray(messages.id, ids))) as Row[]);
  const byId = new Map(shownTo(viewer, rows).map((m) => [m.id, m]));
  // A last message deleted since the summary was read (a moment ago) leaves its line out of this page.
  const lines: ConversationLine[] = page.flatMap((p) => {
    const lastMessage = byId.get(p.lastMessageId);
    return lastMessage ? [{ partner: partnerOf(p), lastMessage, unreadCount: p.unreadCount }] : [];
  });
  return {
    conversations: lines,
    total: counted.total,
    totalCapped: counted.totalCapped,
    page: input.page,
    limit: input.limit,
    totalPages: pagesFor(counted.total, counted.totalCapped, input.limit),
  };
}

/** `least` and `greatest` of the two ids, as the pair index is keyed. */
function samePair(a: string, b: string): SQL {
  return sql`least(${messages.fromUserId}, ${messages.toUserId}) = least(${a}::uuid, ${b}::uuid)
    and greatest(${messages.fromUserId}, ${messages.toUserId}) = greatest(${a}::uuid, ${b}::uuid)`;
}

/**
 * The partner as the member may see them, or NOT_FOUND: unknown, oneself, blocked either way, or
 * someone the member never exchanged a message with who cannot be written to either (deleted,
 * suspended, or an administrator). `reachable`: a message to them can be sent now (live, not
 * suspended); whether a member partner can read it is `verified`.
 */
async function partnerFor(db: Db, viewerId: string, partnerId: string) {
  if (partnerId === viewerId) throw new AppError("NOT_FOUND", MSG.notFound);
  const [row] = await rowsOf<{
    id: string;
    name: string | null;
    photoLink: string | null;
    role: "user" | "admin";
    verificationStatus: VerificationStatus;
    withdrawn: boolean;
    reachable: boolean;
    exchanged: boolean;
    blocked: boolean;
  }>(
    db,
    sql`select u.id, u.name, u.photo_link as "photoLink", u.role, u.verification_status as "verificationStatus",
               (u.withdrawn_at is not null) as withdrawn,
               (u.deleted_at is null and u.suspended_at is null) as reachable,
               exists (select 1 from ${conversations} c where c.member_id = ${viewerId} and c.partner_id = u.id) as exchanged,
               ${blockedBetween(viewerId, sql`u.id`)} as blocked
        from ${users} u where u.id = ${partnerId}`,
  );
  if (!row || row.blocked) throw new AppError("NOT_FOUND", MSG.notFound);
  if (!row.exchanged && !(row.reachable && row.role === "user")) throw new AppError("NOT_FOUND", MSG.notFound);
  return { ...partnerOf(row), reachable: row.reachable };
}

/**
 * One conversation: the member's messages with `partnerId`, a page at a time from the newest
 * backwards (`cursor`: the oldest message shown so far), oldest first within the page;
 * `hasOlder` and `nextCursor` say whether and from where to read on. The first page (no `cursor`)
 * also answers the member's scheduled messages to the partner still waiting or failed (soonest
 * first): the screen shows them after the last message. A query: nothing is read, opened or
 * charged. A `cursor` that is no message of this conversation is refused (BAD_REQUEST).
 */
export async function getThread(db: Db, viewer: Viewer, raw: ThreadInput) {
  const input = threadInput.parse(raw);
  const partner = await partnerFor(db, viewer.id, input.partnerId);
  const pair = samePair(viewer.id, input.partnerId);
  let older: SQL | undefined;
  if (input.cursor) {
    // The cursor's time as PostgreSQL's text: a JavaScript Date would drop its microseconds.
    const [cursor] = await db
      .select({ at: sql<string>`${messages.createdAt}::text`, id: messages.id })
      .from(messages)
      .where(and(eq(messages.id, input.cursor), pair));
    if (!cursor) throw new AppError("BAD_REQUEST", MSG.threadCursorInvalid);
    older = sql`(${messages.createdAt}, ${messages.id}) < (${cursor.at}::timestamptz, ${cursor.id}::uuid)`;
  }
  // The page's ids from the pair index alone, one more than asked to know whether older ones exist.
  const found = await db
    .select({ id: messages.id })
    .from(messages)
    .where(and(pair, isNull(messages.deletedAt), older))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(input.limit + 1);
  const hasOlder = found.length > input.limit;
  const ids = found.slice(0, input.limit).map((r) => r.id);
  const rows = ids.length === 0 ? [] : ((await selectMessages(db, inArray(messages.id, ids))) as Row[]);
  const position = new Map(ids.map((id, n) => [id, n]));
  rows.sort((a, b) => (position.get(b.id) ?? 0) - (position.get(a.id) ?? 0));
  const shown = shownTo(viewer, rows);
  const scheduled: ScheduledView[] = input.cursor ? [] : await scheduledTo(db, viewer.id, input.partnerId);
  // The member's own messages a screening rule holds (「確認中」) or that were not delivered (decision 0042).
  const held: OwnHeldItem[] = input.cursor ? [] : await ownHeldMessages(db, viewer.id, input.partnerId);
  return {
    partner,
    messages: shown,
    hasOlder,
    nextCursor: hasOlder ? (shown[0]?.id ?? null) : null,
    scheduled,
    held,
  };
}

/** The member's entries to `partnerId` still waiting or failed (the scheduled list's), soonest first. */
async function scheduledTo(db: Db, ownerId: string, partnerId: string): Promise<ScheduledView[]> {
  const rows = await db
    .select()
    .from(scheduledMessages)
    .where(
      and(
        eq(scheduledMessages.ownerId, ownerId),
        inArray(scheduledMessages.status, ["pending", "failed"]),
        sql`${partnerId}::uuid = any(${scheduledMessages.recipients})`,
      ),
    )
    .orderBy(asc(scheduledMessages.scheduledAt), asc(scheduledMessages.id));
  return toViews(db, rows);
}
