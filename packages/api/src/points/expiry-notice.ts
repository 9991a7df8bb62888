import { type Db, pointLots, rowsOf, users } from "@enmusubi/db";
import { POINT_EXPIRY_NOTICE_DAYS } from "@enmusubi/shared";
import { sql } from "drizzle-orm";
import { enqueueMail } from "../mail/outbox";
import { pointsExpiringMail } from "../mail/templates";

/*
 * The notice mail before points expire (decision 0034): POINT_EXPIRY_NOTICE_DAYS days
 * before a lot's expiry, once per lot. A run claims due lots by setting `expiry_notice_at` in the
 * statement that selects them (`FOR UPDATE SKIP LOCKED`), and queues one mail per member for the
 * lots it claimed in the same transaction: two workers never claim the same lot, and a lot whose
 * mail was queued is never told again.
 */

export interface NoticeRun {
  lots: number;
  mails: number;
}

/**
 * One batch: lots with points left that expire within the notice window from `now` and were never
 * told, of members who can sign in (live, not suspended). Answers what it claimed.
 */
export async function sendExpiryNotices(
  deps: { db: Db; publicUrl: string },
  now = new Date(),
  batch = 500,
): Promise<NoticeRun> {
  const at = now.toISOString();
  return deps.db.transaction(async (tx) => {
    const claimed = await rowsOf<{ id: string; userId: string; paid: boolean; remaining: number; expiresAt: Date }>(
      tx,
      sql`update ${pointLots} p set expiry_notice_at = ${at}::timestamptz
          from (
            select l.id from ${pointLots} l
            join ${users} u on u.id = l.user_id and u.deleted_at is null and u.suspended_at is null
            where l.remaining > 0 and l.expiry_notice_at is null
              and l.expires_at > ${at}::timestamptz
              and l.expires_at <= ${at}::timestamptz + make_interval(days => ${POINT_EXPIRY_NOTICE_DAYS})
            order by l.expires_at
            limit ${batch}
            for update of l skip locked
          ) due
          where p.id = due.id
          returning p.id, p.user_id as "userId", p.paid, p.remaining, p.expires_at as "expiresAt"`,
    );
    const byMember = new Map<string, typeof claimed>();
    for (const lot of claimed) {
      const lots = byMember.get(lot.userId) ?? [];
      lots.push({ ...lot, expiresAt: new Date(lot.expiresAt) });
      byMember.set(lot.userId, lots);
    }
    if (byMember.size === 0) return { lots: 0, mails: 0 };
    const owners = await rowsOf<{ id: string; email: string }>(
      tx,
      sql`select id, email from ${users} where id in (${sql.join(
        [...byMember.keys()].map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`,
    );
    for (const owner of owners) {
      const lots = (byMember.get(owner.id) ?? []).sort((a, b) => a.expiresAt.getTime() - b.expiresAt.getTime());
      await enqueueMail(tx, { to: owner.email, ...pointsExpiringMail(deps.publicUrl, lots) });
    }
    return { lots: claimed.length, mails: owners.length };
  });
}
