import { type Db, mailOutbox, messageNotices, rowsOf } from "@enmusubi/db";
import { MSG, type Role, type VerificationStatus } from "@enmusubi/shared";
import { inArray, sql } from "drizzle-orm";
import { newMessagesMail } from "../mail/templates";
import { isVerified } from "../verification/standing";
import type { LinkSigner } from "./links";

/** At most one notice per member in this many minutes (decision 0033). */
export const NOTICE_WINDOW_MINUTES = 15;
/**
 * A member active this recently has the site open: no notice now, the job looks again later and
 * sends one only for what is still unread. Twice the activity refresh (LAST_ACTIVE_REFRESH_MINUTES,
 * 5): a member making requests is never older than that; the live stream refreshes it too.
 */
export const NOTICE_LIVE_MINUTES = 10;
/** How soon a live member's pending notice is looked at again. */
const LIVE_RECHECK_MINUTES = 2;
/** Names listed in a notice; the rest are counted (「ほか2人」). */
const NAMES_SHOWN = 3;

interface NoticeDeps {
  db: Db;
  links: LinkSigner;
  publicUrl: string;
  noticeLiveMinutes?: number;
}

interface DueRow {
  user_id: string;
  enabled: boolean;
  pending_since: string | Date;
  stop_version: number;
  email: string;
  role: Role;
  verification_status: VerificationStatus;
  suspended: boolean;
  deleted: boolean;
  live: boolean;
}

interface SenderRow {
  user_id: string;
  sender_id: string;
  sender_name: string | null;
  sender_role: Role;
  count: number;
}

const minutes = (now: Date, n: number) => new Date(now.getTime() + n * 60_000);

/**
 * Turns due pending notices into outbox mails, one batch in one transaction: the rows are claimed
 * `FOR UPDATE SKIP LOCKED`, so workers and instances running this at once share the rows and a
 * member gets one notice; a sender's trigger waits for the claim to end and adds on top. Per row:
 * nothing to whom may not get one (notices off, not a member, suspended, deleted or withdrawn, not
 * age verified: their pending count is dropped); later to a member on the site now; nothing when
 * everything pending has been read meanwhile; else one mail naming the senders and the number of
 * unread messages (never a body), and the window starts. Answers how many rows it handled and mails.
 */
export async function sendDueNotices(
  deps: NoticeDeps,
  options: { now?: Date; batch?: number } = {},
): Promise<{ claimed: number; mailed: number }> {
  const now = options.now ?? new Date();
  const batch = options.batch ?? 200;
  return deps.db.transaction(async (tx) => {
    const due = await rowsOf<DueRow>(
      tx,
      sql`select n.user_id, n.enabled, n.pending_since, n.stop_version, u.email, u.role, u.verification_status,
                 u.suspended_at is not null as suspended, u.deleted_at is not null as deleted,
                 coalesce(u.last_active_at > ${minutes(now, -(deps.noticeLiveMinutes ?? NOTICE_LIVE_MINUTES)).toISOString()}::timestamptz, false) as live
          from ${messageNotices} n join users u on u.id = n.user_id
          where n.pending_count > 0 and n.due_at <= ${now.toISOString()}::timestamptz
          order by n.due_at
          limit ${batch}
          for update of n skip locked`,
    );
    if (due.length === 0) return { claimed: 0, mailed: 0 };
    const drop: string[] = [];
    const later: string[] = [];
    const candidates: DueRow[] = [];
    for (const row of due) {
      const may = row.enabled && row.role === "user" && !row.suspended && !row.deleted;
      if (!may || !isVerified(row.verification_status)) drop.push(row.user_id);
      else if (row.live) later.push(row.user_id);
      else candidates.push(row);
    }
    const senders = candidates.length === 0 ? [] : await unreadSenders(tx, candidates);
    const bySender = new Map<string, SenderRow[]>();
    for (const s of senders) bySender.set(s.user_id, [...(bySender.get(s.user_id) ?? []), s]);
    const mails: Array<typeof mailOutbox.$inferInsert> = [];
    const mailed: string[] = [];
    for (const row of candidates) {
      const from = bySender.get(row.user_id);
      if (!from) {
        drop.push(row.user_id); // all read meanwhile
        continue;
      }
      mails.push({
        ...noticeMail(deps.publicUrl, row.email, from),
        secret: await deps.links.signStop(row.user_id, row.stop_version),
      });
      mailed.push(row.user_id);
    }
    const cleared = { pendingCount: 0, pendingSince: null };
    if (drop.length > 0) await tx.update(messageNotices).set(cleared).where(inArray(messageNotices.userId, drop));
    if (later.length > 0)
      await tx
        .update(messageNotices)
        .set({ dueAt: minutes(now, LIVE_RECHECK_MINUTES) })
        .where(inArray(messageNotices.userId, later));
    if (mailed.length > 0) {
      await tx
        .update(messageNotices)
        .set({ ...cleared, lastNoticeAt: now, dueAt: minutes(now, NOTICE_WINDOW_MINUTES) })
        .where(inArray(messageNotices.userId, mailed));
      await tx.insert(mailOutbox).values(mails);
    }
    return { claimed: due.length, mailed: mailed.length };
  });
}

/** Per member, who wrote the still unread messages received since their notice became pending. */
function unreadSenders(tx: Db, rows: DueRow[]) {
  const since = rows.map((r) => sql`(${r.user_id}::uuid, ${new Date(r.pending_since).toISOString()}::timestamptz)`);
  return rowsOf<SenderRow>(
    tx,
    sql`select m.to_user_id as user_id, m.from_user_id as sender_id, s.name as sender_name, s.role as sender_role,
               count(*)::int as count
        from (values ${sql.join(since, sql`, `)}) as p(user_id, since)
        join messages m on m.to_user_id = p.user_id and m.created_at >= p.since
                       and m.deleted_at is null and m.is_read = false
        join users s on s.id = m.from_user_id
        group by m.to_user_id, m.from_user_id, s.name, s.role
        order by m.to_user_id, max(m.created_at) desc`,
  );
}

const senderName = (s: SenderRow) =>
  s.sender_role === "admin" ? MSG.boardOperatorName : `${s.sender_name?.trim() || "未設定"}さん`;

/** The notice to `to`: who wrote (the first NAMES_SHOWN by name, the rest counted) and where to read them. */
export function noticeMail(publicUrl: string, to: string, from: SenderRow[]) {
  const total = from.reduce((sum, s) => sum + s.count, 0);
  const names = from.slice(0, NAMES_SHOWN).map(senderName).join("、");
  const others = from.length > NAMES_SHOWN ? ` ほか${from.length - NAMES_SHOWN}人` : "";
  const [only] = from;
  const link =
    from.length === 1 && only ? `${publicUrl}/user/messages/${only.sender_id}` : `${publicUrl}/user/unread-emails`;
  return {
    to,
    ...newMessagesMail(publicUrl, { total, senders: `${names}${others}`, link, windowMinutes: NOTICE_WINDOW_MINUTES }),
  };
}
