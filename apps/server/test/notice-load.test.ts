import { createLinkSigner, sendDueNotices } from "@enmusubi/api";
import { type Database, rowsOf } from "@enmusubi/db";
import { onPostgres, openTestDatabase } from "@enmusubi/db/testing";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { deliverDueMail, type MailTransport } from "../src/jobs/mail-outbox";

/**
 * New-message notices under load, on PostgreSQL (decision 0033): 10,000 messages to 1,000 members
 * in one window, written by concurrent transactions while four notice workers run, give each
 * member one notice in that window; the next window one more to those written to after their
 * first; the outbox drains every notice once, two deliverers at a time.
 */
const MEMBERS = 1000;
const MESSAGES = 10_000;
const WRITERS = 20;

describe.runIf(onPostgres)("10,000 messages to 1,000 members in one window (PostgreSQL)", () => {
  let database: Database;
  const deps = () => ({
    db: database.db,
    links: createLinkSigner("load-test-secret-load-test-secret-0"),
    publicUrl: "http://x",
  });
  beforeAll(async () => {
    database = await openTestDatabase(inject("dbTemplate"));
    // Members not on the site (active a day ago), age verified; ten senders.
    await database.db.execute(sql`
      insert into users (user_id, email, password_hash, verification_status, last_active_at)
      select 'load' || i, 'load' || i || '@example.jp', 'x', 'verified', now() - interval '1 day'
      from generate_series(1, ${MEMBERS + 10}) i`);
  }, 60_000);
  afterAll(async () => {
    await database?.close();
  });

  const noticeCounts = () =>
    rowsOf<{ to: string; n: number }>(
      database.db,
      sql`select "to", count(*)::int as n from mail_outbox where subject like '%新着メッセージ%' group by "to"`,
    );

  it("one notice per member per window, and the outbox sends each once", async () => {
    const ids = await rowsOf<{ id: string; user_id: string }>(
      database.db,
      sql`select id, user_id from users where user_id like 'load%' order by user_id`,
    );
    const senders = ids.slice(0, 10).map((r) => r.id);
    const members = ids.slice(10).map((r) => r.id);
    const windowStart = new Date(Date.now() + 3600_000);
    let writing = true;
    // Four notice workers, all in the first window, while the writers write.
    const workers = Array.from({ length: 4 }, async () => {
      let mailed = 0;
      while (writing) mailed += (await sendDueNotices(deps(), { now: windowStart, batch: 100 })).mailed;
      for (;;) {
        const run = await sendDueNotices(deps(), { now: windowStart, batch: 100 });
        mailed += run.mailed;
        if (run.claimed === 0) return mailed;
      }
    });
    // Twenty writers, each transaction 50 messages to members in a random order (lock order is the trigger's).
    const perWriter = MESSAGES / WRITERS;
    const writers = Array.from({ length: WRITERS }, async (_, w) => {
      for (let done = 0; done < perWriter; done += 50) {
        const values = Array.from({ length: 50 }, (_, k) => {
          const to = members[Math.floor(Math.random() * MEMBERS)] ?? "";
          const from = senders[(w + k) % senders.length] ?? "";
          return sql`(${from}::uuid, ${to}::uuid, 'load')`;
        });
        await database.db.execute(
          sql`insert into messages (from_user_id, to_user_id, body) values ${sql.join(values, sql`, `)}`,
        );
      }
    });
    await Promise.all(writers);
    writing = false;
    const mailedFirst = (await Promise.all(workers)).reduce((a, b) => a + b, 0);
    const [written] = await rowsOf<{ n: number; members: number }>(
      database.db,
      sql`select count(*)::int as n, count(distinct to_user_id)::int as members from messages where body = 'load'`,
    );
    expect(written?.n).toBe(MESSAGES);
    const first = await noticeCounts();
    expect(first.every((r) => r.n === 1)).toBe(true);
    expect(first).toHaveLength(written?.members ?? -1);
    expect(mailedFirst).toBe(first.length);

    // The next window: one more at most, to whoever was written to after their first notice.
    const nextWindow = new Date(windowStart.getTime() + 15 * 60_000);
    await Promise.all(Array.from({ length: 4 }, () => sendDueNotices(deps(), { now: nextWindow, batch: 100 })));
    while ((await sendDueNotices(deps(), { now: nextWindow })).claimed > 0) {}
    const second = await noticeCounts();
    expect(second.every((r) => r.n <= 2)).toBe(true);
    const [pending] = await rowsOf<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from message_notices where pending_count > 0`,
    );
    expect(pending?.n).toBe(0);

    // The outbox drains: two deliverers, every notice sent exactly once.
    const seen: string[] = [];
    const transport: MailTransport = {
      async send(mail) {
        seen.push(mail.id);
      },
    };
    const log = { warn() {}, info() {}, error() {} } as unknown as Parameters<typeof deliverDueMail>[2];
    await Promise.all(
      Array.from({ length: 2 }, async () => {
        while ((await deliverDueMail(database.db, transport, log, 50)) > 0) {}
      }),
    );
    const total = second.reduce((sum, r) => sum + r.n, 0);
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
    const [left] = await rowsOf<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from mail_outbox where status <> 'sent'`,
    );
    expect(left?.n).toBe(0);
  }, 300_000);
});
