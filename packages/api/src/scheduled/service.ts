import {
  type Db,
  messages,
  pointCosts,
  rowsOf,
  scheduledMessages,
  type scheduledSourceEnum,
  users,
} from "@enmusubi/db";
import {
  insufficientPoints,
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
import { sendManyAsMembers } from "../messages/send";

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
    // An administrator's reply from the inbox marks the member's message read and replied (spec §4).
    const reply = related && entry.markAsReplied;
    const result = await caller.adminMessages.send({
      recipientIds: entry.recipients,
      body: entry.content,
      ...(reply ? { replyToId: related } : {}),
    });
    if (related && entry.markAsRead && !entry.markAsReplied) {
      await db
        .update(messages)
        .set({ isRead: true, readAt: sql`coalesce(${messages.readAt}, now())` })
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

/**
 * Procedure calls `sendEntry` makes for `entry`. One call is atomic by itself (each procedure
 * writes in its own transaction, a savepoint of the caller's); several need a savepoint around them.
 */
function callsOf(entry: Entry): number {
  if (entry.senderUserId) return entry.recipients.length;
  const markOnly = entry.relatedMessageId && entry.markAsRead && !entry.markAsReplied;
  return markOnly ? 2 : 1;
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

/** Entries a member may have waiting (pending) at once; sending at once is not waiting. */
export const SCHEDULED_PENDING_MAX = 30;

/** Statuses of an entry that will still be sent (and charged). */
const WAITING: ScheduledStatus[] = ["pending", "sending"];

/**
 * Before a member's future entry is stored, in its transaction: the member's creations are taken
 * one at a time (a transaction-scoped advisory lock per member), so concurrent ones cannot
 * overtake the cap. Refused with CONFLICT when SCHEDULED_PENDING_MAX entries already wait.
 */
async function lockAndCountPending(tx: Db, memberId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`scheduled:${memberId}`}, 0))`);
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(scheduledMessages)
    .where(and(eq(scheduledMessages.ownerId, memberId), inArray(scheduledMessages.status, WAITING)));
  if ((row?.n ?? 0) >= SCHEDULED_PENDING_MAX) throw new AppError("CONFLICT", MSG.scheduledPendingLimit);
}

/**
 * After the new entry is stored (still under the lock): every waiting entry of the member, the new
 * one included, at today's send_message price per member recipient (writing to an administrator
 * is free), may not cost more than the member holds; else PAYMENT_REQUIRED with the figures, and
 * the transaction rolls back. They are charged when sent; this keeps a member from scheduling what
 * they cannot pay.
 */
async function refuseUnaffordable(tx: Db, memberId: string): Promise<void> {
  const [state] = await rowsOf<{ units: number; cost: number | null; points: number | null }>(
    tx,
    sql`select
          (select count(*)::int
             from ${scheduledMessages} s
             cross join lateral unnest(s.recipients) as r(id)
             join ${users} u on u.id = r.id and u.role = 'user' and u.deleted_at is null
            where s.owner_id = ${memberId} and s.status in ('pending', 'sending')) as units,
          (select c.point_cost from ${pointCosts} c where c.action_name = 'send_message') as cost,
          (select m.points from ${users} m where m.id = ${memberId}) as points`,
  );
  const required = (state?.units ?? 0) * (state?.cost ?? 0);
  const available = state?.points ?? 0;
  if (required > available) {
    throw new AppError("PAYMENT_REQUIRED", insufficientPoints(required, available), {
      details: { success: false, required, available },
    });
  }
}

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
  // A member's entry that waits is bounded in number and in cost (see the two checks).
  const bounded = !sendNow && session.role === "user";
  const entry = await deps.db.transaction(async (tx) => {
    if (bounded) await lockAndCountPending(tx, session.id);
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
      if (bounded) await refuseUnaffordable(tx, session.id);
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

/** Due rows one transaction claims (FOR UPDATE SKIP LOCKED … LIMIT): fewer commits and round trips. */
export const DISPATCH_CLAIM = 200;

/**
 * Errors of the moment, not of the row: a deadlock between two instances' batches charging the
 * same members in another order, a serialization failure, a lock timeout. Their savepoint is
 * rolled back (which releases what it locked) and the row stays pending for the next run.
 */
const TRANSIENT = new Set(["40P01", "40001", "55P03"]);

function isTransient(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && TRANSIENT.has(code)) return true;
  }
  return false;
}

/** The Japanese message an entry fails with (a database error is logged and shown generically). */
function failure(error: unknown, scheduledId: string, log?: JobLog): string {
  const mapped = toTRPCError(error);
  if (mapped.code === "INTERNAL_SERVER_ERROR")
    log?.error({ err: mapped.cause ?? error, scheduledId }, "scheduled message failed");
  return publicMessage(mapped);
}

interface Handled {
  id: string;
  messageIds: string[] | null;
  lastError: string | null;
}

/**
 * Claims up to `limit` due entries (skipping those another instance holds), sends each as its
 * owner and marks them, all in one transaction; answers null when nothing is due. Each entry is
 * sent in a savepoint of its own through the owner's tRPC caller (the same procedures, rules and
 * charges as sending now), so a refused send (points short at this moment, a recipient who left…)
 * rolls back only its own writes: that entry is marked failed with the Japanese message and
 * charges nothing, and the others go on. The marks are one statement at the end: a crash before
 * the commit rolls back sends and marks together (the rows are sent by a later run, never twice),
 * and two instances never claim the same row.
 */
export async function dispatchBatch(
  deps: ApiDeps,
  log?: JobLog,
  limit = DISPATCH_CLAIM,
  { careful = false }: { careful?: boolean } = {},
): Promise<{ sent: number; failed: number } | null> {
  const mailbox = heldMailbox(deps);
  const result = await deps.db.transaction(async (tx) => {
    const entries = await tx
      .select()
      .from(scheduledMessages)
      .where(and(eq(scheduledMessages.status, "pending"), lte(scheduledMessages.scheduledAt, sql`now()`)))
      .orderBy(asc(scheduledMessages.scheduledAt), asc(scheduledMessages.id))
      .limit(limit)
      .for("update", { skipLocked: true });
    if (entries.length === 0) return null;
    // The owners of the whole batch in one read (a deleted owner's entries fail, a suspended one's too).
    const ownerIds = [...new Set(entries.map((e) => e.ownerId))];
    const owners = new Map(
      (
        await tx
          .select({
            id: users.id,
            role: users.role,
            verificationStatus: users.verificationStatus,
            suspendedAt: users.suspendedAt,
          })
          .from(users)
          .where(and(inArray(users.id, ownerIds), isNull(users.deletedAt)))
      ).map((o) => [o.id, o]),
    );
    const handled: Handled[] = [];
    // A member's plain sends (no reply, no send-as) go out together, set-based (`sendManyAsMembers`):
    // a few statements for the whole batch instead of a dozen per entry. A member with any other
    // kind of entry in the batch keeps all theirs on the per-entry path, so their charges stay in
    // the order of their entries.
    const plain = (e: Entry) => !e.senderUserId && !e.relatedMessageId;
    const mixed = new Set(entries.filter((e) => !plain(e)).map((e) => e.ownerId));
    const together: Entry[] = [];
    for (const entry of entries) {
      const owner = owners.get(entry.ownerId);
      if (!owner) {
        handled.push({ id: entry.id, messageIds: null, lastError: MSG.scheduledSenderGone });
        continue;
      }
      if (owner.suspendedAt) {
        handled.push({ id: entry.id, messageIds: null, lastError: MSG.accountSuspended });
        continue;
      }
      if (!careful && owner.role === "user" && plain(entry) && !mixed.has(entry.ownerId)) {
        // The standing `verifiedProcedure` asks of messages.send, with its message.
        if (owner.verificationStatus === "verified") together.push(entry);
        else handled.push({ id: entry.id, messageIds: null, lastError: MSG.verificationRequired });
        continue;
      }
      try {
        // An entry of one procedure call needs no savepoint of its own: the procedure's writes are
        // in its own (a refusal rolls back only them). Only a database error in a read outside it
        // (the standing checks) would spoil the batch: then the batch rolls back whole, nothing is
        // sent twice, and dispatchDue retries "careful" (a savepoint around every entry).
        const messageIds =
          careful || callsOf(entry) > 1
            ? await tx.transaction((sp) => sendEntry(deps, sp, mailbox, owner, entry))
            : await sendEntry(deps, tx, mailbox, owner, entry);
        handled.push({ id: entry.id, messageIds, lastError: null });
      } catch (error) {
        if (isTransient(error)) {
          log?.info({ scheduledId: entry.id }, "scheduled message deferred (lock conflict); retried next run");
          continue;
        }
        handled.push({ id: entry.id, messageIds: null, lastError: failure(error, entry.id, log) });
      }
    }
    if (together.length > 0) {
      const outcomes = await sendManyAsMembers(
        tx,
        together.map((e) => ({ senderId: e.ownerId, recipientIds: e.recipients, body: e.content })),
      );
      together.forEach((entry, n) => {
        const outcome = outcomes[n];
        if (!outcome || outcome instanceof Error) {
          handled.push({ id: entry.id, messageIds: null, lastError: failure(outcome, entry.id, log) });
          return;
        }
        handled.push({ id: entry.id, messageIds: outcome.messageIds, lastError: null });
        mailbox.publish([...entry.recipients, entry.ownerId]);
      });
    }
    if (handled.length > 0) await markHandled(tx, handled);
    return {
      sent: handled.filter((h) => h.messageIds).length,
      failed: handled.filter((h) => !h.messageIds).length,
    };
  });
  if (result && result.sent > 0) deps.mailbox.publish(mailbox.held);
  return result;
}

/** Every handled entry of a batch marked sent (with its messages) or failed (with its error), in one statement. */
async function markHandled(tx: Db, handled: Handled[]): Promise<void> {
  const rows = sql.join(
    handled.map(
      (h) => sql`(${h.id}::uuid, ${h.messageIds ? h.messageIds.join(",") : null}::text, ${h.lastError}::text)`,
    ),
    sql`, `,
  );
  await tx.execute(sql`
    update ${scheduledMessages} set
      status = (case when v.message_ids is null then 'failed' else 'sent' end)::scheduled_status,
      sent_at = case when v.message_ids is null then ${scheduledMessages.sentAt} else now() end,
      message_ids = case when v.message_ids is null then ${scheduledMessages.messageIds}
                         else string_to_array(v.message_ids, ',')::uuid[] end,
      last_error = v.last_error,
      attempts = ${scheduledMessages.attempts} + 1,
      updated_at = now()
    from (values ${rows}) as v(id, message_ids, last_error)
    where ${scheduledMessages.id} = v.id`);
}

/** One due entry (a batch of one): what it became, or null when nothing is due. */
export async function dispatchOne(deps: ApiDeps, log?: JobLog): Promise<DispatchOutcome | null> {
  const run = await dispatchBatch(deps, log, 1, { careful: true });
  if (!run || run.sent + run.failed === 0) return null;
  return run.sent > 0 ? "sent" : "failed";
}

/**
 * Sends every due entry, a batch of `batch` per transaction, until none is left (or `max` were
 * handled). A batch whose entries were all deferred (lock conflicts) ends the run; the next run
 * retries them.
 */
export async function dispatchDue(
  deps: ApiDeps,
  log?: JobLog,
  {
    max = 1000,
    batch = DISPATCH_CLAIM,
    careful: alwaysCareful = false,
  }: { max?: number; batch?: number /** A savepoint around every entry from the start. */; careful?: boolean } = {},
): Promise<{ sent: number; failed: number }> {
  const counts = { sent: 0, failed: 0 };
  let careful = alwaysCareful;
  let conflicts = 0;
  while (counts.sent + counts.failed < max) {
    let run: Awaited<ReturnType<typeof dispatchBatch>>;
    try {
      run = await dispatchBatch(deps, log, Math.min(batch, max - counts.sent - counts.failed), { careful });
    } catch (error) {
      // The batch rolled back whole (nothing sent). A lock conflict with another instance's batch
      // (the set-based sends lock their members together): the same batch again, a few times. Any
      // other error: once more with a savepoint around every entry, so an entry that spoils its
      // transaction fails alone; a second failure is the run's.
      if (isTransient(error) && conflicts < 3) {
        conflicts += 1;
        continue;
      }
      if (careful || isTransient(error)) throw error;
      careful = true;
      continue;
    }
    if (!run || run.sent + run.failed === 0) break;
    counts.sent += run.sent;
    counts.failed += run.failed;
  }
  return counts;
}
