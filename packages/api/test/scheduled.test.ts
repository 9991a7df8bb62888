import {
  adminAuditLog,
  createDatabase,
  messages,
  pointCosts,
  pointLedger,
  scheduledMessages,
  users,
} from "@enmusubi/db";
import { onPostgres, waitForLockWaiters } from "@enmusubi/db/testing";
import { insufficientPoints, MSG } from "@enmusubi/shared";
import { and, eq, inArray, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { dispatchDue, dispatchOne } from "../src/scheduled/dispatch";
import { snapshotTables, type TestUser, useTestApi } from "./helpers";

const api = useTestApi();
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let price: number;

const later = () => new Date(Date.now() + 60 * 60 * 1000);
const earlier = () => new Date(Date.now() - 60 * 1000);

beforeAll(async () => {
  admin = await api.createUser({ role: "admin", name: "運営" });
  alice = await api.createUser({ name: "アリス", points: 1000 });
  bob = await api.createUser({ name: "ボブ", gender: "female", points: 1000 });
  carol = await api.createUser({ name: "キャロル", points: 1000 });
  const [row] = await api.database.db.select().from(pointCosts).where(eq(pointCosts.actionName, "send_message"));
  price = row?.pointCost ?? Number.NaN;
  expect(price).toBeGreaterThan(0);
});

async function entry(id: string) {
  const [row] = await api.database.db.select().from(scheduledMessages).where(eq(scheduledMessages.id, id));
  return row;
}

async function points(userId: string) {
  const [row] = await api.database.db.select({ points: users.points }).from(users).where(eq(users.id, userId));
  return row?.points;
}

async function charges(userId: string) {
  return api.database.db
    .select()
    .from(pointLedger)
    .where(and(eq(pointLedger.userId, userId), eq(pointLedger.kind, "charge")));
}

async function messagesWithBody(body: string) {
  return api.database.db.select().from(messages).where(eq(messages.body, body));
}

/** Makes an entry due now (as if its time had come). */
async function makeDue(id: string) {
  await api.database.db
    .update(scheduledMessages)
    .set({ scheduledAt: sql`now() - interval '1 second'` })
    .where(eq(scheduledMessages.id, id));
}

describe("scheduling, listing and cancelling", () => {
  it("a member schedules, sees only their own entries soonest first, and only the owner may cancel", async () => {
    const first = await api.caller(alice).scheduled.create({
      type: "direct",
      recipientIds: [bob.id],
      content: "  明日また連絡します  ",
      scheduledAt: new Date(Date.now() + 2 * 3600_000),
      source: "user:favorite",
    });
    expect(first).toMatchObject({
      type: "direct",
      recipients: [{ id: bob.id, name: "ボブ" }],
      content: "明日また連絡します",
      source: "user:favorite",
      status: "pending",
      lastError: null,
      senderUser: null,
    });
    expect(first.scheduledAt).toBeInstanceOf(Date);
    expect(first.createdAt).toBeInstanceOf(Date);
    const second = await api.caller(alice).scheduled.create({
      type: "batch",
      recipientIds: [bob.id, carol.id],
      content: "みなさんへ",
      scheduledAt: later(),
      source: "user:sent",
    });
    const mine = await api.caller(alice).scheduled.list();
    expect(mine.map((e) => e.id)).toEqual([second.id, first.id]);
    expect((await api.caller(alice).scheduled.list({ source: "user:favorite" })).map((e) => e.id)).toEqual([first.id]);
    expect(await api.caller(bob).scheduled.list()).toEqual([]);
    // Nothing was sent or charged by scheduling.
    expect(await messagesWithBody("みなさんへ")).toEqual([]);
    expect(await points(alice.id)).toBe(1000);

    const before = await snapshotTables(api, "scheduled_messages");
    for (const outsider of [bob, admin]) {
      await expect(api.caller(outsider).scheduled.cancel({ id: first.id })).rejects.toMatchObject({
        code: "NOT_FOUND",
        message: MSG.notFound,
      });
    }
    expect(await snapshotTables(api, "scheduled_messages")).toEqual(before);

    expect(await api.caller(alice).scheduled.cancel({ id: first.id })).toEqual({ success: true });
    expect((await entry(first.id))?.status).toBe("cancelled");
    expect((await api.caller(alice).scheduled.list()).map((e) => e.id)).toEqual([second.id]);
    await expect(api.caller(alice).scheduled.cancel({ id: first.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await api.caller(alice).scheduled.cancel({ id: second.id });
    // A cancelled entry is never sent.
    await makeDue(second.id);
    await dispatchDue(api.deps);
    expect(await messagesWithBody("みなさんへ")).toEqual([]);
  });

  it("refuses bad input with the Japanese messages, and what the owner could not send, storing nothing", async () => {
    const before = await snapshotTables(api, "scheduled_messages", "messages", "point_ledger");
    const base = {
      type: "direct",
      recipientIds: [bob.id],
      content: "こんにちは",
      scheduledAt: later(),
      source: "user:favorite",
    };
    for (const [user, input, code, message] of [
      [alice, { ...base, recipientIds: [] }, "BAD_REQUEST", MSG.scheduledRecipientsRequired],
      [alice, { ...base, recipientIds: undefined }, "BAD_REQUEST", MSG.scheduledRecipientsRequired],
      [alice, { ...base, content: "   " }, "BAD_REQUEST", MSG.scheduledContentRequired],
      [alice, { ...base, content: undefined }, "BAD_REQUEST", MSG.scheduledContentRequired],
      [alice, { ...base, content: "x".repeat(2001) }, "BAD_REQUEST", MSG.messageTooLong],
      [alice, { ...base, scheduledAt: new Date("not a date") }, "BAD_REQUEST", MSG.scheduledAtInvalid],
      [alice, { ...base, scheduledAt: "2030-01-01" }, "BAD_REQUEST", MSG.scheduledAtInvalid],
      [alice, { ...base, source: "somewhere" }, "BAD_REQUEST", MSG.badRequest],
      [alice, { ...base, recipientIds: [alice.id] }, "BAD_REQUEST", MSG.cannotMessageSelf],
      [
        alice,
        { ...base, recipientIds: ["00000000-0000-4000-8000-000000000000"] },
        // An unknown recipient is NOT_FOUND, like a deleted or suspended one (decision 0015).
        "NOT_FOUND",
        MSG.recipientUnavailable,
      ],
      [alice, { ...base, senderUserId: carol.id }, "FORBIDDEN", MSG.forbidden],
      [
        alice,
        { ...base, type: "reply", relatedMessageId: "00000000-0000-4000-8000-000000000000", markAsReplied: true },
        "BAD_REQUEST",
        MSG.replyTargetInvalid,
      ],
      [admin, { ...base, recipientIds: [admin.id], source: "admin:sent" }, "BAD_REQUEST", MSG.adminRecipientRefused],
      [admin, { ...base, senderUserId: admin.id, recipientIds: [bob.id] }, "BAD_REQUEST", MSG.senderMustBeMember],
    ] as const) {
      await expect(api.caller(user).scheduled.create(input as never), JSON.stringify(input)).rejects.toMatchObject({
        code,
        message,
      });
    }
    await expect(api.caller().scheduled.list()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(api.caller(alice).scheduled.adminPending()).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await snapshotTables(api, "scheduled_messages", "messages", "point_ledger")).toEqual(before);
  });

  it("a time that is not in the future sends at once, charged once, and leaves no list entry", async () => {
    const sender = await api.createUser({ points: 500 });
    const sent = await api.caller(sender).scheduled.create({
      type: "direct",
      recipientIds: [bob.id],
      content: "今すぐ送ります",
      scheduledAt: earlier(),
      source: "user:favorite",
    });
    expect(sent.status).toBe("sent");
    expect(await messagesWithBody("今すぐ送ります")).toHaveLength(1);
    expect(await points(sender.id)).toBe(500 - price);
    expect(await charges(sender.id)).toHaveLength(1);
    expect(await api.caller(sender).scheduled.list()).toEqual([]);
    expect(await entry(sent.id)).toMatchObject({ status: "sent", attempts: 1 });
    await dispatchDue(api.deps);
    expect(await messagesWithBody("今すぐ送ります")).toHaveLength(1);

    // Sending at once with too few points answers 402 like sending now, and stores nothing.
    const poor = await api.createUser({ points: 0 });
    const before = await snapshotTables(api, "scheduled_messages", "messages", "point_ledger");
    await expect(
      api.caller(poor).scheduled.create({
        type: "direct",
        recipientIds: [bob.id],
        content: "届かない",
        scheduledAt: new Date(),
        source: "user:favorite",
      }),
    ).rejects.toMatchObject({ code: "PAYMENT_REQUIRED", message: insufficientPoints(price, 0) });
    expect(await snapshotTables(api, "scheduled_messages", "messages", "point_ledger")).toEqual(before);
  });
});

describe("sending when due", () => {
  it("sends a due entry once, as its owner, charging send_message per member recipient", async () => {
    const sender = await api.createUser({ points: 1000 });
    const created = await api.caller(sender).scheduled.create({
      type: "batch",
      recipientIds: [bob.id, carol.id, admin.id],
      content: "予約した一斉送信",
      scheduledAt: later(),
      source: "user:sent",
    });
    expect(await dispatchDue(api.deps)).toMatchObject({ sent: 0 });
    await makeDue(created.id);
    const run = await dispatchDue(api.deps);
    expect(run.sent).toBeGreaterThanOrEqual(1);
    await dispatchDue(api.deps);
    const sent = await messagesWithBody("予約した一斉送信");
    expect(sent.map((m) => m.toUserId).sort()).toEqual([bob.id, carol.id, admin.id].sort());
    expect(sent.every((m) => m.fromUserId === sender.id)).toBe(true);
    // Two member recipients: one charge of 2 × cost; writing to the administrator is free.
    expect(await charges(sender.id)).toEqual([expect.objectContaining({ delta: -2 * price, quantity: 2 })]);
    expect(await points(sender.id)).toBe(1000 - 2 * price);
    const row = await entry(created.id);
    expect(row).toMatchObject({ status: "sent", attempts: 1, lastError: null });
    expect(row?.sentAt).toBeInstanceOf(Date);
    expect([...(row?.messageIds ?? [])].sort()).toEqual(sent.map((m) => m.id).sort());
    expect(await api.caller(sender).scheduled.list()).toEqual([]);
    await expect(api.caller(sender).scheduled.cancel({ id: created.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("points short at send time: failed with the Japanese message, nothing charged or sent; it can be cancelled", async () => {
    // Scheduled while the points paid for it (a member may not schedule more than they hold),
    // then spent on a message sent at once.
    const sender = await api.createUser({ points: price });
    const created = await api.caller(sender).scheduled.create({
      type: "direct",
      recipientIds: [bob.id],
      content: "ポイントが足りない予約",
      scheduledAt: later(),
      source: "user:favorite",
    });
    await api.caller(sender).messages.send({ recipientIds: [carol.id], body: "先に使った" });
    await makeDue(created.id);
    const ledgerBefore = await snapshotTables(api, "point_ledger");
    await dispatchDue(api.deps);
    expect(await snapshotTables(api, "point_ledger")).toEqual(ledgerBefore);
    expect(await messagesWithBody("ポイントが足りない予約")).toEqual([]);
    expect(await points(sender.id)).toBe(0);
    expect(await entry(created.id)).toMatchObject({
      status: "failed",
      attempts: 1,
      lastError: insufficientPoints(price, 0),
      sentAt: null,
    });
    const [listed] = await api.caller(sender).scheduled.list();
    expect(listed).toMatchObject({ id: created.id, status: "failed", lastError: insufficientPoints(price, 0) });
    // Failed entries are not retried by themselves.
    await dispatchDue(api.deps);
    expect((await entry(created.id))?.attempts).toBe(1);
    await api.caller(sender).scheduled.cancel({ id: created.id });
    expect(await api.caller(sender).scheduled.list()).toEqual([]);
  });

  it("one failing entry does not stop the others", async () => {
    const poor = await api.createUser({ points: price });
    const rich = await api.createUser({ points: 1000 });
    const a = await api.caller(poor).scheduled.create({
      type: "direct",
      recipientIds: [bob.id],
      content: "失敗する方",
      scheduledAt: later(),
      source: "user:favorite",
    });
    // The points that paid for it are spent before its time.
    await api.caller(poor).messages.send({ recipientIds: [carol.id], body: "先に使った" });
    const b = await api.caller(rich).scheduled.create({
      type: "direct",
      recipientIds: [bob.id],
      content: "成功する方",
      scheduledAt: later(),
      source: "user:favorite",
    });
    await makeDue(a.id);
    await makeDue(b.id);
    await dispatchDue(api.deps);
    expect((await entry(a.id))?.status).toBe("failed");
    expect((await entry(b.id))?.status).toBe("sent");
    expect(await messagesWithBody("成功する方")).toHaveLength(1);
  });

  it("a scheduled reply marks the original replied and read when sent", async () => {
    const { messageIds } = await api.caller(bob).messages.send({ recipientIds: [alice.id], body: "質問があります" });
    const original = messageIds[0] as string;
    const created = await api.caller(alice).scheduled.create({
      type: "reply",
      recipientIds: [bob.id],
      content: "予約した返信",
      scheduledAt: later(),
      source: "user:unread",
      relatedMessageId: original,
      markAsReplied: true,
      markAsRead: true,
    });
    expect(await api.caller(alice).messages.get({ id: original })).toMatchObject({ hasReply: false, isRead: false });
    await makeDue(created.id);
    await dispatchDue(api.deps);
    expect(await api.caller(alice).messages.get({ id: original })).toMatchObject({ hasReply: true, isRead: true });
    const [reply] = await messagesWithBody("予約した返信");
    expect(reply?.replyToId).toBe(original);
  });

  it("a recipient who left before the time: failed with the message, nothing charged", async () => {
    const leaving = await api.createUser();
    const sender = await api.createUser({ points: 1000 });
    const created = await api.caller(sender).scheduled.create({
      type: "direct",
      recipientIds: [leaving.id],
      content: "退会した人へ",
      scheduledAt: later(),
      source: "user:favorite",
    });
    await api.caller(admin).adminUsers.delete({ id: leaving.id });
    await makeDue(created.id);
    await dispatchDue(api.deps);
    expect(await entry(created.id)).toMatchObject({ status: "failed", lastError: MSG.recipientUnavailable });
    expect(await points(sender.id)).toBe(1000);
  });

  it("a crash after sending but before marking loses nothing and sends nothing twice", async () => {
    await dispatchDue(api.deps);
    const sender = await api.createUser({ points: 1000 });
    const created = await api.caller(sender).scheduled.create({
      type: "direct",
      recipientIds: [bob.id],
      content: "途中で落ちる送信",
      scheduledAt: later(),
      source: "user:favorite",
    });
    await makeDue(created.id);
    // The instance "dies" at the last step: marking the row sent fails after the message was written.
    await api.database.db.execute(sql`
      create function crash_on_sent() returns trigger language plpgsql as $$
      begin
        if new.status = 'sent' then raise exception 'simulated crash'; end if;
        return new;
      end $$`);
    await api.database.db.execute(
      sql`create trigger crash_on_sent before update on scheduled_messages for each row execute function crash_on_sent()`,
    );
    try {
      await expect(dispatchOne(api.deps)).rejects.toThrow();
    } finally {
      await api.database.db.execute(sql`drop trigger crash_on_sent on scheduled_messages`);
      await api.database.db.execute(sql`drop function crash_on_sent()`);
    }
    expect(await messagesWithBody("途中で落ちる送信")).toEqual([]);
    expect(await points(sender.id)).toBe(1000);
    expect(await entry(created.id)).toMatchObject({ status: "pending", attempts: 0 });
    // The next run sends it, once.
    await dispatchDue(api.deps);
    await dispatchDue(api.deps);
    expect(await messagesWithBody("途中で落ちる送信")).toHaveLength(1);
    expect(await points(sender.id)).toBe(1000 - price);
    expect((await entry(created.id))?.status).toBe("sent");
  });

  it("cancel racing the send: exactly one of them wins", async () => {
    await dispatchDue(api.deps);
    for (let i = 0; i < 10; i++) {
      const sender = await api.createUser({ points: 1000 });
      const body = `競争 ${i}`;
      const created = await api.caller(sender).scheduled.create({
        type: "direct",
        recipientIds: [bob.id],
        content: body,
        scheduledAt: later(),
        source: "user:favorite",
      });
      await makeDue(created.id);
      const [cancel, dispatch] = await Promise.allSettled([
        api.caller(sender).scheduled.cancel({ id: created.id }),
        dispatchOne(api.deps),
      ]);
      const row = await entry(created.id);
      const sent = await messagesWithBody(body);
      if (cancel.status === "fulfilled") {
        expect(row?.status).toBe("cancelled");
        expect(sent).toEqual([]);
        expect(await points(sender.id)).toBe(1000);
      } else {
        expect(cancel.reason).toMatchObject({ code: "NOT_FOUND" });
        expect(dispatch).toMatchObject({ status: "fulfilled", value: "sent" });
        expect(row?.status).toBe("sent");
        expect(sent).toHaveLength(1);
        expect(await points(sender.id)).toBe(1000 - price);
      }
    }
  });
});

describe("bad input", () => {
  it("no scheduled procedure answers INTERNAL_SERVER_ERROR or a non-Japanese message", async () => {
    const inputs: unknown[] = [
      undefined,
      null,
      "text",
      [],
      {},
      { id: "x", source: "nowhere", type: 5, recipientIds: "a", content: [], scheduledAt: "2030-01-01" },
      { id: "00000000-0000-4000-8000-000000000000" },
      ...["a\u0000b", "x\uD800y"].map((bad) => ({
        type: "direct",
        recipientIds: [bob.id],
        content: bad,
        scheduledAt: later(),
        source: "user:favorite",
      })),
      { type: "reply", recipientIds: [bob.id], content: "x", scheduledAt: new Date(Number.NaN), source: "user:unread" },
    ];
    const failures: string[] = [];
    for (const user of [admin, alice, null]) {
      const caller = api.caller(user).scheduled as unknown as Record<string, (input: unknown) => Promise<unknown>>;
      for (const name of ["create", "list", "cancel", "adminPending"]) {
        for (const input of inputs) {
          try {
            await caller[name]?.(input);
          } catch (error) {
            const japanese = error instanceof Error && /[\u3040-\u30ff\u4e00-\u9fff]/.test(error.message);
            const code = (error as { code?: string }).code;
            if (code === "INTERNAL_SERVER_ERROR" || !japanese) failures.push(`${name} ${String(error)}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });
});

describe("administrators", () => {
  it("an administrator's scheduled reply from the inbox marks the member's message replied and read", async () => {
    const { messageIds } = await api.caller(bob).messages.send({ recipientIds: [admin.id], body: "運営への質問" });
    const original = messageIds[0] as string;
    const created = await api.caller(admin).scheduled.create({
      type: "reply",
      recipientIds: [bob.id],
      content: "運営からの予約返信",
      scheduledAt: later(),
      source: "admin:inbox",
      relatedMessageId: original,
      markAsReplied: true,
      markAsRead: true,
    });
    await makeDue(created.id);
    await dispatchDue(api.deps);
    const [row] = await api.database.db.select().from(messages).where(eq(messages.id, original));
    expect(row).toMatchObject({ hasReply: true, isRead: true });
    expect(await messagesWithBody("運営からの予約返信")).toHaveLength(1);
  });

  it("schedule as a member (send-as-user): free to the member, recorded, and listed in the admin panel", async () => {
    const other = await api.createUser({ role: "admin", name: "別の管理者" });
    const created = await api.caller(admin).scheduled.create({
      type: "direct",
      recipientIds: [bob.id],
      content: "管理者が代わりに",
      scheduledAt: later(),
      source: "admin:email-mgmt",
      senderUserId: alice.id,
    });
    expect(created.senderUser).toEqual({ id: alice.id, name: "アリス" });
    const direct = await api.caller(other).scheduled.create({
      type: "batch",
      recipientIds: [bob.id, carol.id],
      content: "運営からのお知らせ",
      scheduledAt: later(),
      source: "admin:user-mgmt",
    });
    const memberEntry = await api.caller(carol).scheduled.create({
      type: "direct",
      recipientIds: [bob.id],
      content: "会員の予約",
      scheduledAt: later(),
      source: "user:favorite",
    });
    const pending = await api.caller(admin).scheduled.adminPending();
    const ids = pending.map((e) => e.id);
    expect(ids).toEqual(expect.arrayContaining([created.id, direct.id]));
    expect(ids).not.toContain(memberEntry.id);
    expect(pending.find((e) => e.id === direct.id)?.senderUser).toBeNull();
    // Each administrator lists their own; from the shared panel a colleague may cancel an
    // administrator's entry (audited), never a member's.
    expect((await api.caller(other).scheduled.list()).map((e) => e.id)).toEqual([direct.id]);
    await expect(api.caller(other).scheduled.cancel({ id: memberEntry.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    const spare = await api.caller(admin).scheduled.create({
      type: "direct",
      recipientIds: [bob.id],
      content: "同僚が取り消す予約",
      scheduledAt: later(),
      source: "admin:user-mgmt",
    });
    await api.caller(other).scheduled.cancel({ id: spare.id });
    const audit = await api.database.db.select().from(adminAuditLog).where(eq(adminAuditLog.targetId, spare.id));
    expect(audit).toMatchObject([{ adminId: other.id, action: "scheduled.cancel" }]);

    const alicePoints = await points(alice.id);
    await makeDue(created.id);
    await makeDue(direct.id);
    await dispatchDue(api.deps);
    const [asUser] = await messagesWithBody("管理者が代わりに");
    expect(asUser).toMatchObject({ fromUserId: alice.id, toUserId: bob.id, sentByAdminId: admin.id });
    expect(await points(alice.id)).toBe(alicePoints);
    expect((await messagesWithBody("運営からのお知らせ")).map((m) => m.fromUserId)).toEqual([other.id, other.id]);
    expect((await api.caller(admin).scheduled.adminPending()).map((e) => e.id)).not.toContain(created.id);
    await api.caller(carol).scheduled.cancel({ id: memberEntry.id });
  });

  it("an administrator's entry to another administrator is refused as sending now is", async () => {
    const other = await api.createUser({ role: "admin" });
    await expect(
      api.caller(admin).scheduled.create({
        type: "direct",
        recipientIds: [other.id],
        content: "管理者宛",
        scheduledAt: later(),
        source: "admin:sent",
      }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", message: MSG.adminRecipientRefused });
  });
});

// On PostgreSQL two pools really interleave, like two server instances; PGlite has one connection.
describe.runIf(onPostgres)("two dispatchers at once (PostgreSQL)", () => {
  it("a cancel arriving while the row is being sent waits for it, then finds it sent (NOT_FOUND)", async () => {
    const created = await api.caller(alice).scheduled.create({
      type: "direct",
      recipientIds: [bob.id],
      content: "送信中の取り消し",
      scheduledAt: later(),
      source: "user:favorite",
    });
    const url = api.database.url;
    if (!url) throw new Error("no database url");
    const second = await createDatabase({ url, max: 1 });
    try {
      let cancel: Promise<unknown> | undefined;
      let settledEarly = false;
      await second.db.transaction(async (tx) => {
        // Another instance holds the row, as the dispatcher does while sending it.
        await tx.select().from(scheduledMessages).where(eq(scheduledMessages.id, created.id)).for("update");
        cancel = api.caller(alice).scheduled.cancel({ id: created.id });
        cancel.then(
          () => {
            settledEarly = true;
          },
          () => {
            settledEarly = true;
          },
        );
        await waitForLockWaiters(api.database);
        expect(settledEarly).toBe(false);
        await tx.update(scheduledMessages).set({ status: "sent" }).where(eq(scheduledMessages.id, created.id));
      });
      await expect(cancel).rejects.toMatchObject({ code: "NOT_FOUND" });
      expect((await entry(created.id))?.status).toBe("sent");
    } finally {
      await second.close();
    }
  });

  it("the dispatcher skips a row another transaction holds (a cancel in progress) instead of waiting", async () => {
    await dispatchDue(api.deps);
    const created = await api.caller(alice).scheduled.create({
      type: "direct",
      recipientIds: [bob.id],
      content: "取り消し中の送信",
      scheduledAt: later(),
      source: "user:favorite",
    });
    await makeDue(created.id);
    const url = api.database.url;
    if (!url) throw new Error("no database url");
    const second = await createDatabase({ url, max: 1 });
    try {
      await second.db.transaction(async (tx) => {
        await tx.update(scheduledMessages).set({ status: "cancelled" }).where(eq(scheduledMessages.id, created.id));
        expect(await dispatchOne(api.deps)).toBeNull();
      });
    } finally {
      await second.close();
    }
    expect(await dispatchOne(api.deps)).toBeNull();
    expect((await entry(created.id))?.status).toBe("cancelled");
    expect(await messagesWithBody("取り消し中の送信")).toEqual([]);
  });

  it("200 due entries over two connection pools: each sent exactly once, charged once", async () => {
    await dispatchDue(api.deps);
    const sender = await api.createUser({ points: 200 * price + 7 });
    const rows = Array.from({ length: 200 }, (_, i) => ({
      type: "direct" as const,
      ownerId: sender.id,
      recipients: [i % 2 ? bob.id : carol.id],
      content: `並行 ${i}`,
      scheduledAt: earlier(),
      source: "user:favorite" as const,
      needsPointDeduction: true,
    }));
    const inserted = await api.database.db
      .insert(scheduledMessages)
      .values(rows)
      .returning({ id: scheduledMessages.id });
    const url = api.database.url;
    if (!url) throw new Error("no database url");
    const second = await createDatabase({ url, max: 5 });
    try {
      const other = { ...api.deps, db: second.db };
      // Batches of 20 (one default claim would take all 200), so both instances take part.
      const run = (deps: typeof api.deps) => dispatchDue(deps, undefined, { batch: 20 });
      const runs = await Promise.all([run(api.deps), run(api.deps), run(api.deps), run(other), run(other), run(other)]);
      expect(runs.reduce((n, r) => n + r.sent, 0)).toBe(200);
      expect(runs.reduce((n, r) => n + r.failed, 0)).toBe(0);
      // Both instances took part.
      expect(runs.slice(0, 3).reduce((n, r) => n + r.sent, 0)).toBeGreaterThan(0);
      expect(runs.slice(3).reduce((n, r) => n + r.sent, 0)).toBeGreaterThan(0);
    } finally {
      await second.close();
    }
    const ids = inserted.map((r) => r.id);
    const done = await api.database.db.select().from(scheduledMessages).where(inArray(scheduledMessages.id, ids));
    expect(done.every((r) => r.status === "sent" && r.attempts === 1 && r.messageIds?.length === 1)).toBe(true);
    const sent = await api.database.db.select().from(messages).where(eq(messages.fromUserId, sender.id));
    expect(sent).toHaveLength(200);
    expect(new Set(sent.map((m) => m.body)).size).toBe(200);
    expect(await charges(sender.id)).toHaveLength(200);
    expect(await points(sender.id)).toBe(7);
  });
  it("the member's own sends racing the dispatcher's set-based charges: every point charged once, never below zero", async () => {
    await dispatchDue(api.deps);
    // Points for 60 messages; 80 scheduled and 40 sent by hand at the same time: 60 go out.
    const sender = await api.createUser({ points: 60 * price + 5 });
    await api.database.db.insert(scheduledMessages).values(
      Array.from({ length: 80 }, (_, i) => ({
        type: "direct" as const,
        ownerId: sender.id,
        recipients: [i % 2 ? bob.id : carol.id],
        content: `競合予約 ${i}`,
        scheduledAt: earlier(),
        source: "user:favorite" as const,
        needsPointDeduction: true,
      })),
    );
    const url = api.database.url;
    if (!url) throw new Error("no database url");
    const second = await createDatabase({ url, max: 5 });
    try {
      const run = (deps: typeof api.deps) => dispatchDue(deps, undefined, { batch: 10 });
      const other = { ...api.deps, db: second.db };
      const direct = Array.from({ length: 40 }, (_, i) =>
        api
          .caller(sender)
          .messages.send({ recipientIds: [bob.id], body: `競合直接 ${i}` })
          .then(
            () => "sent" as const,
            (error: { code?: string }) => error.code ?? "error",
          ),
      );
      const [scheduledRuns, directResults] = await Promise.all([
        Promise.all([run(api.deps), run(api.deps), run(other), run(other)]),
        Promise.all(direct),
      ]);
      const scheduledSent = scheduledRuns.reduce((n, r) => n + r.sent, 0);
      const directSent = directResults.filter((r) => r === "sent").length;
      expect(directResults.every((r) => r === "sent" || r === "PAYMENT_REQUIRED")).toBe(true);
      expect(scheduledSent + directSent).toBe(60);
      expect(scheduledRuns.reduce((n, r) => n + r.sent + r.failed, 0)).toBe(80);
    } finally {
      await second.close();
    }
    const sent = await api.database.db.select().from(messages).where(eq(messages.fromUserId, sender.id));
    expect(sent).toHaveLength(60);
    expect(await charges(sender.id)).toHaveLength(60);
    expect(await points(sender.id)).toBe(5);
    const [books] = await api.database.db
      .select({
        ledger: sql<number>`(select coalesce(sum(delta), 0)::int from point_ledger where user_id = ${sender.id} and account = 'points')`,
        lots: sql<number>`(select coalesce(sum(remaining), 0)::int from point_lots where user_id = ${sender.id})`,
      })
      .from(sql`(select 1) as one`);
    expect(books).toEqual({ ledger: 5, lots: 5 });
  });
});
