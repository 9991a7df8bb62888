import { adminAuditLog, boardPosts, messages, users } from "@enmusubi/db";
import { MSG } from "@enmusubi/shared";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { type RestUser, snapshotTables, useTestServer } from "./helpers";

/**
 * The legacy calls administrators make with their own token ("Legacy clients"): the
 * operator's direct message through POST /api/messages/recipientId and /api/messages/{id} (spec §7
 * notes: a scheduled entry without a sender goes there), marking their own received messages read
 * or replied, and DELETE /api/board/{id}. Members keep what they had: paid sends, their own posts.
 */

const server = useTestServer();
const SEND_COST = 48; // send_message's seeded cost (spec §9 通常メール送信)

let admin: RestUser;
let otherAdmin: RestUser;
let alice: RestUser;
let bob: RestUser;

beforeAll(async () => {
  admin = await server.createUser({ role: "admin", name: "運営" });
  otherAdmin = await server.createUser({ role: "admin", name: "運営2" });
  alice = await server.createUser({ name: "アリス", points: 1000 });
  bob = await server.createUser({ name: "ボブ", gender: "female", points: 1000 });
});

const db = () => server.database.db;
const MONEY = ["point_ledger", "point_lots", "users"] as const;

async function auditFor(targetId: string) {
  return db().select().from(adminAuditLog).where(eq(adminAuditLog.targetId, targetId));
}

async function messageRow(id: string) {
  const [row] = await db().select().from(messages).where(eq(messages.id, id));
  return row;
}

describe("an administrator's direct message through the members' send calls", () => {
  for (const [label, url, payload] of [
    ["POST /api/messages/recipientId", "/api/messages/recipientId", (to: RestUser) => ({ userId: to.id })],
    ["POST /api/messages/{id}", "", () => ({})],
  ] as const) {
    it(`${label}: free, from the operator, audited; the member sees it from the administrator`, async () => {
      const money = await snapshotTables(server, ...MONEY);
      const [{ points: adminPoints } = { points: -1 }] = await db()
        .select({ points: users.points })
        .from(users)
        .where(eq(users.id, admin.id));
      const res = await server.request({
        method: "POST",
        url: url || `/api/messages/${alice.id}`,
        as: admin,
        payload: { ...payload(alice), content: `  運営からのお知らせ ${label}  ` },
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({
        success: true,
        message: MSG.messageSent,
        sent: 1,
        cost: 0,
        remainingPoints: adminPoints,
      });
      const id = res.json().messageIds[0] as string;

      // No point moved for anyone: balances, ledger and lots are as they were.
      expect(await snapshotTables(server, ...MONEY)).toEqual(money);

      // Written from the administrator, audited as the operator's send.
      expect(await messageRow(id)).toMatchObject({
        fromUserId: admin.id,
        toUserId: alice.id,
        body: `運営からのお知らせ ${label}`,
        sentByAdminId: null,
      });
      const audit = await auditFor(id);
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({ adminId: admin.id, action: "message.send", targetType: "message" });
      expect(audit[0]?.details).toMatchObject({ recipientIds: [alice.id], messageIds: [id] });

      // The member sees it in the inbox, from the administrator (role admin), readable.
      const inbox = await server.request({ method: "GET", url: "/api/messages/unread?limit=100", as: alice });
      const shown = inbox.json().messages.find((m: { _id: string }) => m._id === id);
      expect(shown).toMatchObject({
        body: `運営からのお知らせ ${label}`,
        locked: false,
        from_userID: { _id: admin.id, role: "admin", name: "運営" },
      });
    });
  }

  it("a batch (recipientIds) to members: one free send, one audit row naming every message", async () => {
    const money = await snapshotTables(server, ...MONEY);
    const res = await server.request({
      method: "POST",
      url: "/api/messages/recipientId",
      as: admin,
      payload: { recipientIds: [alice.id, bob.id], content: "一斉のお知らせ" },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ sent: 2, cost: 0 });
    expect(await snapshotTables(server, ...MONEY)).toEqual(money);
    const audit = await auditFor(res.json().messageIds[0]);
    expect(audit[0]?.details).toMatchObject({ recipientIds: [alice.id, bob.id], messageIds: res.json().messageIds });
  });

  it("refused like the admin screens' send: to an administrator, to no one, empty; nothing written", async () => {
    const before = await snapshotTables(server, "messages", "admin_audit_log", ...MONEY);
    for (const [url, payload, message] of [
      ["/api/messages/recipientId", { userId: otherAdmin.id, content: "x" }, MSG.adminRecipientRefused],
      [`/api/messages/${otherAdmin.id}`, { content: "x" }, MSG.adminRecipientRefused],
      ["/api/messages/recipientId", { userId: "00000000-0000-4000-8000-000000000000", content: "x" }, null],
      ["/api/messages/recipientId", { userId: alice.id, content: "   " }, MSG.messageRequired],
      ["/api/messages/recipientId", { content: "宛先なし" }, MSG.recipientsRequired],
    ] as const) {
      const res = await server.request({ method: "POST", url, as: admin, payload });
      expect(res.statusCode, `${url} ${JSON.stringify(payload)}`).toBe(400);
      if (message) expect(res.json().message).toBe(message);
    }
    expect(await snapshotTables(server, "messages", "admin_audit_log", ...MONEY)).toEqual(before);
  });

  it("a member's send is as before: charged send_message, no audit row", async () => {
    const [{ points: balance } = { points: -1 }] = await db()
      .select({ points: users.points })
      .from(users)
      .where(eq(users.id, alice.id));
    const audits = (await db().select().from(adminAuditLog)).length;
    const res = await server.request({
      method: "POST",
      url: "/api/messages/recipientId",
      as: alice,
      payload: { userId: bob.id, content: "会員同士" },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ cost: SEND_COST, remainingPoints: balance - SEND_COST });
    const path = await server.request({
      method: "POST",
      url: `/api/messages/${bob.id}`,
      as: alice,
      payload: { content: "会員同士 2" },
    });
    expect(path.json()).toMatchObject({ cost: SEND_COST, remainingPoints: balance - 2 * SEND_COST });
    expect((await db().select().from(adminAuditLog)).length).toBe(audits);
  });
});

describe("an administrator marks their own received messages read and replied", () => {
  it("PUT /api/messages/{id}/read and /reply on a message to the administrator; another's message is 404", async () => {
    const toAdmin = await server.request({
      method: "POST",
      url: "/api/messages/recipientId",
      as: bob,
      payload: { userId: admin.id, content: "運営さんへ" },
    });
    const id = toAdmin.json().messageIds[0] as string;

    // Not theirs: the other administrator, and a message between members.
    const between = await server.request({
      method: "POST",
      url: "/api/messages/recipientId",
      as: bob,
      payload: { userId: alice.id, content: "会員どうし" },
    });
    const memberMessage = between.json().messageIds[0] as string;
    const before = await snapshotTables(server, "messages");
    for (const [who, target] of [
      [otherAdmin, id],
      [admin, memberMessage],
      [admin, "00000000-0000-4000-8000-000000000000"],
    ] as const) {
      for (const kind of ["read", "reply"]) {
        const res = await server.request({ method: "PUT", url: `/api/messages/${target}/${kind}`, as: who });
        expect(res.statusCode, `${kind} ${target} as ${who.userID}`).toBe(404);
        expect(res.json()).toEqual({ message: MSG.notFound });
      }
    }
    expect(await snapshotTables(server, "messages")).toEqual(before);

    const read = await server.request({ method: "PUT", url: `/api/messages/${id}/read`, as: admin });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toEqual({ success: true, message: MSG.markedRead });
    expect(await messageRow(id)).toMatchObject({ isRead: true, hasReply: false });
    const reply = await server.request({ method: "PUT", url: `/api/messages/${id}/reply`, as: admin });
    expect(reply.statusCode, reply.body).toBe(200);
    expect(await messageRow(id)).toMatchObject({ isRead: true, hasReply: true });
  });
});

describe("DELETE /api/board/{id} with an administrator's token", () => {
  async function post(as: RestUser, title: string): Promise<string> {
    const res = await server.request({
      method: "POST",
      url: "/api/board",
      as,
      payload: { title, content: "本文です" },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().post._id;
  }

  it("deletes any member's post, audited as /api/admin/board/{id} does; gone posts and unknown ids are 404", async () => {
    const id = await post(alice, "管理者に消される投稿");
    const res = await server.request({ method: "DELETE", url: `/api/board/${id}`, as: admin });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, message: MSG.postDeleted });
    const [row] = await db().select().from(boardPosts).where(eq(boardPosts.id, id));
    expect(row?.deletedAt).not.toBeNull();
    const audit = await db()
      .select()
      .from(adminAuditLog)
      .where(and(eq(adminAuditLog.targetId, id), eq(adminAuditLog.action, "board.delete")));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ adminId: admin.id, targetType: "board_post" });

    const before = await snapshotTables(server, "board_posts", "admin_audit_log");
    for (const target of [id, "00000000-0000-4000-8000-000000000000"]) {
      const again = await server.request({ method: "DELETE", url: `/api/board/${target}`, as: admin });
      expect(again.statusCode).toBe(404);
      expect(again.json()).toEqual({ message: MSG.notFound });
    }
    expect(await snapshotTables(server, "board_posts", "admin_audit_log")).toEqual(before);
  });

  it("members still delete only their own (another's: 404, nothing changes), without an audit row", async () => {
    const id = await post(alice, "アリスの投稿");
    const before = await snapshotTables(server, "board_posts", "admin_audit_log");
    const refused = await server.request({ method: "DELETE", url: `/api/board/${id}`, as: bob });
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual({ message: MSG.notFound });
    expect(await snapshotTables(server, "board_posts", "admin_audit_log")).toEqual(before);
    const own = await server.request({ method: "DELETE", url: `/api/board/${id}`, as: alice });
    expect(own.json()).toEqual({ success: true, message: MSG.postDeleted });
    expect(await auditFor(id)).toEqual([]);
  });

  it("anonymous callers get 401", async () => {
    const id = await post(bob, "ボブの投稿");
    const res = await server.request({ method: "DELETE", url: `/api/board/${id}` });
    expect(res.statusCode).toBe(401);
  });
});
