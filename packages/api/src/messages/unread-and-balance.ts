import type { Db } from "@enmusubi/db";
import { touchActive } from "../members/activity";
import { type Credit, recentCredits } from "../payments/credits";
import type { MailboxEvents, MemberChange } from "./events";
import { liveStateOf } from "./mailbox";

/**
 * What the member's live stream carries (decision 0031): what the header shows, the unread count
 * and the balance, with what changed (`"start"` for the figures when the stream opens) and the
 * payments credited since it opened, each once (the screen's 「{n}ポイントが加算されました」).
 */
export interface UnreadAndBalance {
  count: number;
  points: number;
  change: MemberChange | "start";
  credited: Credit[];
}

/**
 * The member's unread count and balance now, then again after every change of their mailbox or
 * balance, on whichever process it happened (`mailbox`), until `signal` aborts or the member can
 * no longer sign in. Served over SSE by `messages.onUnreadCount` (no polling; decision 0005).
 */
export async function* unreadAndBalance(
  db: Db,
  mailbox: MailboxEvents,
  userId: string,
  signal: AbortSignal | undefined,
): AsyncGenerator<UnreadAndBalance, void> {
  // Listening starts before the first figures are read, so a change in between is not missed.
  const changes = mailbox.changes(userId, signal);
  const first = await liveStateOf(db, userId);
  if (first === null) return;
  // An open stream is the site open: no notice mail meanwhile (decision 0033). Refreshed at most
  // once per LAST_ACTIVE_REFRESH_MINUTES, at the opening and when something arrives.
  await touchActive(db, userId);
  // Credited before the stream opened: already in the balance read above, not announced.
  const seen = new Set((await recentCredits(db, userId)).map((c) => c.transactionId));
  yield { ...first, change: "start", credited: [] };
  for await (const change of changes) {
    // Suspended or deleted since the stream opened (both announce it on the member's channel,
    // on every instance): the stream ends, as the member's token no longer works.
    const state = await liveStateOf(db, userId);
    if (state === null) return;
    if (change === "mailbox") await touchActive(db, userId);
    const credited =
      change === "balance" ? (await recentCredits(db, userId)).filter((c) => !seen.has(c.transactionId)) : [];
    for (const c of credited) seen.add(c.transactionId);
    yield { ...state, change, credited };
  }
}
