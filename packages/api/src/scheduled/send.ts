import { type Db, messages } from "@enmusubi/db";
import { adminSendInput, memberSendInput, sendAsUserInput } from "@enmusubi/shared";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { z } from "zod";
import type { ApiDeps } from "../deps";
import { AppError, invalidInput } from "../errors";
import { sendAsAdmin, sendAsUser } from "../messages/admin-service";
import type { MailboxEvents } from "../messages/events";
import { markRead } from "../messages/mailbox";
import { sendAsMember } from "../messages/send";
import { payForAction } from "../points/charge";
import type { RuleSet } from "../screening/matcher";
import { type Standing, standingRefusal } from "../verification/standing";
import type { Entry } from "./views";

/**
 * Sending one entry as its owner, by the rules of sending now: the same standing
 * (`standingRefusal`, the procedure builders' rule), the same input schemas, the same services and,
 * for a member, the same charging door as `messages.send` (`payForAction`: charged at send time,
 * 402 when points are short). No router, caller or tRPC error is involved (docs/decisions/0021).
 */

/** The owner of an entry, as the dispatcher (or the request scheduling it) read them. */
export interface Owner extends Standing {
  id: string;
}

/** Why `owner` may not send now (suspended, not verified…), or null: what a request of theirs would be told. */
export function ownerRefusal(owner: Owner): AppError | null {
  return standingRefusal(owner, owner.role === "admin" ? { role: "admin" } : { role: "user", verified: true });
}

/** Mailbox events of a send, held back until the transaction that made them has committed. */
export function heldMailbox(deps: ApiDeps): MailboxEvents & { held: Set<string> } {
  const held = new Set<string>();
  return {
    held,
    publish(userIds) {
      for (const id of userIds) held.add(id);
    },
    changes: (userId, signal) => deps.mailbox.changes(userId, signal),
  };
}

/** The input a request would have sent, checked by the procedure's own schema (a Japanese 400 when refused). */
function inputOf<S extends z.ZodType>(schema: S, value: z.input<S>): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalidInput(parsed.error);
  return parsed.data;
}

type Sendable = Pick<
  Entry,
  "senderUserId" | "recipients" | "content" | "relatedMessageId" | "markAsReplied" | "markAsRead"
>;

/**
 * Sends `entry` as `owner` on `db` (the caller's transaction: each service's own transaction
 * becomes a savepoint of it). Answers the ids of the messages written. Throws what a request would
 * be answered (402 when points are short, FORBIDDEN when not verified…).
 */
export async function sendEntry(
  db: Db,
  mailbox: MailboxEvents,
  owner: Owner,
  entry: Sendable,
  rules: RuleSet,
): Promise<string[]> {
  const refusal = ownerRefusal(owner);
  if (refusal) throw refusal;
  const related = entry.relatedMessageId ?? undefined;
  if (entry.senderUserId) {
    // Send-as-user (spec §7): one send per recipient; the administrator's audit row each time.
    const ids: string[] = [];
    for (const toUserId of entry.recipients) {
      const input = inputOf(sendAsUserInput, {
        fromUserId: entry.senderUserId,
        toUserId,
        body: entry.content,
        ...(related && entry.markAsReplied ? { replyToId: related } : {}),
      });
      const result = await sendAsUser(db, owner.id, input);
      mailbox.publish([input.fromUserId, input.toUserId]);
      ids.push(result.messageId);
    }
    return ids;
  }
  if (owner.role === "admin") {
    // An administrator's reply from the inbox marks the member's message read and replied (spec §4).
    const input = inputOf(adminSendInput, {
      recipientIds: entry.recipients,
      body: entry.content,
      ...(related && entry.markAsReplied ? { replyToId: related } : {}),
    });
    const result = await sendAsAdmin(db, owner.id, input);
    mailbox.publish(input.recipientIds);
    if (related && entry.markAsRead && !entry.markAsReplied) {
      await db
        .update(messages)
        .set({ isRead: true, readAt: sql`coalesce(${messages.readAt}, now())` })
        .where(and(eq(messages.id, related), eq(messages.toUserId, owner.id), isNull(messages.deletedAt)));
    }
    return result.messageIds;
  }
  const input = inputOf(memberSendInput, {
    recipientIds: entry.recipients,
    body: entry.content,
    ...(related && entry.markAsReplied ? { replyToId: related, markRead: entry.markAsRead } : {}),
  });
  // The single charging door, as `messages.send` (a paid procedure) goes through it.
  const result = await payForAction(db, { userId: owner.id, action: "send_message" }, (tx, charge) =>
    sendAsMember(tx, charge, owner.id, input, rules),
  );
  mailbox.publish(result.status === "held" ? [owner.id] : [...input.recipientIds, owner.id]);
  if (related && entry.markAsRead && !entry.markAsReplied) {
    const { fromUserId } = await markRead(db, owner, related);
    // The sender's 送信 list shows it 既読.
    mailbox.publish([owner.id, fromUserId]);
  }
  return result.messageIds;
}

/**
 * Writes `sendEntry` makes for `entry` in transactions of their own. One is atomic by itself (a
 * savepoint of the caller's); several need a savepoint around them.
 */
export function callsOf(entry: Entry): number {
  if (entry.senderUserId) return entry.recipients.length;
  const markOnly = entry.relatedMessageId && entry.markAsRead && !entry.markAsReplied;
  return markOnly ? 2 : 1;
}

/** Thrown to roll a rehearsal back; never leaves this file. */
class Rehearsed {}

/**
 * Sends `entry` in a savepoint and rolls it back: what a send refuses now (unknown recipient,
 * writing to oneself, a reply to a message that is not theirs, an administrator as recipient…) is
 * refused when scheduling. Points are not checked here: they are charged, or found short, at send
 * time.
 */
export async function rehearse(deps: ApiDeps, tx: Db, owner: Owner, entry: Entry): Promise<void> {
  try {
    await tx.transaction(async (sp) => {
      await sendEntry(sp, heldMailbox(deps), owner, entry, await deps.screening.current(sp));
      throw new Rehearsed();
    });
  } catch (error) {
    if (error instanceof Rehearsed) return;
    if (error instanceof AppError && error.code === "PAYMENT_REQUIRED") return;
    throw error;
  }
}
