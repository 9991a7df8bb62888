import { rowsOf, scheduledMessages } from "@enmusubi/db";
import { onPostgres } from "@enmusubi/db/testing";
import { MSG, THREAD_PAGE_SIZE } from "@enmusubi/shared";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { previewOf } from "../src/messages/sealed";
import { dispatchBatch } from "../src/scheduled/dispatch";
import { snapshotTables, type TestUser, useTestApi } from "./helpers";

/** Conversations (やりとり, decision 0030): the list, one conversation, and the summary table behind them. */

const api = useTestApi();
const TABLES = ["messages", "conversations", "point_ledger", "users", "scheduled_messages"];
let admin: TestUser;

beforeAll(async () => {
  admin = await api.createUser({ role: "admin", name: "運営" });
});

const member = (name: string, extra: Parameters<typeof api.createUser>[0] = {}) =>
  api.createUser({ name, points: 5000, ...extra });

/** A member's send through the procedure (charged, as the screens send). */
async function send(from: TestUser, to: TestUser, body: string): Promise<string> {
  const { messageIds } = await api.caller(from).messages.send({ recipientIds: [to.id], body });
  return messageIds[0] as string;
}

/**
 * The summary table equals what the live messages say: for each (member, partner) with a live
 * message, the newest one and the partner's unread count; no other row.
 */
async function expectSummaryConsistent() {
  const db = api.database.db;
  const expected = await rowsOf<Record<string, unknown>>(
    db,
    sql`select distinct on (s.m, s.p) s.m::text as member, s.p::text as partner, s.id::text as last,
               (sum(s.unread) over (partition by s.m, s.p))::int as unread
        from (select from_user_id m, to_user_id p, id, created_at, 0 unread from messages where deleted_at is null
              union all
              select to_user_id, from_user_id, id, created_at, case when is_read then 0 else 1 end
              from messages where deleted_at is null) s
        order by s.m, s.p, s.created_at desc, s.id desc`,
  );
  const actual = await rowsOf<Record<string, unknown>>(
    db,
    sql`select member_id::text as member, partner_id::text as partner, last_message_id::text as last, unread_count as unread
        from conversations order by member_id, partner_id`,
  );
  expect(actual).toEqual(expected);
  // last_at is the newest message's time.
  const [mismatch] = await rowsOf<{ n: number }>(
    db,
    sql`select count(*)::int as n from conversations c join messages m on m.id = c.last_message_id where m.created_at <> c.last_at`,
  );
  expect(mismatch?.n).toBe(0);
}

describe("messages.conversations", () => {
  it("one line per partner, newest activity first, with the partner's public shape and the newest message either way", async () => {
    const me = await member("わたし");
    const bob = await member("ボブ");
    const carol = await member("キャロル");
    await send(bob, me, "ボブからの最初のメッセージです");
    await send(me, carol, "キャロルさんへのメッセージです");
    await api.caller(admin).adminMessages.send({ recipientIds: [me.id], body: "運営からのお知らせです" });
    await send(me, bob, "ボブさんへの返事です");

    const list = await api.caller(me).messages.conversations({});
    expect(list.conversations.map((c) => c.partner.name)).toEqual(["ボブ", "運営", "キャロル"]);
    expect(list).toMatchObject({ total: 3, totalCapped: false, page: 1, totalPages: 1 });
    const [withBob, withAdmin, withCarol] = list.conversations;
    expect(Object.keys(withBob?.partner ?? {}).sort()).toEqual(["id", "name", "photoLink", "role", "verified"]);
    expect(withBob).toMatchObject({
      partner: { id: bob.id, role: "user", verified: true },
      lastMessage: { from: { id: me.id }, to: { id: bob.id }, body: "ボブさんへの返事です", sealed: false },
      unreadCount: 1,
    });
    // The operator's messages are never sealed.
    expect(withAdmin).toMatchObject({
      partner: { role: "admin", verified: true },
      lastMessage: { body: "運営からのお知らせです", sealed: false },
      unreadCount: 1,
    });
    expect(withCarol).toMatchObject({ lastMessage: { from: { id: me.id } }, unreadCount: 0 });
    // Bob's side: one line, for me, nothing unread (his own message was answered by mine, unread for him).
    const bobs = await api.caller(bob).messages.conversations({});
    expect(bobs.conversations).toHaveLength(1);
    expect(bobs.conversations[0]).toMatchObject({ partner: { id: me.id }, unreadCount: 1 });
    // Paged on the server, and searched by name.
    const first = await api.caller(me).messages.conversations({ limit: 2 });
    const second = await api.caller(me).messages.conversations({ limit: 2, page: 2 });
    expect(first).toMatchObject({ total: 3, totalPages: 2 });
    expect([...first.conversations, ...second.conversations].map((c) => c.partner.name)).toEqual([
      "ボブ",
      "運営",
      "キャロル",
    ]);
    expect((await api.caller(me).messages.conversations({ q: "ャロ" })).conversations.map((c) => c.partner.id)).toEqual(
      [carol.id],
    );
    expect((await api.caller(me).messages.conversations({ q: "  " })).total).toBe(3);
    expect((await api.caller(me).messages.conversations({ q: "%" })).total).toBe(0);
    await expectSummaryConsistent();
  });

  it("counts unread per partner; reading and opening lower it; the latest message is sealed until opened", async () => {
    const me = await member("読む人");
    const bob = await member("書く人");
    const long = "こんにちは、週末に映画を観に行きませんか。駅前の映画館で新作がかかっています。";
    const ids = [
      await send(bob, me, "一通目のメッセージ"),
      await send(bob, me, "二通目のメッセージ"),
      await send(bob, me, long),
    ];
    const line = async () => (await api.caller(me).messages.conversations({})).conversations[0];
    expect(await line()).toMatchObject({
      unreadCount: 3,
      lastMessage: { id: ids[2], sealed: true, body: "", preview: previewOf(long), locked: false },
    });
    expect(JSON.stringify(await line())).not.toContain(long.slice(25));
    await api.caller(me).messages.markRead({ id: ids[0] as string });
    expect((await line())?.unreadCount).toBe(2);
    // Marking read does not open: still sealed.
    await api.caller(me).messages.markRead({ id: ids[2] as string });
    expect(await line()).toMatchObject({ unreadCount: 1, lastMessage: { sealed: true } });
    await api.caller(me).messages.open({ id: ids[2] as string });
    expect(await line()).toMatchObject({ unreadCount: 1, lastMessage: { sealed: false, body: long } });
    await api.caller(me).messages.open({ id: ids[1] as string });
    expect((await line())?.unreadCount).toBe(0);
    await expectSummaryConsistent();
  });

  it("to a member not age-verified, a member's last message is locked: no body, no preview", async () => {
    const me = await member("未確認", { verificationStatus: "pending" });
    const bob = await member("確認済み");
    await api.database.db.execute(
      sql`insert into messages (from_user_id, to_user_id, body) values (${bob.id}, ${me.id}, '確認前に届いたメッセージです')`,
    );
    const [line] = (await api.caller(me).messages.conversations({})).conversations;
    expect(line).toMatchObject({ lastMessage: { locked: true, preview: null, body: MSG.lockedMessageNotice } });
    const thread = await api.caller(me).messages.thread({ partnerId: bob.id });
    expect(thread.messages[0]).toMatchObject({ locked: true, preview: null });
  });

  it("leaves out partners blocked either way (and their conversation), and brings them back when unblocked", async () => {
    const me = await member("ブロックする人");
    const bob = await member("ブロックされる人");
    const carol = await member("無関係");
    await send(bob, me, "ブロック前のメッセージ");
    await send(carol, me, "関係ないメッセージ");
    await api.caller(me).safety.block({ userId: bob.id });
    expect((await api.caller(me).messages.conversations({})).conversations.map((c) => c.partner.id)).toEqual([
      carol.id,
    ]);
    expect((await api.caller(bob).messages.conversations({})).conversations).toEqual([]);
    await expect(api.caller(me).messages.thread({ partnerId: bob.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: MSG.notFound,
    });
    await expect(api.caller(bob).messages.thread({ partnerId: me.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await api.caller(me).safety.unblock({ userId: bob.id });
    expect((await api.caller(me).messages.conversations({})).total).toBe(2);
  });
});

describe("messages.thread", () => {
  it("pages backwards through 250 messages, oldest first within a page, and reaches the oldest", async () => {
    const me = await member("長いやりとり");
    const bob = await member("相手");
    // 250 messages either way, read and opened, ten of them sharing one instant (a tie broken by id).
    await api.database.db.execute(
      sql`insert into messages (from_user_id, to_user_id, body, is_read, opened_at, created_at)
          select case when g % 2 = 0 then ${me.id}::uuid else ${bob.id}::uuid end,
                 case when g % 2 = 0 then ${bob.id}::uuid else ${me.id}::uuid end,
                 'メッセージ ' || g, true, now(),
                 timestamptz '2026-01-01 00:00:00+09' + (case when g between 100 and 109 then 100 else g end) * interval '1 minute'
          from generate_series(1, 250) g`,
    );
    const all = await rowsOf<{ id: string }>(
      api.database.db,
      sql`select id::text as id from messages where least(from_user_id, to_user_id) = least(${me.id}::uuid, ${bob.id}::uuid)
          and greatest(from_user_id, to_user_id) = greatest(${me.id}::uuid, ${bob.id}::uuid) order by created_at, id`,
    );
    expect(all).toHaveLength(250);
    const seen: string[] = [];
    let before: string | undefined;
    let pages = 0;
    for (;;) {
      const page = await api.caller(me).messages.thread({ partnerId: bob.id, ...(before ? { cursor: before } : {}) });
      pages += 1;
      expect(page.messages.length).toBeLessThanOrEqual(THREAD_PAGE_SIZE);
      seen.unshift(...page.messages.map((m) => m.id));
      if (pages === 1) expect(page.messages.at(-1)?.body).toBe("メッセージ 250");
      if (!page.hasOlder) {
        expect(page.nextCursor).toBeNull();
        expect(page.messages[0]?.body).toBe("メッセージ 1");
        break;
      }
      expect(page.nextCursor).toBe(page.messages[0]?.id);
      before = page.nextCursor ?? undefined;
    }
    expect(pages).toBe(Math.ceil(250 / THREAD_PAGE_SIZE));
    expect(seen).toEqual(all.map((r) => r.id));
  });

  it("answers sealed messages with their preview, the partner (also before any message) and the member's scheduled ones", async () => {
    const me = await member("予約する人");
    const bob = await member("初めての相手");
    const empty = await api.caller(me).messages.thread({ partnerId: bob.id });
    expect(empty).toMatchObject({
      partner: { id: bob.id, name: "初めての相手", verified: true, reachable: true },
      messages: [],
      hasOlder: false,
      nextCursor: null,
      scheduled: [],
    });
    await send(bob, me, "はじめまして、よろしくお願いします。");
    await send(me, bob, "こちらこそよろしくお願いします。");
    const at = new Date(Date.now() + 3 * 3600_000);
    await api.caller(me).scheduled.create({
      type: "direct",
      recipientIds: [bob.id],
      content: "あとで届くメッセージ",
      scheduledAt: at,
      source: "user:sent",
    });
    const thread = await api.caller(me).messages.thread({ partnerId: bob.id });
    expect(thread.messages.map((m) => [m.from.id, m.sealed])).toEqual([
      [bob.id, true],
      [me.id, false],
    ]);
    expect(thread.messages[0]).toMatchObject({ body: "", preview: "はじめまして、よろ…" });
    expect(thread.scheduled).toMatchObject([{ content: "あとで届くメッセージ", status: "pending", scheduledAt: at }]);
    // The partner does not see the member's schedule.
    expect((await api.caller(bob).messages.thread({ partnerId: me.id })).scheduled).toEqual([]);
    // Opening it from the conversation is messages.open: read, charged, and the thread shows the body.
    const opened = await api.caller(me).messages.open({ id: thread.messages[0]?.id as string });
    expect(opened.charged).toBe(true);
    expect((await api.caller(me).messages.thread({ partnerId: bob.id })).messages[0]).toMatchObject({
      sealed: false,
      isRead: true,
      body: "はじめまして、よろしくお願いします。",
    });
  });

  it("is NOT_FOUND for oneself, an unknown account, and an administrator or suspended member never written with", async () => {
    const me = await member("探す人");
    const suspended = await member("停止中");
    await api.database.db.execute(sql`update users set suspended_at = now() where id = ${suspended.id}`);
    for (const partnerId of [me.id, "00000000-0000-4000-8000-000000000000", admin.id, suspended.id]) {
      await expect(api.caller(me).messages.thread({ partnerId })).rejects.toMatchObject({
        code: "NOT_FOUND",
        message: MSG.notFound,
      });
    }
    // After an exchange the history stays readable, and says it cannot be answered.
    const other = await member("のちに停止");
    await send(other, me, "停止前のメッセージ");
    await api.database.db.execute(sql`update users set suspended_at = now() where id = ${other.id}`);
    const thread = await api.caller(me).messages.thread({ partnerId: other.id });
    expect(thread).toMatchObject({ partner: { reachable: false }, messages: [{ preview: "停止前の…" }] });
  });

  it("refuses bad input with a Japanese 400 and changes nothing", async () => {
    const me = await member("入力する人");
    const bob = await member("相手役");
    const stranger = await member("他人");
    await send(bob, me, "入力検査のためのメッセージ");
    const foreign = await send(stranger, bob, "他人のメッセージ");
    const before = await snapshotTables(api, ...TABLES);
    const caller = api.caller(me);
    const cases: Array<[() => Promise<unknown>, string]> = [
      [() => caller.messages.thread({ partnerId: "not-a-uuid" }), MSG.notFound],
      [() => caller.messages.thread({ partnerId: bob.id, cursor: "x" }), MSG.threadCursorInvalid],
      [() => caller.messages.thread({ partnerId: bob.id, cursor: foreign }), MSG.threadCursorInvalid],
      [() => caller.messages.thread({ partnerId: bob.id, limit: 0 }), MSG.badRequest],
      [() => caller.messages.thread({ partnerId: bob.id, limit: 101 }), MSG.badRequest],
      [() => caller.messages.conversations({ page: 0 }), MSG.badRequest],
      [() => caller.messages.conversations({ page: 2_000_000 }), MSG.pageTooLarge],
      [() => caller.messages.conversations({ limit: 1.5 }), MSG.badRequest],
      [() => caller.messages.conversations({ q: "あ".repeat(51) }), MSG.partnerSearchTooLong],
      [() => caller.messages.conversations({ q: "a\u0000b" }), MSG.textInvalid],
      [() => caller.messages.conversations({ q: 3 as unknown as string }), MSG.badRequest],
    ];
    for (const [call, message] of cases) {
      await expect(call()).rejects.toMatchObject({ code: "BAD_REQUEST", message });
    }
    expect(await snapshotTables(api, ...TABLES)).toEqual(before);
  });
});

describe("the conversations summary", () => {
  it("follows sends, batch sends, replies, reads, opens, deletions, restores and hard deletes", async () => {
    const a = await member("要約A");
    const b = await member("要約B");
    const c = await member("要約C");
    const first = await send(a, b, "最初");
    await api.caller(a).messages.send({ recipientIds: [b.id, c.id], body: "二人へ" });
    const reply = await api
      .caller(b)
      .messages.send({ recipientIds: [a.id], body: "返事", replyToId: first, markRead: true });
    await expectSummaryConsistent();
    await api.caller(a).messages.open({ id: reply.messageIds[0] as string });
    await expectSummaryConsistent();
    // The newest message of a pair deleted: the one before it is the pair's newest again.
    await api.caller(admin).adminMessages.delete({ id: reply.messageIds[0] as string });
    await expectSummaryConsistent();
    const line = (await api.caller(a).messages.conversations({})).conversations.find((l) => l.partner.id === b.id);
    expect(line?.lastMessage.body).toBe("二人へ");
    // Every message with C deleted: the conversation leaves both lists.
    const withC = await rowsOf<{ id: string }>(
      api.database.db,
      sql`select id::text as id from messages where to_user_id = ${c.id}`,
    );
    for (const { id } of withC) await api.caller(admin).adminMessages.delete({ id });
    await expectSummaryConsistent();
    expect((await api.caller(c).messages.conversations({})).total).toBe(0);
    // Restored by hand, and a hard delete: the triggers keep up with SQL written outside the services.
    await api.database.db.execute(sql`update messages set deleted_at = null where to_user_id = ${c.id}`);
    await expectSummaryConsistent();
    expect((await api.caller(c).messages.conversations({})).total).toBe(1);
    await api.database.db.execute(sql`delete from messages where to_user_id = ${c.id}`);
    await expectSummaryConsistent();
    // A body edit or a reply mark changes nothing in it.
    await api.caller(admin).adminMessages.update({ id: first, body: "直した本文" });
    await expectSummaryConsistent();
  });
});

// On PostgreSQL the sends really interleave (and would deadlock if the triggers locked in two orders).
describe.runIf(onPostgres)("the conversations summary under concurrency (PostgreSQL)", () => {
  it("stays exact under concurrent sends both ways, replies that mark read, reads and opens", async () => {
    const a = await member("並行A");
    const b = await member("並行B");
    const c = await member("並行C");
    const seeds = [await send(a, b, "種1"), await send(b, a, "種2"), await send(c, a, "種3")];
    const calls: Array<() => Promise<unknown>> = [];
    for (let n = 0; n < 20; n += 1) {
      calls.push(() => send(a, b, `AからB ${n}`));
      calls.push(() => send(b, a, `BからA ${n}`));
      calls.push(() => api.caller(a).messages.send({ recipientIds: [b.id, c.id], body: `AからBとC ${n}` }));
      calls.push(() => send(c, a, `CからA ${n}`));
    }
    calls.push(() =>
      api.caller(b).messages.send({ recipientIds: [a.id], body: "返事", replyToId: seeds[0], markRead: true }),
    );
    calls.push(() =>
      api.caller(a).messages.send({ recipientIds: [b.id], body: "返事", replyToId: seeds[1], markRead: true }),
    );
    calls.push(() => api.caller(a).messages.open({ id: seeds[2] as string }));
    calls.push(() => api.caller(a).messages.markRead({ id: seeds[1] as string }));
    const results = await Promise.allSettled(calls.map((call) => call()));
    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    await expectSummaryConsistent();
    const line = (await api.caller(a).messages.conversations({})).conversations.find((l) => l.partner.id === c.id);
    expect(line?.unreadCount).toBe(20);
  });

  it("a scheduled batch and the same members' sends and opens by hand never wait for each other in a circle", async () => {
    const x = await member("予約と手動X");
    const p = await member("予約と手動P");
    for (let round = 0; round < 8; round += 1) {
      const sealed = [await send(p, x, `開く前 ${round}a`), await send(p, x, `開く前 ${round}b`)];
      // X's entries only: a batch charging both members (FOR UPDATE) against a send inserting a
      // message that references them (KEY SHARE) is a wait of the charging pair's own, not of this table.
      await api.database.db.insert(scheduledMessages).values(
        [0, 1, 2, 3].map((n) => ({
          type: "direct" as const,
          ownerId: x.id,
          recipients: [p.id],
          content: `予約 ${round}-${n}`,
          scheduledAt: new Date(Date.now() - 60_000),
          source: "user:sent" as const,
        })),
      );
      const results = await Promise.allSettled([
        send(p, x, `手動 P ${round}`),
        send(x, p, `手動 X ${round}`),
        dispatchBatch(api.deps, undefined, 10),
        api.caller(x).messages.open({ id: sealed[0] as string }),
        send(p, x, `手動 P2 ${round}`),
        api.caller(x).messages.open({ id: sealed[1] as string }),
      ]);
      expect(results.filter((r) => r.status === "rejected")).toEqual([]);
      expect(results[2]).toMatchObject({ value: { sent: 4, failed: 0 } });
    }
    await expectSummaryConsistent();
  });
});
