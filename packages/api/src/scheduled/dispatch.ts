import { type Db, scheduledMessages, users } from "@enmusubi/db";
import { MSG } from "@enmusubi/shared";
import { and, asc, eq, inArray, isNull, lte, sql } from "drizzle-orm";
import type { JobLog } from "../background-job";
import type { ApiDeps } from "../deps";
import { publicMessage, toTRPCError } from "../errors";
import { sendManyAsMembers } from "../messages/send";
import { chargeBatch } from "../points/batch";
import { recordRefusal, ScreeningRefusal } from "../screening/screen";
import { callsOf, heldMailbox, type Owner, ownerRefusal, sendEntry } from "./send";
import type { Entry } from "./views";

/*
 * The dispatcher: claims due entries and sends each as its owner, by the rules of sending now
 * (send.ts), through the services and the charging pair (points/charge.ts one at a time,
 * points/batch.ts for a batch of members' plain sends). Claiming a due row (`FOR UPDATE SKIP
 * LOCKED`), sending it and marking it happen in one transaction: a crash rolls all three back
 * (the row is sent by the next run, never twice), and several instances never send one row twice.
 */

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
 * sent in a savepoint of its own through the services a request uses (send.ts: the same standing,
 * rules and charges as sending now), so a refused send (points short at this moment, a recipient who left…)
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
    const owners = new Map<string, Owner>(
      (
        await tx
          .select({
            id: users.id,
            role: users.role,
            verificationStatus: users.verificationStatus,
            suspended: sql<boolean>`${users.suspendedAt} is not null`,
          })
          .from(users)
          .where(and(inArray(users.id, ownerIds), isNull(users.deletedAt)))
      ).map((o) => [o.id, o]),
    );
    const handled: Handled[] = [];
    // The screening rules in force now: an entry is screened again when it goes out (decision 0042).
    const rules = await deps.screening.current(tx);
    // A member's plain sends (no reply, no send-as) go out together, set-based (`sendManyAsMembers`
    // with `chargeBatch`):
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
      // The standing a request of the owner's would need (the procedure builders' rule), with its message.
      const refusal = ownerRefusal(owner);
      if (refusal) {
        handled.push({ id: entry.id, messageIds: null, lastError: failure(refusal, entry.id, log) });
        continue;
      }
      if (!careful && owner.role === "user" && plain(entry) && !mixed.has(entry.ownerId)) {
        together.push(entry);
        continue;
      }
      try {
        // An entry of one service write needs no savepoint of its own: the service writes in its
        // own transaction (a refusal rolls back only them). Only a database error in a read outside
        // it would spoil the batch: then the batch rolls back whole, nothing is sent twice, and
        // dispatchDue retries "careful" (a savepoint around every entry).
        const messageIds =
          careful || callsOf(entry) > 1
            ? await tx.transaction((sp) => sendEntry(sp, mailbox, owner, entry, rules))
            : await sendEntry(tx, mailbox, owner, entry, rules);
        handled.push({ id: entry.id, messageIds, lastError: null });
      } catch (error) {
        if (isTransient(error)) {
          log?.info({ scheduledId: entry.id }, "scheduled message deferred (lock conflict); retried next run");
          continue;
        }
        // Refused by screening: the refusal is recorded (without the text) with the entry's failure.
        if (error instanceof ScreeningRefusal)
          await recordRefusal(tx, new ScreeningRefusal(error.userId, error.category, "scheduled"));
        handled.push({ id: entry.id, messageIds: null, lastError: failure(error, entry.id, log) });
      }
    }
    if (together.length > 0) {
      // The batch half of the charging pair, bound to send_message.
      const outcomes = await sendManyAsMembers(
        tx,
        (charges) => chargeBatch(tx, "send_message", charges),
        together.map((e) => ({ senderId: e.ownerId, recipientIds: e.recipients, body: e.content })),
        rules,
      );
      together.forEach((entry, n) => {
        const outcome = outcomes[n];
        if (!outcome || outcome instanceof Error) {
          handled.push({ id: entry.id, messageIds: null, lastError: failure(outcome, entry.id, log) });
          return;
        }
        handled.push({ id: entry.id, messageIds: outcome.messageIds, lastError: null });
        mailbox.publish(outcome.held ? [entry.ownerId] : [...entry.recipients, entry.ownerId]);
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
