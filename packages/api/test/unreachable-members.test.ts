import { boardPosts, pointLedger, scheduledMessages, users } from "@enmusubi/db";
import { MSG } from "@enmusubi/shared";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { dispatchDue } from "../src/scheduled/dispatch";
import { snapshotTables, type TestUser, useTestApi } from "./helpers";

/**
 * Decision 0015: a suspended (or deleted) member cannot sign in, so members must not reach them either:
 * they leave every member-facing list and are refused (404, before anything is charged) as the
 * target of a paid or social action. Reporting and blocking them stays possible.
 */
const api = useTestApi();
const db = () => api.database.db;

/** Tables a refused action must leave untouched. */
const TABLES = [
  "users",
  "point_ledger",
  "point_lots",
  "point_lot_usages",
  "messages",
  "favorites",
  "profile_views",
  "footprints",
  "scheduled_messages",
  "board_reactions",
  "board_reads",
];

let admin: TestUser;
let alice: TestUser;
let target: TestUser;
let gone: TestUser;
let targetPost: string;
let targetMessage: string;
let pendingEntry: string;
let pendingReply: string;
const tag = `停止${Math.random().toString(36).slice(2, 7)}`;

async function points(user: TestUser) {
  const [row] = await db().select({ points: users.points }).from(users).where(eq(users.id, user.id));
  return row?.points;
}

beforeAll(async () => {
  admin = await api.createUser({ role: "admin" });
  alice = await api.createUser({ name: `${tag}アリス`, gender: "male", points: 5000 });
  target = await api.createUser({ name: `${tag}対象`, gender: "female", points: 500 });
  gone = await api.createUser({ name: `${tag}退会`, gender: "female", points: 500 });
  // Before the suspension: alice keeps the target as a favourite, the target viewed alice (a
  // footprint), wrote to her and posted on the board; alice scheduled a send and a reply to them.
  for (const other of [target, gone]) await api.caller(alice).members.addFavorite({ id: other.id });
  await api.caller(target).members.viewProfile({ id: alice.id });
  targetMessage = (await api.caller(target).messages.send({ recipientIds: [alice.id], body: "こんにちは" }))
    .messageIds[0] as string;
  const [post] = await db()
    .insert(boardPosts)
    .values({ authorId: target.id, title: `${tag}の投稿`, content: "よろしく" })
    .returning({ id: boardPosts.id });
  targetPost = post?.id as string;
  const later = new Date(Date.now() + 3600_000);
  pendingEntry = (
    await api.caller(alice).scheduled.create({
      type: "direct",
      recipientIds: [target.id],
      content: "予約した挨拶",
      scheduledAt: later,
      source: "user:favorite",
    })
  ).id;
  pendingReply = (
    await api.caller(alice).scheduled.create({
      type: "reply",
      recipientIds: [target.id],
      content: "予約した返信",
      scheduledAt: later,
      source: "user:unread",
      relatedMessageId: targetMessage,
      markAsReplied: true,
    })
  ).id;
  await api.caller(admin).adminModeration.suspend({ userId: target.id, reason: "テスト" });
  await api.caller(admin).adminUsers.delete({ id: gone.id });
});

describe("a suspended or deleted member leaves every member-facing list", () => {
  it("profile search, favourites, footprints, contacts and the board", async () => {
    const caller = api.caller(alice);
    const search = await caller.members.search({ keyword: tag, excludeSameSex: false });
    expect(search.profiles.map((p) => p.id)).toEqual([]);
    expect(search.total).toBe(0);
    const favourites = (await caller.members.favorites()).map((p) => p.id);
    expect(favourites).not.toContain(target.id);
    expect(favourites).not.toContain(gone.id);
    expect((await caller.members.footprints()).map((f) => f.viewer.id)).not.toContain(target.id);
    expect((await caller.messages.contacts()).map((c) => c.id)).not.toContain(target.id);
    await caller.board.enter();
    const board = await caller.board.list({ keyword: tag });
    expect(board.posts.map((p) => p.id)).not.toContain(targetPost);
    expect(await caller.board.people({ ids: [targetPost] })).toEqual({});
  });

  it("reinstated, the member is listed again", async () => {
    const other = await api.createUser({ name: `${tag}復帰`, gender: "female" });
    await api.caller(admin).adminModeration.suspend({ userId: other.id, reason: "テスト" });
    const find = async () =>
      (await api.caller(alice).members.search({ keyword: `${tag}復帰`, excludeSameSex: false })).profiles.map(
        (p) => p.id,
      );
    expect(await find()).toEqual([]);
    await api.caller(admin).adminModeration.unsuspend({ userId: other.id });
    expect(await find()).toEqual([other.id]);
  });
});

describe("a suspended or deleted member cannot be the target of an action (404, nothing charged)", () => {
  it("viewing the profile, messaging, replying, favouriting, scheduling, reacting to their posts", async () => {
    const caller = api.caller(alice);
    const balance = await points(alice);
    const before = await snapshotTables(api, ...TABLES);
    for (const other of [target, gone]) {
      const refusals: Array<[string, () => Promise<unknown>, string]> = [
        ["viewProfile", () => caller.members.viewProfile({ id: other.id }), MSG.notFound],
        [
          "send",
          () => caller.messages.send({ recipientIds: [other.id], body: "届きますか" }),
          MSG.recipientUnavailable,
        ],
        ["addFavorite", () => caller.members.addFavorite({ id: other.id }), MSG.notFound],
        [
          "scheduled.create",
          () =>
            caller.scheduled.create({
              type: "direct",
              recipientIds: [other.id],
              content: "予約",
              scheduledAt: new Date(Date.now() + 3600_000),
              source: "user:favorite",
            }),
          MSG.recipientUnavailable,
        ],
      ];
      for (const [name, call, message] of refusals) {
        await expect(call(), `${name} → ${other === target ? "suspended" : "deleted"}`).rejects.toMatchObject({
          code: "NOT_FOUND",
          message,
        });
      }
    }
    // A reply to the suspended member's message, with several recipients including them, and sent at once.
    for (const call of [
      () => caller.messages.send({ recipientIds: [target.id], body: "返信", replyToId: targetMessage, markRead: true }),
      () => caller.messages.send({ recipientIds: [admin.id, target.id], body: "まとめて" }),
      () =>
        caller.scheduled.create({
          type: "direct",
          recipientIds: [target.id],
          content: "今すぐ",
          scheduledAt: new Date(Date.now() - 1000),
          source: "user:favorite",
        }),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: "NOT_FOUND", message: MSG.recipientUnavailable });
    }
    for (const call of [
      () => caller.board.react({ id: targetPost, kind: "like" }),
      () => caller.board.read({ id: targetPost }),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: "NOT_FOUND", message: MSG.notFound });
    }
    expect(await snapshotTables(api, ...TABLES)).toEqual(before);
    expect(await points(alice)).toBe(balance);
  });

  it("the dispatcher fails a scheduled send or reply to them with a Japanese lastError and charges nothing", async () => {
    const charged = async () =>
      db()
        .select()
        .from(pointLedger)
        .where(and(eq(pointLedger.userId, alice.id), eq(pointLedger.kind, "charge")));
    const chargesBefore = (await charged()).length;
    const balance = await points(alice);
    await db()
      .update(scheduledMessages)
      .set({ scheduledAt: sql`now() - interval '1 second'` })
      .where(sql`${scheduledMessages.id} in (${pendingEntry}::uuid, ${pendingReply}::uuid)`);
    const run = await dispatchDue(api.deps);
    expect(run).toMatchObject({ sent: 0, failed: 2 });
    const entries = await db()
      .select({ id: scheduledMessages.id, status: scheduledMessages.status, lastError: scheduledMessages.lastError })
      .from(scheduledMessages)
      .where(sql`${scheduledMessages.id} in (${pendingEntry}::uuid, ${pendingReply}::uuid)`);
    expect(entries.map(({ status, lastError }) => ({ status, lastError }))).toEqual([
      { status: "failed", lastError: MSG.recipientUnavailable },
      { status: "failed", lastError: MSG.recipientUnavailable },
    ]);
    expect((await charged()).length).toBe(chargesBefore);
    expect(await points(alice)).toBe(balance);
  });

  it("reporting and blocking them stays possible", async () => {
    const caller = api.caller(alice);
    await expect(
      caller.safety.report({ targetType: "member", targetId: target.id, reason: "harassment" }),
    ).resolves.toMatchObject({ success: true });
    await expect(caller.safety.block({ userId: target.id })).resolves.toEqual({ success: true });
    expect((await caller.safety.blocked()).map((b) => b.id)).toContain(target.id);
    await caller.safety.unblock({ userId: target.id });
  });
});

describe("the live unread count of a suspended or deleted member ends", () => {
  it("at suspension, and at deletion", async () => {
    for (const act of ["suspend", "delete"] as const) {
      const member = await api.createUser({});
      const stream = (await api.caller(member).messages.onUnreadCount()) as AsyncIterable<{ count: number }>;
      const iterator = stream[Symbol.asyncIterator]();
      expect(await iterator.next()).toMatchObject({ done: false, value: { count: 0 } });
      const next = iterator.next();
      if (act === "suspend") await api.caller(admin).adminModeration.suspend({ userId: member.id, reason: "テスト" });
      else await api.caller(admin).adminUsers.delete({ id: member.id });
      const ended = await Promise.race([next, new Promise((resolve) => setTimeout(() => resolve("still open"), 2000))]);
      expect(ended, act).toMatchObject({ done: true });
    }
  });

  it("when the member is suspended through a report", async () => {
    const member = await api.createUser({});
    const reporter = await api.createUser({});
    const { id } = await api
      .caller(reporter)
      .safety.report({ targetType: "member", targetId: member.id, reason: "harassment" });
    const stream = (await api.caller(member).messages.onUnreadCount()) as AsyncIterable<{ count: number }>;
    const iterator = stream[Symbol.asyncIterator]();
    await iterator.next();
    const next = iterator.next();
    await api.caller(admin).adminModeration.suspendReported({ id });
    const ended = await Promise.race([next, new Promise((resolve) => setTimeout(() => resolve("still open"), 2000))]);
    expect(ended).toMatchObject({ done: true });
  });
});
