import { type Db, messages } from "@enmusubi/db";
import { MSG } from "@enmusubi/shared";
import { and, eq, isNull, sql } from "drizzle-orm";
import { AppError } from "../errors";
import type { Charge } from "../points/charge";
import { assertMayOpen, type Viewer } from "../verification/gate";
import { oneOfMine } from "./mailbox";
import { type Row, selectMessages } from "./message-rows";
import { isSealedFor, type MailboxMessage, toMailboxMessage } from "./sealed";

/**
 * A member opens a message (`messages.open`, unread_mail_view; decision 0027). Another
 * member's message to the viewer is charged the first time it is opened: `opened_at` is set by a
 * conditional update (`where opened_at is null … returning`), and only the call whose update set
 * it pays, so concurrent opens charge once. Everything else is answered free (quantity 0): the
 * operator's messages, one's own sent messages, a message opened before (or read before the
 * charge existed: migration 0028 backfilled those), and any open while the cost is 0. Opening a
 * received message also marks it read.
 *
 * Before any charge: a message that is not the viewer's, deleted, or exchanged with a member
 * blocked either way is NOT_FOUND; a member's message to a member not age-verified is FORBIDDEN
 * (decision 0006). Not enough points: PAYMENT_REQUIRED from the charge, and the update rolls back
 * with it (nothing opened, nothing read).
 */
export async function openMessage(
  tx: Db,
  charge: Charge,
  viewer: Viewer,
  id: string,
): Promise<{ message: MailboxMessage & { locked: false }; charged: boolean; remainingPoints: number }> {
  const userId = viewer.id;
  const [row] = (await selectMessages(tx, oneOfMine(userId, id))) as Row[];
  if (!row) throw new AppError("NOT_FOUND", MSG.notFound);
  assertMayOpen(viewer, toMailboxMessage(userId, row));
  let firstOpen = false;
  if (row.toId === userId) {
    // Opened and read in one statement; a concurrent open waits for this row and then finds it opened.
    const opened = await tx
      .update(messages)
      .set({ openedAt: sql`now()`, isRead: true, readAt: sql`coalesce(${messages.readAt}, now())` })
      .where(and(eq(messages.id, id), isNull(messages.openedAt), isNull(messages.deletedAt)))
      .returning({ openedAt: messages.openedAt });
    firstOpen = opened.length > 0 && isSealedFor(userId, row);
  }
  const result = await charge({ quantity: firstOpen ? 1 : 0, reference: id });
  const isRead = row.toId === userId ? true : row.isRead;
  return {
    message: { ...toMailboxMessage(userId, { ...row, isRead, openedAt: row.openedAt ?? new Date() }), locked: false },
    charged: result.required > 0,
    remainingPoints: result.remainingPoints,
  };
}
