import { type Db, pointCosts, rowsOf, scheduledMessages, users } from "@enmusubi/db";
import {
  insufficientPoints,
  MSG,
  type ScheduledCreateInput,
  type ScheduledSource,
  type ScheduledStatus,
} from "@enmusubi/shared";
import { and, asc, eq, inArray, type SQL, sql } from "drizzle-orm";
import { writeAudit } from "../audit/audit-log";
import type { ApiDeps, Session } from "../deps";
import { AppError } from "../errors";
import { heldMailbox, rehearse, sendEntry } from "./send";
import { type ScheduledView, toViews } from "./views";

/*
 * A member's or an administrator's own entries: scheduling (bounded in number and in cost for a
 * member), listing and cancelling; the administrators' shared list. An entry is what its owner may
 * send now: it is rehearsed through the same send (send.ts) when stored.
 */

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
    const messageIds = await sendEntry(tx, mailbox, session, inserted, await deps.screening.current(tx));
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
