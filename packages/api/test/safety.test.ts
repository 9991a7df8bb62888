import { boardPosts, favorites, footprints, mailOutbox, messages, scheduledMessages, users } from "@enmusubi/db";
import { onPostgres } from "@enmusubi/db/testing";
import { MSG } from "@enmusubi/shared";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { resolveSession } from "../src/auth/session";
import { dispatchDue } from "../src/scheduled/dispatch";
import { snapshotTables, type TestUser, useTestApi } from "./helpers";

const api = useTestApi();

let admin: TestUser;
beforeAll(async () => {
  admin = await api.createUser({ role: "admin" });
});

let tagCounter = 0;
const newTag = () => `安${++tagCounter}x${Math.random().toString(36).slice(2, 6)}`;

const points = async (id: string) =>
  (await api.database.db.select({ p: users.points }).from(users).where(eq(users.id, id)))[0]?.p;

/** A pair of members of opposite genders with a shared name tag, so searches see only them. */
async function pair(fields: { points?: number } = {}) {
  const tag = newTag();
  const a = await api.createUser({ gender: "male", name: `${tag}A`, ...fields });
  const b = await api.createUser({ gender: "female", name: `${tag}B`, ...fields });
  return { a, b, tag };
}

async function sendMessage(from: TestUser, to: TestUser, body = "こんにちは") {
  const result = await api.caller(from).messages.send({ recipientIds: [to.id], body });
  return result.messageIds[0] as string;
}

async function boardPost(author: TestUser, title = "掲示板の投稿") {
  const [row] = await api.database.db
    .insert(boardPosts)
    .values({ authorId: author.id, title, content: `${title}の本文` })
    .returning({ id: boardPosts.id });
  return row?.id as string;
}

const LEDGER_TABLES = ["point_ledger", "messages", "users"];

describe("safety.block / unblock / blocked", () => {
  it("blocks and unblocks idempotently; the blocked list shows public profiles, newest block first", async () => {
    const { a, b } = await pair();
    const c = await api.createUser({ gender: "female" });
    await api.caller(a).safety.block({ userId: b.id });
    await api.caller(a).safety.block({ userId: b.id });
    await api.caller(a).safety.block({ userId: c.id });
    const list = await api.caller(a).safety.blocked();
    expect(list.map((p) => p.id)).toEqual([c.id, b.id]);
    for (const p of list) {
      for (const key of ["email", "points", "userID", "birthday", "role"]) expect(p).not.toHaveProperty(key);
      expect(p.blockedAt).toBeInstanceOf(Date);
    }
    expect(await api.caller(b).safety.blocked()).toEqual([]);
    await api.caller(a).safety.unblock({ userId: b.id });
    await api.caller(a).safety.unblock({ userId: b.id });
    expect((await api.caller(a).safety.blocked()).map((p) => p.id)).toEqual([c.id]);
  });

  it("refuses oneself, administrators and unknown members with Japanese messages, changing nothing", async () => {
    const { a } = await pair();
    const before = await snapshotTables(api, "user_blocks", "favorites");
    await expect(api.caller(a).safety.block({ userId: a.id })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: MSG.blockSelf,
    });
    await expect(api.caller(a).safety.block({ userId: admin.id })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: MSG.blockAdmin,
    });
    await expect(api.caller(a).safety.unblock({ userId: admin.id })).rejects.toMatchObject({
      message: MSG.blockAdmin,
    });
    await expect(api.caller(a).safety.block({ userId: "00000000-0000-4000-8000-000000000000" })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: MSG.notFound,
    });
    await expect(api.caller(a).safety.block({ userId: "not-a-uuid" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    await expect(api.caller(a).safety.block({} as never)).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(api.caller().safety.block({ userId: a.id })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(api.caller(admin).safety.block({ userId: a.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(api.caller(admin).safety.blocked()).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await snapshotTables(api, "user_blocks", "favorites")).toEqual(before);
  });

  it("removes the blocker's favourite of the blocked member (the other way it is only hidden)", async () => {
    const { a, b } = await pair();
    await api.caller(a).members.addFavorite({ id: b.id });
    await api.caller(b).members.addFavorite({ id: a.id });
    await api.caller(a).safety.block({ userId: b.id });
    const rows = await api.database.db.select().from(favorites).where(eq(favorites.userId, a.id));
    expect(rows).toEqual([]);
    expect(await api.caller(b).members.favorites()).toEqual([]);
    await api.caller(a).safety.unblock({ userId: b.id });
    expect((await api.caller(b).members.favorites()).map((p) => p.id)).toEqual([a.id]);
    expect(await api.caller(a).members.favorites()).toEqual([]);
  });
});

describe("the block rule in member lists", () => {
  it("search, favourites and footprints leave out members blocked either way; the profile is NOT_FOUND", async () => {
    const { a, b, tag } = await pair({ points: 1000 });
    await api.caller(b).members.addFavorite({ id: a.id });
    await api.caller(a).members.addFavorite({ id: b.id });
    await api.caller(a).members.viewProfile({ id: b.id });
    await api.caller(b).members.viewProfile({ id: a.id });
    expect((await api.caller(a).members.search({ keyword: tag })).profiles.map((p) => p.id)).toEqual([b.id]);
    expect((await api.caller(a).members.footprints()).map((f) => f.viewer.id)).toEqual([b.id]);

    // b blocks a: each disappears from the other's lists.
    await api.caller(b).safety.block({ userId: a.id });
    for (const [viewer, other] of [
      [a, b],
      [b, a],
    ] as const) {
      const found = await api.caller(viewer).members.search({ keyword: tag });
      expect(found.profiles).toEqual([]);
      expect(found.total).toBe(0);
      expect((await api.caller(viewer).members.favorites()).map((p) => p.id)).not.toContain(other.id);
      expect((await api.caller(viewer).members.footprints()).map((f) => f.viewer.id)).not.toContain(other.id);
      const before = await snapshotTables(api, "point_ledger", "footprints", "profile_views", "users");
      await expect(api.caller(viewer).members.viewProfile({ id: other.id })).rejects.toMatchObject({
        code: "NOT_FOUND",
      });
      await expect(api.caller(viewer).members.addFavorite({ id: other.id })).rejects.toMatchObject({
        code: "NOT_FOUND",
      });
      expect(await snapshotTables(api, "point_ledger", "footprints", "profile_views", "users")).toEqual(before);
    }
    const rows = await api.database.db.select().from(footprints).where(eq(footprints.viewedId, a.id));
    expect(rows).toHaveLength(1);

    await api.caller(b).safety.unblock({ userId: a.id });
    expect((await api.caller(a).members.search({ keyword: tag })).profiles.map((p) => p.id)).toEqual([b.id]);
    expect((await api.caller(a).members.footprints()).map((f) => f.viewer.id)).toEqual([b.id]);
  });
});

describe("the block rule in messaging", () => {
  it("refuses sending both ways with blockedEitherWay and charges nothing", async () => {
    const { a, b } = await pair({ points: 1000 });
    const original = await sendMessage(b, a, "ブロック前");
    expect((await api.caller(a).messages.contacts()).map((c) => c.id)).toEqual([b.id]);
    await api.caller(a).safety.block({ userId: b.id });
    // Neither is offered to the other as a bulk-send recipient any more.
    expect(await api.caller(a).messages.contacts()).toEqual([]);
    expect(await api.caller(b).messages.contacts()).toEqual([]);
    const before = await snapshotTables(api, ...LEDGER_TABLES);
    for (const [from, to] of [
      [a, b],
      [b, a],
    ] as const) {
      await expect(api.caller(from).messages.send({ recipientIds: [to.id], body: "届かない" })).rejects.toMatchObject({
        code: "FORBIDDEN",
        message: MSG.blockedEitherWay,
      });
    }
    // A reply to a message received before the block.
    await expect(
      api.caller(a).messages.send({ recipientIds: [b.id], body: "返信", replyToId: original, markRead: true }),
    ).rejects.toMatchObject({ code: "FORBIDDEN", message: MSG.blockedEitherWay });
    expect(await snapshotTables(api, ...LEDGER_TABLES)).toEqual(before);
  });

  it("refuses a whole batch with a blocked recipient (all or nothing), naming no one", async () => {
    const { a, b } = await pair({ points: 1000 });
    const c = await api.createUser({ gender: "female" });
    await api.caller(b).safety.block({ userId: a.id });
    const before = await snapshotTables(api, ...LEDGER_TABLES);
    const error = await api
      .caller(a)
      .messages.send({ recipientIds: [c.id, b.id], body: "一斉送信" })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "FORBIDDEN", message: MSG.blockedEitherWay });
    expect(JSON.stringify(error)).not.toContain(b.id);
    expect(await snapshotTables(api, ...LEDGER_TABLES)).toEqual(before);
    // Without the blocked member the batch goes out.
    await api.caller(a).messages.send({ recipientIds: [c.id], body: "一斉送信" });
  });

  it("a scheduled message is refused when scheduled, and fails at send time after a later block, uncharged", async () => {
    const { a, b } = await pair({ points: 1000 });
    const entry = await api.caller(a).scheduled.create({
      type: "direct",
      recipientIds: [b.id],
      content: "予約のメッセージ",
      scheduledAt: new Date(Date.now() + 3_600_000),
      source: "user:favorite",
    });
    await api.caller(b).safety.block({ userId: a.id });
    await expect(
      api.caller(a).scheduled.create({
        type: "direct",
        recipientIds: [b.id],
        content: "もう一通",
        scheduledAt: new Date(Date.now() + 3_600_000),
        source: "user:favorite",
      }),
    ).rejects.toMatchObject({ code: "FORBIDDEN", message: MSG.blockedEitherWay });
    await api.database.db
      .update(scheduledMessages)
      .set({ scheduledAt: new Date(Date.now() - 1000) })
      .where(eq(scheduledMessages.id, entry.id));
    const balance = await points(a.id);
    await dispatchDue(api.deps);
    const [row] = await api.database.db.select().from(scheduledMessages).where(eq(scheduledMessages.id, entry.id));
    expect(row).toMatchObject({ status: "failed", lastError: MSG.blockedEitherWay });
    expect(await points(a.id)).toBe(balance);
    const sent = await api.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.fromUserId, a.id), eq(messages.toUserId, b.id)));
    expect(sent).toEqual([]);
  });

  it("administrators are never blocked: they write to a member who blocked others", async () => {
    const { a, b } = await pair();
    await api.caller(a).safety.block({ userId: b.id });
    const notice = await api
      .caller(admin)
      .adminMessages.send({ recipientIds: [a.id, b.id], body: "運営からのお知らせ" });
    expect(notice.messageIds).toHaveLength(2);
    const answer = await api.caller(a).messages.send({ recipientIds: [admin.id], body: "運営への返信" });
    expect(answer.messageIds).toHaveLength(1);
  });
});

describe("safety.report", () => {
  it("reports a member, a received message and a board post; one open report per reporter and target", async () => {
    const { a, b } = await pair({ points: 1000 });
    const message = await sendMessage(b, a);
    const post = await boardPost(b);
    for (const [targetType, targetId] of [
      ["member", b.id],
      ["message", message],
      ["board_post", post],
    ] as const) {
      const result = await api.caller(a).safety.report({ targetType, targetId, reason: "underage" });
      expect(result).toMatchObject({ success: true, message: MSG.reportDone });
      const before = await snapshotTables(api, "reports");
      await expect(api.caller(a).safety.report({ targetType, targetId, reason: "business" })).rejects.toMatchObject({
        code: "CONFLICT",
        message: MSG.reportDuplicate,
      });
      expect(await snapshotTables(api, "reports")).toEqual(before);
    }
    const queue = await api.caller(admin).adminModeration.queue({});
    const mine = queue.reports.filter((r) => r.reporter.id === a.id);
    expect(mine.map((r) => r.targetType)).toEqual(["member", "message", "board_post"]);
    for (const r of mine) expect(r.targetUser.id).toBe(b.id);
  });

  it("only what the reporter can see: others' messages, deleted or unknown targets are NOT_FOUND", async () => {
    const { a, b } = await pair({ points: 1000 });
    const c = await api.createUser({ gender: "female", points: 1000 });
    const theirs = await sendMessage(c, b, "二人だけの話");
    const gone = await boardPost(b, "削除済み");
    await api.database.db.update(boardPosts).set({ deletedAt: new Date() }).where(eq(boardPosts.id, gone));
    const deletedMember = await api.createUser();
    await api.caller(admin).adminUsers.delete({ id: deletedMember.id });
    const before = await snapshotTables(api, "reports");
    for (const [targetType, targetId] of [
      ["message", theirs],
      ["board_post", gone],
      ["member", deletedMember.id],
      ["member", admin.id],
      ["message", "00000000-0000-4000-8000-000000000000"],
    ] as const) {
      await expect(
        api.caller(a).safety.report({ targetType, targetId, reason: "harassment" }),
        `${targetType} ${targetId}`,
      ).rejects.toMatchObject({ code: "NOT_FOUND", message: MSG.notFound });
    }
    expect(await snapshotTables(api, "reports")).toEqual(before);
  });

  it("refuses oneself, the operator's messages and bad input with Japanese 4xx, changing nothing", async () => {
    const { a, b } = await pair({ points: 1000 });
    const mine = await sendMessage(a, b);
    await api.caller(admin).adminMessages.send({ recipientIds: [a.id], body: "お知らせ" });
    const fromAdmin = (await api.caller(a).messages.list({ box: "inbox" })).messages.find(
      (m) => m.from.id === admin.id,
    );
    const cases: Array<[object, string, string]> = [
      [{ targetType: "member", targetId: a.id, reason: "other", detail: "自分" }, "BAD_REQUEST", MSG.reportSelf],
      [{ targetType: "message", targetId: mine, reason: "harassment" }, "BAD_REQUEST", MSG.reportSelf],
      [{ targetType: "message", targetId: fromAdmin?.id, reason: "harassment" }, "BAD_REQUEST", MSG.reportAdmin],
      [{ targetType: "member", targetId: b.id, reason: "other" }, "BAD_REQUEST", MSG.reportDetailRequired],
      [
        { targetType: "member", targetId: b.id, reason: "other", detail: "   " },
        "BAD_REQUEST",
        MSG.reportDetailRequired,
      ],
      [{ targetType: "member", targetId: b.id, reason: "spam" }, "BAD_REQUEST", MSG.reportReasonInvalid],
      [{ targetType: "user", targetId: b.id, reason: "harassment" }, "BAD_REQUEST", MSG.reportTargetInvalid],
      [
        { targetType: "member", targetId: b.id, reason: "harassment", detail: "あ".repeat(1001) },
        "BAD_REQUEST",
        MSG.reportDetailTooLong,
      ],
      [
        { targetType: "member", targetId: b.id, reason: "harassment", detail: "a\u0000b" },
        "BAD_REQUEST",
        MSG.textInvalid,
      ],
    ];
    const before = await snapshotTables(api, "reports");
    for (const [input, code, message] of cases) {
      await expect(api.caller(a).safety.report(input as never), JSON.stringify(input)).rejects.toMatchObject({
        code,
        message,
      });
    }
    await expect(
      api.caller().safety.report({ targetType: "member", targetId: b.id, reason: "harassment" }),
    ).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(
      api.caller(admin).safety.report({ targetType: "member", targetId: b.id, reason: "harassment" }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await snapshotTables(api, "reports")).toEqual(before);
    // その他 with a detail is accepted; the detail is kept trimmed.
    await api.caller(a).safety.report({ targetType: "member", targetId: b.id, reason: "other", detail: "  詳細  " });
    const queue = await api.caller(admin).adminModeration.queue({});
    expect(queue.reports.find((r) => r.reporter.id === a.id)).toMatchObject({ reason: "other", detail: "詳細" });
  });
});

/** The mails queued to `userId`'s address. */
async function mailsTo(user: TestUser) {
  const [row] = await api.database.db.select({ email: users.email }).from(users).where(eq(users.id, user.id));
  return api.database.db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.to, row?.email as string));
}

async function auditRows(action: string, targetId: string) {
  const result = await api.database.db.execute(
    sql`select * from admin_audit_log where action = ${action} and target_id = ${targetId}`,
  );
  return Array.isArray(result) ? result : (result as { rows: unknown[] }).rows;
}

describe("adminModeration", () => {
  it("is for administrators only (members FORBIDDEN, anonymous UNAUTHORIZED), changing nothing", async () => {
    const { a, b } = await pair();
    const { id } = await api.caller(a).safety.report({ targetType: "member", targetId: b.id, reason: "business" });
    const before = await snapshotTables(api, "reports", "users", "admin_audit_log", "mail_outbox");
    const calls = (caller: ReturnType<typeof api.caller>) => [
      () => caller.adminModeration.queue({}),
      () => caller.adminModeration.dismiss({ id }),
      () => caller.adminModeration.removeContent({ id }),
      () => caller.adminModeration.suspendReported({ id }),
      () => caller.adminModeration.suspend({ userId: b.id, reason: "理由" }),
      () => caller.adminModeration.unsuspend({ userId: b.id }),
      () => caller.adminModeration.standing({ userIds: [b.id] }),
    ];
    for (const call of calls(api.caller(a))) await expect(call()).rejects.toMatchObject({ code: "FORBIDDEN" });
    for (const call of calls(api.caller())) await expect(call()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    expect(await snapshotTables(api, "reports", "users", "admin_audit_log", "mail_outbox")).toEqual(before);
  });

  it("report → queue (in context) → removeContent: the message is gone for both members, audited, reporter told", async () => {
    const { a, b } = await pair({ points: 1000 });
    const message = await sendMessage(b, a, "お金で会いませんか");
    const { id } = await api
      .caller(a)
      .safety.report({ targetType: "message", targetId: message, reason: "prostitution", detail: "勧誘です" });

    const queue = await api.caller(admin).adminModeration.queue({ status: "open" });
    const item = queue.reports.find((r) => r.id === id);
    expect(item).toMatchObject({
      status: "open",
      reason: "prostitution",
      detail: "勧誘です",
      reporter: { id: a.id, userID: a.userID },
      targetUser: { id: b.id, userID: b.userID, suspendedAt: null },
      recentReportsAgainstUser: 1,
      context: { type: "message", body: "お金で会いませんか", removed: false, from: { id: b.id }, to: { id: a.id } },
    });

    await api.caller(admin).adminModeration.removeContent({ id });
    await expect(api.caller(a).messages.get({ id: message })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(api.caller(b).messages.get({ id: message })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await api.caller(a).messages.list({ box: "inbox" })).messages.map((m) => m.id)).not.toContain(message);
    expect((await api.caller(b).messages.list({ box: "sent" })).messages.map((m) => m.id)).not.toContain(message);

    expect((await api.caller(admin).adminModeration.queue({})).reports.map((r) => r.id)).not.toContain(id);
    const handled = await api.caller(admin).adminModeration.queue({ status: "removed" });
    expect(handled.reports.find((r) => r.id === id)).toMatchObject({
      status: "removed",
      handledBy: { id: admin.id },
      context: { type: "message", removed: true },
    });
    expect(await auditRows("report.removeContent", message)).toHaveLength(1);
    const mails = await mailsTo(a);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain("ご報告いただいた内容を確認し、対応いたしました");
    expect(await mailsTo(b)).toEqual([]);

    // A handled report cannot be handled again.
    const before = await snapshotTables(api, "reports", "messages", "admin_audit_log", "mail_outbox");
    await expect(api.caller(admin).adminModeration.dismiss({ id })).rejects.toMatchObject({
      code: "CONFLICT",
      message: MSG.reportAlreadyHandled,
    });
    expect(await snapshotTables(api, "reports", "messages", "admin_audit_log", "mail_outbox")).toEqual(before);
  });

  it("removeContent of a board post soft-deletes it and closes every open report on it", async () => {
    const { a, b } = await pair();
    const c = await api.createUser({ gender: "male" });
    const post = await boardPost(b, "18歳です");
    const first = await api.caller(a).safety.report({ targetType: "board_post", targetId: post, reason: "underage" });
    const second = await api.caller(c).safety.report({ targetType: "board_post", targetId: post, reason: "underage" });
    const queue = await api.caller(admin).adminModeration.queue({});
    expect(queue.reports.find((r) => r.id === first.id)?.context).toMatchObject({
      type: "board_post",
      title: "18歳です",
      author: { id: b.id },
      removed: false,
    });
    await api.caller(admin).adminModeration.removeContent({ id: first.id });
    const [row] = await api.database.db.select().from(boardPosts).where(eq(boardPosts.id, post));
    expect(row?.deletedAt).toBeInstanceOf(Date);
    const removed = (await api.caller(admin).adminModeration.queue({ status: "removed" })).reports.map((r) => r.id);
    expect(removed).toEqual(expect.arrayContaining([first.id, second.id]));
    expect(await mailsTo(a)).toHaveLength(1);
    expect(await mailsTo(c)).toHaveLength(1);
  });

  it("removeContent of a member report is refused; dismiss closes only that report and tells the reporter", async () => {
    const { a, b } = await pair();
    const { id } = await api.caller(a).safety.report({ targetType: "member", targetId: b.id, reason: "harassment" });
    const before = await snapshotTables(api, "reports", "admin_audit_log", "mail_outbox");
    await expect(api.caller(admin).adminModeration.removeContent({ id })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: MSG.reportNothingToRemove,
    });
    await expect(api.caller(admin).adminModeration.dismiss({ id, note: "あ".repeat(501) })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: MSG.moderationNoteTooLong,
    });
    await expect(
      api.caller(admin).adminModeration.dismiss({ id: "00000000-0000-4000-8000-000000000000" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await snapshotTables(api, "reports", "admin_audit_log", "mail_outbox")).toEqual(before);

    await api.caller(admin).adminModeration.dismiss({ id, note: "問題なし" });
    const dismissed = await api.caller(admin).adminModeration.queue({ status: "dismissed" });
    expect(dismissed.reports.find((r) => r.id === id)).toMatchObject({ handledNote: "問題なし" });
    expect(await auditRows("report.dismiss", id)).toHaveLength(1);
    const mails = await mailsTo(a);
    expect(mails.map((m) => m.text).join()).toContain("確認の結果、規約違反は確認されませんでした");
  });

  it("suspendReported: login refused after the password check, the old token refused; unsuspend restores login", async () => {
    const { a, b } = await pair();
    const { token } = await api.caller().auth.login({ userID: b.userID, password: b.password });
    expect(await resolveSession(api.deps, `Bearer ${token}`)).toMatchObject({ id: b.id });
    const { id } = await api.caller(a).safety.report({ targetType: "member", targetId: b.id, reason: "business" });
    await api.caller(admin).adminModeration.suspendReported({ id });

    expect(await resolveSession(api.deps, `Bearer ${token}`)).toBeNull();
    await expect(api.caller().auth.login({ userID: b.userID, password: b.password })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: MSG.accountSuspended,
    });
    // A wrong password says only that the login failed: guessing never learns of the suspension.
    await expect(api.caller().auth.login({ userID: b.userID, password: "wrong-pass" })).rejects.toMatchObject({
      code: "UNAUTHORIZED",
      message: MSG.loginFailed,
    });
    expect(await api.caller(admin).adminModeration.standing({ userIds: [a.id, b.id] })).toEqual([
      { id: b.id, suspendedAt: expect.any(Date) },
    ]);
    expect(await auditRows("user.suspend", b.id)).toHaveLength(1);
    expect(await auditRows("report.suspend", id)).toHaveLength(1);
    expect((await mailsTo(a)).map((m) => m.text).join()).toContain("対応いたしました");
    expect((await api.caller(admin).adminModeration.queue({ status: "suspended" })).reports.map((r) => r.id)).toContain(
      id,
    );

    await api.caller(admin).adminModeration.unsuspend({ userId: b.id });
    expect(await auditRows("user.unsuspend", b.id)).toHaveLength(1);
    expect(await resolveSession(api.deps, `Bearer ${token}`)).toBeNull();
    const again = await api.caller().auth.login({ userID: b.userID, password: b.password });
    expect(await resolveSession(api.deps, `Bearer ${again.token}`)).toMatchObject({ id: b.id });
  });

  it("suspend / unsuspend by user id: audited, idempotent, administrators and bad input refused", async () => {
    const member = await api.createUser();
    const entry = await api.caller(member).scheduled.create({
      type: "direct",
      recipientIds: [admin.id],
      content: "予約",
      scheduledAt: new Date(Date.now() + 3_600_000),
      source: "user:favorite",
    });
    const before = await snapshotTables(api, "users", "admin_audit_log");
    const refused: Array<[object, string, string]> = [
      [{ userId: admin.id, reason: "理由" }, "BAD_REQUEST", MSG.suspendAdmin],
      [{ userId: member.id, reason: "  " }, "BAD_REQUEST", MSG.suspendReasonRequired],
      [{ userId: member.id }, "BAD_REQUEST", MSG.suspendReasonRequired],
      [{ userId: member.id, reason: "あ".repeat(501) }, "BAD_REQUEST", MSG.suspendReasonTooLong],
      [{ userId: "00000000-0000-4000-8000-000000000000", reason: "理由" }, "NOT_FOUND", MSG.notFound],
    ];
    for (const [input, code, message] of refused) {
      await expect(api.caller(admin).adminModeration.suspend(input as never)).rejects.toMatchObject({ code, message });
    }
    expect(await snapshotTables(api, "users", "admin_audit_log")).toEqual(before);

    await api.caller(admin).adminModeration.suspend({ userId: member.id, reason: "規約違反" });
    const [row] = await api.database.db.select().from(users).where(eq(users.id, member.id));
    expect(row?.suspendedAt).toBeInstanceOf(Date);
    const [scheduled] = await api.database.db
      .select()
      .from(scheduledMessages)
      .where(eq(scheduledMessages.id, entry.id));
    expect(scheduled?.status).toBe("cancelled");
    const [audit] = (await auditRows("user.suspend", member.id)) as Array<{ details: { reason: string } }>;
    expect(audit?.details.reason).toBe("規約違反");

    await api.caller(admin).adminModeration.unsuspend({ userId: member.id });
    await api.caller(admin).adminModeration.unsuspend({ userId: member.id });
    expect(await auditRows("user.unsuspend", member.id)).toHaveLength(1);
    await api.caller().auth.login({ userID: member.userID, password: member.password });
  });
});

describe.runIf(onPostgres)("under concurrency (PostgreSQL)", () => {
  it("two administrators handling one report at once: one wins, one audit row, one mail; the other CONFLICT", async () => {
    const { a, b } = await pair({ points: 1000 });
    const second = await api.createUser({ role: "admin" });
    const message = await sendMessage(b, a, "同時対応");
    const { id } = await api
      .caller(a)
      .safety.report({ targetType: "message", targetId: message, reason: "harassment" });
    const results = await Promise.allSettled([
      api.caller(admin).adminModeration.removeContent({ id }),
      api.caller(second).adminModeration.dismiss({ id }),
      api.caller(admin).adminModeration.suspendReported({ id }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results.filter((r) => r.status === "rejected")) {
      expect((r as PromiseRejectedResult).reason).toMatchObject({
        code: "CONFLICT",
        message: MSG.reportAlreadyHandled,
      });
    }
    expect(await mailsTo(a)).toHaveLength(1);
    const audit = await api.database.db.execute(
      sql`select action from admin_audit_log where action like 'report.%' and (target_id = ${id} or target_id = ${message})`,
    );
    expect((Array.isArray(audit) ? audit : (audit as { rows: unknown[] }).rows).length).toBe(1);
  });

  it("the same report sent twice at once is stored once (the other CONFLICT)", async () => {
    const { a, b } = await pair();
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () =>
        api.caller(a).safety.report({ targetType: "member", targetId: b.id, reason: "business" }),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results.filter((r) => r.status === "rejected")) {
      expect((r as PromiseRejectedResult).reason).toMatchObject({ code: "CONFLICT", message: MSG.reportDuplicate });
    }
  });
});
