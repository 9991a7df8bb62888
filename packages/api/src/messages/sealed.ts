import { type Db, pointCosts, users } from "@enmusubi/db";
import { MESSAGE_PREVIEW_CHARS } from "@enmusubi/shared";
import { eq, sql } from "drizzle-orm";
import { prepaidCreditsWaiting } from "../points/prepaid";
import { lockUnverified, type Viewer } from "../verification/gate";
import { type MemberMessage, type Row, toMemberMessage } from "./message-rows";

/**
 * Hidden until paid (decision 0027): another member's message to the viewer is *sealed*
 * until the viewer opens it (`messages.open`, unread_mail_view, which sets `opened_at`). Member
 * views (list, get, the REST rows over them) answer a sealed message without its body: a one-line
 * preview instead. Messages from administrators, the viewer's own sent messages and opened ones
 * are never sealed. Administrators' screens read the rows directly (admin-service.ts) and see all.
 */

/** A message as a member's mailbox answers it: `body` is "" while `sealed`, `preview` then set. */
export type MailboxMessage = MemberMessage & {
  /** The body is withheld until the viewer opens (pays for) it. */
  sealed: boolean;
  /** While sealed: the beginning on one line (`previewOf`); null otherwise. */
  preview: string | null;
};

/**
 * The body's beginning on one line, then "…": MESSAGE_PREVIEW_CHARS characters (code points) at
 * most, and never more than half of the message, so a short message ("よろしく！") is not given
 * away whole by its preview.
 */
export function previewOf(body: string): string {
  const chars = Array.from(body.replace(/\s+/g, " ").trim());
  return `${chars.slice(0, Math.min(MESSAGE_PREVIEW_CHARS, Math.floor(chars.length / 2))).join("")}…`;
}

/** Sealed for `viewerId`: a member's message to the viewer that the viewer has not opened. */
export function isSealedFor(viewerId: string, r: Pick<Row, "toId" | "fromId" | "fromRole" | "openedAt">): boolean {
  return r.toId === viewerId && r.fromId !== viewerId && r.fromRole === "user" && r.openedAt === null;
}

/** The row as `viewerId`'s mailbox shows it: sealed ones without their body. */
export function toMailboxMessage(viewerId: string, r: Row): MailboxMessage {
  // The fresh member view, completed in place (no copy: a page draws 20 of these, decision 0037).
  const message = toMemberMessage(r) as MailboxMessage;
  const sealed = isSealedFor(viewerId, r);
  if (sealed) message.body = "";
  message.sealed = sealed;
  message.preview = sealed ? previewOf(r.body) : null;
  return message;
}

/**
 * Mailbox rows as `viewer` sees them in a list (the mail screens, the conversations): sealed ones
 * with their preview; until the viewer is verified, other members' messages locked, without their
 * body (decision 0006) and without a preview either.
 */
export function shownTo(viewer: Viewer, rows: Row[]): Array<MailboxMessage & { locked: boolean }> {
  const shown = lockUnverified(
    viewer,
    rows.map((r) => toMailboxMessage(viewer.id, r)),
  );
  for (const m of shown) if (m.locked) m.preview = null;
  return shown;
}

/**
 * What `messages.open` of a sealed message takes from `userId`'s balance now: the current
 * unread_mail_view cost from the table (as the charge reads it), 0 while a prepaid deduct-points
 * credit for it waits (the charge uses that first). A quote, not a hold.
 */
export async function openCost(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({
      price: sql<number | null>`(select c.point_cost from ${pointCosts} c where c.action_name = 'unread_mail_view')`,
      prepaid: prepaidCreditsWaiting(userId, "unread_mail_view"),
    })
    .from(users)
    .where(eq(users.id, userId));
  return row && !row.prepaid ? (row.price ?? 0) : 0;
}
