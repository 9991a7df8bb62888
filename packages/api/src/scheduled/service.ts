import { type Db, messages, scheduledMessages, type scheduledSourceEnum, users } from "@enmusubi/db";
import {
  MSG,
  type ScheduledCreateInput,
  type ScheduledSource,
  type ScheduledStatus,
  type ScheduledType,
} from "@enmusubi/shared";
import { TRPCError } from "@trpc/server";
import { and, asc, eq, inArray, isNull, lte, type SQL, sql } from "drizzle-orm";
import { writeAudit } from "../audit/audit-log";
import type { ApiDeps, Session } from "../context";
import { AppError, publicMessage, toTRPCError } from "../errors";
import type { JobLog } from "../jobs";
import type { MailboxEvents } from "../messages/events";

/**
 * Scheduled messages (spec §3, §4, §5): the browser queue `scheduled_messages_v1` is a server
 * table, dispatched by a job loop on every instance (ARCHITECTURE "Scheduled messages run on the
 * server"). An entry is sent through the tRPC caller of its owner, so it obeys exactly the rules
 * of sending now: a member's entry goes through `messages.send` (a paid procedure: charged at send
 * time, 402 when points are short), an administrator's through `adminMessages.send` or
 * `adminMessages.sendAsUser`. Claiming a due row (`FOR UPDATE SKIP LOCKED`), sending it and
 * marking it happen in one transaction per row: a crash rolls all three back (the row is sent by
 * the next run, never twice), and several instances never send one row twice.
 */

// The table's enum and the shared list must be the same values.
const sameSources: [ScheduledSource] extends [(typeof scheduledSourceEnum.enumValues)[number]]
  ? [(typeof scheduledSourceEnum.enumValues)[number]] extends [ScheduledSource]
    ? true
    : false
  : false = true;
void sameSources;

type Entry = typeof scheduledMessages.$inferSelect;

export interface ScheduledView {
  id: string;
  type: ScheduledType;
  recipients: Array<{ id: string; name: string | null }>;
  content: string;
  scheduledAt: Date;
  createdAt: Date;
  source: ScheduledSource;
  status: ScheduledStatus;
  lastError: string | null;
  /** The member an administrator sends as; null otherwise (or when that account is gone). */
  senderUser: { id: string; name: string | null } | null;
}

async function toViews(db: Db, entries: Entry[]): Promise<ScheduledView[]> {
  const ids = [...new Set(entries.flatMap((e) => [...e.recipients, ...(e.senderUserId ? [e.senderUserId] : [])]))];
  const names = new Map<string, string | null>();
  if (ids.length > 0) {
    const rows = await db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, ids));
    for (const r of rows) names.set(r.id, r.name);
  }
  return entries.map((e) => ({
    id: e.id,
    type: e.type,
    recipients: e.recipients.map((id) => ({ id, name: names.get(id) ?? null })),
    content: e.content,
    scheduledAt: e.scheduledAt,
    createdAt: e.createdAt,
    source: e.source,
    status: e.status,
    lastError: e.lastError,
    senderUser:
      e.senderUserId && names.has(e.senderUserId)
        ? { id: e.senderUserId, name: names.get(e.senderUserId) ?? null }
        : null,
  }));
}

// ---- sending one entry -----------------------------------------------------------------------

/** Mailbox events of a send, held back until the transaction that made them has committed. */
function heldMailbox(deps: ApiDeps): MailboxEvents & { held: Set<string> } {
  const held = new Set<string>();
  return {
    held,
    publish(userIds) {
      for (const id of userIds) held.add(id);
    },
    changes: (userId, signal) => deps.mailbox.changes(userId, signal),
  };
}

/**
 * The app's tRPC caller acting as `session` on `db` (a transaction). Loaded lazily: root.ts lists
 * this domain's router, so a static import would be a cycle.
 */
let callerModules: Promise<[typeof import("../root"), typeof import("../context")]> | undefined;

async function callerAs(deps: ApiDeps, db: Db, mailbox: MailboxEvents, session: Session) {
  callerModules ??= Promise.all([import("../root"), import("../context")]);
  const [{ createCaller }, { createContextInner }] = await callerModules;
  return createCaller(createContextInner({ ...deps, db, mailbox }, session));
}

/**
 * Sends `entry` as its owner through the procedures a client would call now, on `db` (the
 * caller's transaction: each procedure's own transaction becomes a savepoint of it). Answers the
 * ids of the messages written. Throws what the procedure throws (402 when points are short…).
 */
async function sendEntry(
  deps: ApiDeps,
  db: Db,
  mailbox: MailboxEvents,
  owner: Session,
  entry: Pick<Entry, "senderUserId" | "recipients" | "content" | "relatedMessageId" | "markAsReplied" | "markAsRead">,
): Promise<string[]> {
  const caller = await callerAs(deps, db, mailbox, owner);
  const related = entry.relatedMessageId ?? undefined;
  if (entry.senderUserId) {
    // Send-as-user (spec §7): one call per recipient; the administrator's audit row each time.
    const ids: string[] = [];
    for (const toUserId of entry.recipients) {
      const result = await caller.adminMessages.sendAsUser({
        fromUserId: entry.senderUserId,
        toUserId,
        body: entry.content,
        ...(related && entry.markAsReplied ? { replyToId: related } : {}),
      });
      ids.push(result.messageId);
    }
    return ids;
  }
  if (owner.role === "admin") {
    const result = await caller.adminMessages.send({ recipientIds: entry.recipients, body: entry.content });
    // An administrator's reply from the inbox marks the member's message to them.
    if (related && (entry.markAsReplied || entry.markAsRead)) {
      await db
        .update(messages)
        .set({
          ...(entry.markAsReplied ? { hasReply: true } : {}),
          ...(entry.markAsRead ? { isRead: true, readAt: sql`coalesce(${messages.readAt}, now())` } : {}),
        })
        .where(and(eq(messages.id, related), eq(messages.toUserId, owner.id), isNull(messages.deletedAt)));
    }
    return result.messageIds;
  }
  const reply = related && entry.markAsReplied;
  const result = await caller.messages.send({
    recipientIds: entry.recipients,
    body: entry.content,
    ...(reply ? { replyToId: related, markRead: entry.markAsRead } : {}),
  });
  if (related && entry.markAsRead && !entry.markAsReplied) await caller.messages.markRead({ id: related });
  return result.messageIds;
}

/** Thrown to roll a rehearsal back; never leaves this file. */
class Rehearsed {}

/**
 * Sends `entry` in a savepoint and rolls it back: what the procedure refuses now (unknown
 * recipient, writing to oneself, a reply to a message that is not theirs, an administrator as
 * recipient…) is refused when scheduling. Points are not checked here: they are charged, or
 * found short, at send time.
 */
async function rehearse(deps: ApiDeps, tx: Db, owner: Session, entry: Entry): Promise<void> {
  try {
    await tx.transaction(async (sp) => {
      await sendEntry(deps, sp, heldMailbox(deps), owner, entry);
      throw new Rehearsed();
    });
  } catch (error) {
    if (error instanceof Rehearsed) return;
    if (error instanceof TRPCError && error.code === "PAYMENT_REQUIRED") return;
    throw error;
  }
}

// ---- members and administrators ---------------------------------------------------------------

/**
 * Schedules a message as `session` (its owner). `senderUserId` (send as that member) is for
 * administrators only. A time that is not in the future sends at once (status "sent"); a refusal
 * of that send is the caller's answer and nothing is stored.
 */
export async function createScheduled(
  deps: ApiDeps,
  session: Session,
  input: ScheduledCreateInput,
  now = new Date(),
): Promise<ScheduledView> {
  if (input.senderUserId && session.role !== "admin") throw new AppError("FORBIDDEN", MSG.forbidden);
  const sendNow = input.scheduledAt.getTime() <= now.getTime();
  const mailbox = heldMailbox(deps);
  const entry = await deps.db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(scheduledMessages)
      .values({
        type: input.type,
        ownerId: session.id,
        senderUserId: input.senderUserId ?? null,
        recipients: input.recipientIds,
        content: input.content,
        scheduledAt: input.scheduledAt,
        source: input.source,
        relatedMessageId: input.relatedMessageId ?? null,
        markAsReplied: input.markAsReplied,
        markAsRead: input.markAsRead,
        // The legacy shape's flag; the charge itself always happens at send time, in messages.send.
        needsPointDeduction: session.role === "user",
      })
      .returning();
    if (!inserted) throw new Error("scheduled message insert returned nothing");
    if (!sendNow) {
      await rehearse(deps, tx, session, inserted);
      return inserted;
    }
    const messageIds = await sendEntry(deps, tx, mailbox, session, inserted);
    const [sent] = await tx
      .update(scheduledMessages)
      .set({ status: "sent", sentAt: sql`now()`, attempts: 1, messageIds })
      .where(eq(scheduledMessages.id, inserted.id))
      .returning();
    return sent ?? inserted;
  });
  deps.mailbox.publish(mailbox.held);
  const [view] = await toViews(deps.db, [entry]);
  return view as ScheduledView;
}

const VISIBLE: ScheduledStatus[] = ["pending", "failed"];

/** The caller's own entries still to send or failed (sent and cancelled ones leave the list), soonest first. */
export async function listScheduled(db: Db, session: Session, input: { source?: ScheduledSource | undefined }) {
  const where: Array<SQL | undefined> = [
    eq(scheduledMessages.ownerId, session.id),
    inArray(scheduledMessages.status, VISIBLE),
    input.source ? eq(scheduledMessages.source, input.source) : undefined,
  ];
  const rows = await db
    .select()
    .from(scheduledMessages)
    .where(and(...where))
    .orderBy(asc(scheduledMessages.scheduledAt), asc(scheduledMessages.id));
  return toViews(db, rows);
}

/**
 * The owner cancels an entry still pending (or a failed one, which removes it from the list).
 * One statement that locks the row: racing the dispatcher, exactly one of them wins — a row being
 * sent is waited for and is then no longer pending (NOT_FOUND), a cancelled row is never claimed.
 * Anyone else's entry, or one already sent or cancelled, is NOT_FOUND.
 */
/**
 * Cancels a pending (or failed) entry. A member cancels only their own; the back-office is shared,
 * so an administrator may cancel any administrator's entry (the user-management panel lists them
 * all), and cancelling a colleague's is audited. Anything else is NOT_FOUND.
 */
export async function cancelScheduled(db: Db, session: Session, id: string): Promise<void> {
  const owner =
    session.role === "admin"
      ? inArray(scheduledMessages.ownerId, db.select({ id: users.id }).from(users).where(eq(users.role, "admin")))
      : eq(scheduledMessages.ownerId, session.id);
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(scheduledMessages)
      .set({ status: "cancelled" })
      .where(and(eq(scheduledMessages.id, id), owner, inArray(scheduledMessages.status, VISIBLE)))
      .returning({ id: scheduledMessages.id, ownerId: scheduledMessages.ownerId });
    if (!row) throw new AppError("NOT_FOUND", MSG.notFound);
    if (session.role === "admin" && row.ownerId !== session.id) {
      await writeAudit(tx, {
        adminId: session.id,
        action: "scheduled.cancel",
        targetType: "scheduled_message",
        targetId: id,
        details: { ownerId: row.ownerId },
      });
    }
  });
}

/** Every administrator's pending entries (the user-management panel), soonest first. */
export async function listAdminPending(db: Db): Promise<ScheduledView[]> {
  const rows = await db
    .select({ entry: scheduledMessages })
    .from(scheduledMessages)
    .innerJoin(users, eq(users.id, scheduledMessages.ownerId))
    .where(and(eq(scheduledMessages.status, "pending"), eq(users.role, "admin")))
    .orderBy(asc(scheduledMessages.scheduledAt), asc(scheduledMessages.id));
  return toViews(
    db,
    rows.map((r) => r.entry),
  );
}

// ---- the dispatcher ---------------------------------------------------------------------------

export type DispatchOutcome = "sent" | "failed";

/**
 * Claims one due entry (skipping those another instance holds), sends it as its owner and marks
 * it, all in one transaction. Answers null when nothing is due. A refused send (points short at
 * this moment, a recipient who left…) marks the entry failed with the Japanese message and charges
 * nothing; the procedures' writes are in a savepoint that is rolled back.
 */
export async function dispatchOne(deps: ApiDeps, log?: JobLog): Promise<DispatchOutcome | null> {
  const mailbox = heldMailbox(deps);
  const outcome = await deps.db.transaction(async (tx): Promise<DispatchOutcome | null> => {
    const [entry] = await tx
      .select()
      .from(scheduledMessages)
      .where(and(eq(scheduledMessages.status, "pending"), lte(scheduledMessages.scheduledAt, sql`now()`)))
      .orderBy(asc(scheduledMessages.scheduledAt), asc(scheduledMessages.id))
      .limit(1)
      .for("update", { skipLocked: true });
    if (!entry) return null;
    const [owner] = await tx
      .select({ id: users.id, role: users.role })
      .from(users)
      .where(and(eq(users.id, entry.ownerId), isNull(users.deletedAt)));
    let messageIds: string[] | null = null;
    let lastError: string | null = null;
    if (!owner) {
      lastError = MSG.scheduledSenderGone;
    } else {
      try {
        messageIds = await tx.transaction((sp) => sendEntry(deps, sp, mailbox, owner, entry));
      } catch (error) {
        const mapped = toTRPCError(error);
        if (mapped.code === "INTERNAL_SERVER_ERROR") {
          log?.error({ err: mapped.cause ?? error, scheduledId: entry.id }, "scheduled message failed");
        }
        lastError = publicMessage(mapped);
      }
    }
    await tx
      .update(scheduledMessages)
      .set(
        messageIds
          ? {
              status: "sent",
              sentAt: sql`now()`,
              messageIds,
              lastError: null,
              attempts: sql`${scheduledMessages.attempts} + 1`,
            }
          : { status: "failed", lastError, attempts: sql`${scheduledMessages.attempts} + 1` },
      )
      .where(eq(scheduledMessages.id, entry.id));
    return messageIds ? "sent" : "failed";
  });
  if (outcome === "sent") deps.mailbox.publish(mailbox.held);
  return outcome;
}

/** Sends every due entry, one transaction each, until none is left (or `max` were handled). */
export async function dispatchDue(
  deps: ApiDeps,
  log?: JobLog,
  { max = 1000 }: { max?: number } = {},
): Promise<{ sent: number; failed: number }> {
  const counts = { sent: 0, failed: 0 };
  while (counts.sent + counts.failed < max) {
    const outcome = await dispatchOne(deps, log);
    if (!outcome) break;
    counts[outcome] += 1;
  }
  return counts;
}
