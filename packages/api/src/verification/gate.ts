import { type Db, messages, users } from "@enmusubi/db";
import { MSG, type VerificationStatus } from "@enmusubi/shared";
import { and, eq, isNull } from "drizzle-orm";
import { verificationRequired } from "../errors";
import { isVerified } from "./standing";

/**
 * Receiving (reading) a message from another member is one of the four acts of 出会い系サイト規制法
 * art. 11 (decision 0006). Until the viewer is verified, such a message is listed without its body
 * (`locked: true`, the body replaced by a notice) and opening it is FORBIDDEN; messages from
 * administrators, and the viewer's own sent messages, stay readable. One rule for tRPC and REST:
 * both read through messages/mailbox.ts, which calls this.
 */

/** Who reads: the session (its verification state as this request read it). */
export interface Viewer {
  id: string;
  verificationStatus: VerificationStatus;
}

interface Readable {
  body: string;
  from: { id: string; role: "user" | "admin" };
  to: { id: string };
}

/** Locked for `viewerId`: a member's message addressed to the viewer, who is not verified. */
function lockable(viewerId: string, message: Readable): boolean {
  return message.to.id === viewerId && message.from.id !== viewerId && message.from.role === "user";
}

/**
 * The messages as `viewerId` may see them: locked ones carry the notice instead of their body.
 * The messages are the caller's fresh views: each is completed in place (`locked`), not copied (a
 * mailbox page draws 20 of these, decision 0037).
 */
export function lockUnverified<T extends Readable>(viewer: Viewer, messages: T[]): Array<T & { locked: boolean }> {
  const viewerId = viewer.id;
  const open = isVerified(viewer.verificationStatus);
  const shown = messages as Array<T & { locked: boolean }>;
  for (const m of shown) {
    m.locked = !open && lockable(viewerId, m);
    if (m.locked) m.body = MSG.lockedMessageNotice;
  }
  return shown;
}

/** Opening one message (detail, mark read): FORBIDDEN when it is locked for the viewer. */
export function assertMayOpen(viewer: Viewer, message: Readable): void {
  if (lockable(viewer.id, message) && !isVerified(viewer.verificationStatus)) {
    throw verificationRequired();
  }
}

/**
 * Marking a received message read opens it too: FORBIDDEN for a member's message while the viewer
 * is not verified. A message that is not the viewer's is left to the caller (NOT_FOUND there).
 */
export async function assertMayMarkRead(db: Db, viewer: Viewer, messageId: string): Promise<void> {
  const viewerId = viewer.id;
  const [row] = await db
    .select({ fromId: messages.fromUserId, fromRole: users.role })
    .from(messages)
    .innerJoin(users, eq(users.id, messages.fromUserId))
    .where(and(eq(messages.id, messageId), eq(messages.toUserId, viewerId), isNull(messages.deletedAt)));
  if (!row) return;
  assertMayOpen(viewer, { body: "", from: { id: row.fromId, role: row.fromRole }, to: { id: viewerId } });
}
