import { createCaller, createContextInner } from "@enmusubi/api";
import { adminAuditLog, messages, pointLedger, users } from "@enmusubi/db";
import { onPostgres } from "@enmusubi/db/testing";
import { insufficientPoints, japanDayOf, MSG } from "@enmusubi/shared";
import { and, count, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { type RestUser, snapshotTables, useTestServer } from "./helpers";

/**
 * The legacy message rows (spec §7 /api/messages/*, /api/admin/messages*), through HTTP: every
 * answer is also held to the published OpenAPI document by `server.request` (helpers.ts).
 */

const server = useTestServer();
const SEND_COST = 48; // send_message's seeded cost (spec §9 通常メール送信)

let admin: RestUser;
let alice: RestUser;
let bob: RestUser;
let carol: RestUser;

beforeAll(async () => {
  admin = await server.createUser({ role: "admin", name: "運営" });
  alice = await server.createUser({ name: "アリス", points: 5000 });
  bob = await server.createUser({ name: "ボブ", gender: "female", points: 5000 });
  carol = await server.createUser({ name: "キャロル", points: 5000 });
});

interface LegacyParty {
  _id: string;
  name: string | null;
  photoLink: string | null;
  role: string;
  userID?: string;
  email?: string;
}
interface LegacyMessage {
  _id: string;
  body: string;
  created_at: string;
  is_read: boolean;
  has_reply: boolean;
  from_userID: LegacyParty;
  to_userID: LegacyParty;
  sent_by_admin?: { _id: string; name: string | null } | null;
  locked?: boolean;
}
interface LegacyPage {
  messages: LegacyMessage[];
  pagination: {
    total: number;
    totalPages: number;
    pages: number;
    currentPage: number;
    limit: number;
    totalCapped?: boolean;
  };
}

const db = () => server.database.db;

async function send(as: RestUser, payload: Record<string, unknown>, url = "/api/messages/recipientId") {
  return server.request({ method: "POST", url, as, payload });
}

/** Sends one message and answers its id. */
async function sent(from: RestUser, to: RestUser, content: string): Promise<string> {
  const res = await send(from, { userId: to.id, content });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().messageIds[0];
}

async function list(as: RestUser, box: "inbox" | "unread" | "sent", query = ""): Promise<LegacyPage> {
  const res = await server.request({ method: "GET", url: `/api/messages/${box}${query}`, as });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function adminList(query: string): Promise<LegacyPage> {
  const res = await server.request({ method: "GET", url: `/api/admin/messages${query}`, as: admin });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function points(user: RestUser): Promise<number> {
  const [row] = await db().select({ points: users.points }).from(users).where(eq(users.id, user.id));
  return row?.points as number;
}

async function charges(user: RestUser) {
  return db()
    .select({ delta: pointLedger.delta, quantity: pointLedger.quantity, reference: pointLedger.reference })
    .from(pointLedger)
    .where(and(eq(pointLedger.userId, user.id), eq(pointLedger.kind, "charge")));
}

async function messageRow(id: string) {
  const [row] = await db().select().from(messages).where(eq(messages.id, id));
  return row;
}

const TABLES = ["messages", "point_ledger", "users", "admin_audit_log"] as const;

describe("member sending", () => {
  it("POST /api/messages/recipientId (userId in the body) and /api/messages/:recipientId send, trimmed, charged once each", async () => {
    const before = await points(alice);
    const chargesBefore = (await charges(alice)).length;
    const first = await send(alice, { userId: bob.id, content: "  はじめまして  " });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      success: true,
      message: MSG.messageSent,
      sent: 1,
      cost: SEND_COST,
      remainingPoints: before - SEND_COST,
    });
    const second = await send(alice, { content: "二通目" }, `/api/messages/${bob.id}`);
    expect(second.statusCode).toBe(201);
    expect(second.json()).toMatchObject({ sent: 1, cost: SEND_COST, remainingPoints: before - 2 * SEND_COST });
    expect(await points(alice)).toBe(before - 2 * SEND_COST);
    const rows = (await charges(alice)).slice(chargesBefore);
    expect(rows).toEqual([
      { delta: -SEND_COST, quantity: 1, reference: first.json().messageIds[0] },
      { delta: -SEND_COST, quantity: 1, reference: second.json().messageIds[0] },
    ]);
    expect((await messageRow(first.json().messageIds[0]))?.body).toBe("はじめまして");
  });

  it("writing to an administrator is free", async () => {
    const before = await snapshotTables(server, "point_ledger");
    const balance = await points(bob);
    const res = await send(bob, { userId: admin.id, content: "問い合わせです" });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ cost: 0, remainingPoints: balance });
    expect(await points(bob)).toBe(balance);
    expect(await snapshotTables(server, "point_ledger")).toEqual(before);
  });

  it("a batch (recipientIds) charges cost × member recipients in one entry; administrators are free", async () => {
    const balance = await points(alice);
    const n = (await charges(alice)).length;
    const res = await send(alice, { recipientIds: [bob.id, carol.id, admin.id], content: "皆さんへ" });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ sent: 3, cost: 2 * SEND_COST, remainingPoints: balance - 2 * SEND_COST });
    const rows = (await charges(alice)).slice(n);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ delta: -2 * SEND_COST, quantity: 2 });
  });

  it("a batch the balance cannot cover answers 402 with the figures and writes nothing", async () => {
    const poor = await server.createUser({ name: "少なめ", points: 2 * SEND_COST + 1 });
    const before = await snapshotTables(server, ...TABLES);
    const res = await send(poor, { recipientIds: [alice.id, bob.id, carol.id], content: "まとめて" });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({
      success: false,
      required: 3 * SEND_COST,
      available: 2 * SEND_COST + 1,
      message: insufficientPoints(3 * SEND_COST, 2 * SEND_COST + 1),
    });
    expect(await snapshotTables(server, ...TABLES)).toEqual(before);
    // Two of them it can afford.
    const ok = await send(poor, { recipientIds: [alice.id, bob.id], content: "まとめて" });
    expect(ok.statusCode).toBe(201);
    expect(await points(poor)).toBe(1);
  });

  it("to a member who cannot read (age verification not approved): 409 in Japanese before any charge, nothing written (decision 0025)", async () => {
    const unverified = await server.createUser({ name: "未確認", gender: "female", verificationStatus: "unverified" });
    const before = await snapshotTables(server, ...TABLES);
    for (const [payload, url] of [
      [{ userId: unverified.id, content: "はじめまして" }, undefined],
      [{ content: "はじめまして" }, `/api/messages/${unverified.id}`],
      [{ recipientIds: [bob.id, unverified.id], content: "まとめて" }, undefined],
    ] as const) {
      const res = await send(alice, payload, url);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toEqual({ message: MSG.recipientCannotRead });
    }
    expect(await snapshotTables(server, ...TABLES)).toEqual(before);
  });

  it("bad bodies answer 400 in Japanese and change nothing; HTML is kept as text", async () => {
    const before = await snapshotTables(server, ...TABLES);
    const cases: Array<[Record<string, unknown>, string, string?]> = [
      [{ userId: bob.id, content: "   " }, MSG.messageRequired],
      [{ userId: bob.id, content: "" }, MSG.messageRequired],
      [{ userId: bob.id }, MSG.messageRequired],
      [{ userId: bob.id, content: "あ".repeat(2001) }, MSG.messageTooLong],
      [{ userId: bob.id, content: "a\u0000b" }, MSG.textInvalid],
      [{ content: "宛先なし" }, MSG.recipientsRequired],
      [{ recipientIds: [], content: "宛先なし" }, MSG.recipientsRequired],
      [{ userId: "not-a-uuid", content: "hi" }, MSG.recipientUnavailable],
      [{ userId: alice.id, content: "自分へ" }, MSG.cannotMessageSelf],
      [{ content: "   " }, MSG.messageRequired, "/api/messages/BOB"],
      [{ content: "hi" }, MSG.recipientUnavailable, "/api/messages/not-a-uuid"],
      [{ content: "x".repeat(2001) }, MSG.messageTooLong, `/api/messages/${bob.id}`],
    ];
    for (const [payload, message, url] of cases) {
      const res = await send(alice, payload, url?.replace("BOB", bob.id));
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(res.json(), JSON.stringify(payload).slice(0, 80)).toEqual({ message });
    }
    // An unknown recipient is 404, like a deleted or suspended one (decision 0015).
    const unknown = await send(alice, { userId: "00000000-0000-4000-8000-000000000000", content: "hi" });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: MSG.recipientUnavailable });
    expect(await snapshotTables(server, ...TABLES)).toEqual(before);

    const html = '<script>alert("x")</script><b>太字</b> &amp;';
    const longest = "長".repeat(2000);
    const id = await sent(alice, bob, html);
    const id2 = await sent(alice, bob, `  ${longest}\n`);
    const inbox = await list(bob, "inbox", "?limit=100");
    // Sealed until opened (decision 0027): the inbox answers the preview line; the sender's box and the open, the text.
    expect(inbox.messages.find((m) => m._id === id)).toMatchObject({
      sealed: true,
      body: `${Array.from(html).slice(0, 20).join("")}…`,
    });
    const opened = await server.request({ method: "POST", url: `/api/messages/${id}/open`, as: bob });
    expect(opened.json().message.body).toBe(html);
    const sentBox = await list(alice, "sent", "?limit=100");
    expect(sentBox.messages.find((m) => m._id === id2)?.body).toBe(longest);
  });

  it("a reply (replyToId) marks the original replied, and read with markRead; only its recipient may reply", async () => {
    const original = await sent(alice, bob, "質問があります");
    const stranger = await send(carol, { userId: alice.id, content: "横から", replyToId: original });
    expect(stranger.json()).toEqual({ message: MSG.replyTargetInvalid });
    const self = await send(alice, { userId: bob.id, content: "自分の送信に返信", replyToId: original });
    expect(self.json()).toEqual({ message: MSG.replyTargetInvalid });
    expect(await messageRow(original)).toMatchObject({ isRead: false, hasReply: false });

    const reply = await send(bob, { userId: alice.id, content: "お答えします", replyToId: original, markRead: true });
    expect(reply.statusCode).toBe(201);
    expect(reply.json().cost).toBe(SEND_COST);
    const seen = (await list(bob, "inbox", "?limit=100")).messages.find((m) => m._id === original);
    expect(seen).toMatchObject({ is_read: true, has_reply: true });

    // The received screen's reply: replied only, read stays as it was.
    const second = await sent(alice, bob, "もう一つ");
    await send(bob, { userId: alice.id, content: "はい", replyToId: second });
    expect(await messageRow(second)).toMatchObject({ isRead: false, hasReply: true });

    // The legacy sequence: send, then PUT /reply and /read.
    const third = await sent(alice, bob, "三つ目");
    await sent(bob, alice, "返事です");
    const replied = await server.request({ method: "PUT", url: `/api/messages/${third}/reply`, as: bob });
    expect(replied.json()).toEqual({ success: true });
    const read = await server.request({ method: "PUT", url: `/api/messages/${third}/read`, as: bob });
    expect(read.json()).toEqual({ success: true, message: MSG.markedRead });
    expect(await messageRow(third)).toMatchObject({ isRead: true, hasReply: true });
  });
});

describe("opening a member's message (unread_mail_view, decision 0027)", () => {
  const OPEN_COST = 20; // unread_mail_view's seeded cost (spec §9 未読メール閲覧)

  it("GET /api/messages/:id answers it sealed with the price; PUT read does not open it; POST open charges once", async () => {
    const reader = await server.createUser({ name: "読み手", points: 100 });
    const text = "はじめまして。週末に映画でもいかがですか?よろしくお願いします。";
    const id = await sent(alice, reader, text);
    const got = await server.request({ method: "GET", url: `/api/messages/${id}`, as: reader });
    expect(got.statusCode, got.body).toBe(200);
    expect(got.json()).toMatchObject({ sealed: true, open_cost: OPEN_COST, preview: `${text.slice(0, 16)}…` });
    expect(got.body).not.toContain(text.slice(20));
    const read = await server.request({ method: "PUT", url: `/api/messages/${id}/read`, as: reader });
    expect(read.statusCode).toBe(200);
    const unread = (await list(reader, "inbox")).messages.find((m) => m._id === id);
    expect(unread).toMatchObject({ sealed: true, is_read: true, body: `${text.slice(0, 16)}…` });

    const open = () => server.request({ method: "POST", url: `/api/messages/${id}/open`, as: reader });
    const first = await open();
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ charged: true, remainingPoints: 100 - OPEN_COST, message: { body: text } });
    expect((await open()).json()).toMatchObject({ charged: false, remainingPoints: 100 - OPEN_COST });
    const charges = await db()
      .select()
      .from(pointLedger)
      .where(and(eq(pointLedger.userId, reader.id), eq(pointLedger.kind, "charge")));
    expect(charges).toEqual([expect.objectContaining({ delta: -OPEN_COST, actionName: "unread_mail_view" })]);
    const again = await server.request({ method: "GET", url: `/api/messages/${id}`, as: reader });
    expect(again.json()).toMatchObject({ sealed: false, body: text, open_cost: 0 });
  });

  it("not enough points: 402 with the catalogue's message, nothing opened or charged; others' messages 404", async () => {
    const poor = await server.createUser({ name: "残高不足", points: 5 });
    const id = await sent(alice, poor, "読めますか");
    const before = await snapshotTables(server, ...TABLES);
    const res = await server.request({ method: "POST", url: `/api/messages/${id}/open`, as: poor });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({ message: insufficientPoints(OPEN_COST, 5) });
    const stranger = await server.request({ method: "POST", url: `/api/messages/${id}/open`, as: carol });
    expect(stranger.statusCode).toBe(404);
    expect(await snapshotTables(server, ...TABLES)).toEqual(before);
    expect(await messageRow(id)).toMatchObject({ isRead: false, openedAt: null });
  });
});

describe("member lists", () => {
  it("inbox, unread and sent answer the legacy shape with pagination, without anyone's email or login ID", async () => {
    const dave = await server.createUser({ name: "デイブ", points: 5000 });
    const eve = await server.createUser({ name: "イブ", points: 5000 });
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await sent(dave, eve, `メッセージ${i}`));
    await server.request({ method: "PUT", url: `/api/messages/${ids[0]}/read`, as: eve });

    const inbox = await list(eve, "inbox", "?page=1&limit=2");
    expect(inbox.pagination).toEqual({ total: 5, totalPages: 3, pages: 3, currentPage: 1, limit: 2 });
    expect(inbox.messages.map((m) => m._id)).toEqual([ids[4], ids[3]]);
    const last = await list(eve, "inbox", "?page=3&limit=2");
    expect(last.messages.map((m) => m._id)).toEqual([ids[0]]);
    expect(last.pagination.currentPage).toBe(3);

    const message = inbox.messages[0] as LegacyMessage;
    expect(Object.keys(message).sort()).toEqual([
      "_id",
      "body",
      "created_at",
      "from_userID",
      "has_reply",
      "is_read",
      "locked",
      "preview",
      "sealed",
      "to_userID",
    ]);
    expect(message.locked).toBe(false);
    expect(message.from_userID).toEqual({ _id: dave.id, name: "デイブ", photoLink: null, role: "user" });
    expect(message.to_userID).toEqual({ _id: eve.id, name: "イブ", photoLink: null, role: "user" });
    expect(new Date(message.created_at).toISOString()).toBe(message.created_at);

    const unread = await list(eve, "unread");
    expect(unread.pagination.total).toBe(4);
    expect(unread.messages.every((m) => !m.is_read)).toBe(true);
    const sentBox = await list(dave, "sent");
    expect(sentBox.messages.map((m) => m._id)).toEqual([...ids].reverse());
    expect((await list(dave, "inbox")).pagination.total).toBe(0);

    for (const box of ["inbox", "unread", "sent"] as const) {
      for (const who of [dave, eve]) {
        const res = await server.request({ method: "GET", url: `/api/messages/${box}`, as: who });
        for (const secret of [dave.userID, eve.userID, `${dave.userID}@example.jp`, `${eve.userID}@example.jp`]) {
          expect(res.body).not.toContain(secret);
        }
      }
    }
  });

  it("page and limit are digit strings; anything else answers 400", async () => {
    for (const query of ["?page=0", "?page=abc", "?limit=0", "?limit=101", "?limit=-1", "?counterpartId=x"]) {
      const res = await server.request({ method: "GET", url: `/api/messages/inbox${query}`, as: alice });
      expect(res.statusCode, query).toBe(400);
    }
    const res = await server.request({ method: "GET", url: `/api/messages/sent?counterpartId=${carol.id}`, as: alice });
    expect(
      res.json().messages.every((m: LegacyMessage) => m.to_userID._id === carol.id && m.from_userID._id === alice.id),
    ).toBe(true);
  });
});

describe("ownership: every message route as sender, recipient, stranger and administrator", () => {
  it("PUT /read and /reply: only the recipient; the sender, strangers and an administrator (not the recipient) get 404 and nothing changes", async () => {
    for (const kind of ["read", "reply"] as const) {
      const id = await sent(alice, bob, `${kind}の確認`);
      const url = `/api/messages/${id}/${kind}`;
      const before = await snapshotTables(server, "messages");
      for (const [who, status] of [
        [alice, 404],
        [carol, 404],
        [admin, 404],
      ] as const) {
        const res = await server.request({ method: "PUT", url, as: who });
        expect(res.statusCode, `${kind} as ${who.userID}`).toBe(status);
        expect(res.json().message).toBe(status === 404 ? MSG.notFound : MSG.forbidden);
      }
      const anonymous = await server.request({ method: "PUT", url });
      expect(anonymous.statusCode).toBe(401);
      expect(await snapshotTables(server, "messages")).toEqual(before);
      const res = await server.request({ method: "PUT", url, as: bob });
      expect(res.statusCode).toBe(200);
      expect(await messageRow(id)).toMatchObject(kind === "read" ? { isRead: true } : { hasReply: true });
    }
    const unknown = await server.request({
      method: "PUT",
      url: "/api/messages/00000000-0000-4000-8000-000000000000/read",
      as: bob,
    });
    expect(unknown.statusCode).toBe(404);
    const notUuid = await server.request({ method: "PUT", url: "/api/messages/123/read", as: bob });
    expect(notUuid.statusCode).toBe(400);
  });

  it("lists: a message appears only in its sender's sent and its recipient's inbox", async () => {
    const id = await sent(alice, bob, "二人だけの話");
    const has = async (who: RestUser, box: "inbox" | "unread" | "sent") =>
      (await list(who, box, "?limit=100")).messages.some((m) => m._id === id);
    expect(await has(alice, "sent")).toBe(true);
    expect(await has(alice, "inbox")).toBe(false);
    expect(await has(bob, "inbox")).toBe(true);
    expect(await has(bob, "unread")).toBe(true);
    expect(await has(bob, "sent")).toBe(false);
    for (const box of ["inbox", "unread", "sent"] as const) expect(await has(carol, box)).toBe(false);
    for (const box of ["inbox", "unread", "sent"] as const) {
      expect((await server.request({ method: "GET", url: `/api/messages/${box}`, as: admin })).statusCode).toBe(403);
    }
    expect((await adminList("?limit=all")).messages.some((m) => m._id === id)).toBe(true);
  });

  it("PUT and DELETE /api/admin/messages/:id: members (sender, recipient, stranger) get 403 and nothing changes; the administrator may", async () => {
    const id = await sent(alice, bob, "管理者が直す");
    const before = await snapshotTables(server, ...TABLES);
    for (const who of [alice, bob, carol]) {
      const put = await server.request({
        method: "PUT",
        url: `/api/admin/messages/${id}`,
        as: who,
        payload: { body: "書き換え" },
      });
      expect(put.statusCode).toBe(403);
      expect(put.json()).toEqual({ message: MSG.forbidden });
      const del = await server.request({ method: "DELETE", url: `/api/admin/messages/${id}`, as: who });
      expect(del.statusCode).toBe(403);
    }
    expect((await server.request({ method: "DELETE", url: `/api/admin/messages/${id}` })).statusCode).toBe(401);
    expect(await snapshotTables(server, ...TABLES)).toEqual(before);

    const put = await server.request({
      method: "PUT",
      url: `/api/admin/messages/${id}`,
      as: admin,
      payload: { body: "  直しました  " },
    });
    expect(put.json()).toEqual({ success: true, message: MSG.messageUpdated });
    expect((await messageRow(id))?.body).toBe("直しました");
    const empty = await server.request({
      method: "PUT",
      url: `/api/admin/messages/${id}`,
      as: admin,
      payload: { body: " " },
    });
    expect(empty.json()).toEqual({ message: MSG.messageRequired });

    const del = await server.request({ method: "DELETE", url: `/api/admin/messages/${id}`, as: admin });
    expect(del.json()).toEqual({ success: true, message: MSG.messageDeleted });
    expect((await list(bob, "inbox", "?limit=100")).messages.some((m) => m._id === id)).toBe(false);
    expect((await list(alice, "sent", "?limit=100")).messages.some((m) => m._id === id)).toBe(false);
    expect((await adminList("?limit=all")).messages.some((m) => m._id === id)).toBe(false);
    const again = await server.request({ method: "DELETE", url: `/api/admin/messages/${id}`, as: admin });
    expect(again.statusCode).toBe(404);
    const gone = await server.request({ method: "PUT", url: `/api/messages/${id}/read`, as: bob });
    expect(gone.statusCode).toBe(404);

    const audit = await db()
      .select({ action: adminAuditLog.action, adminId: adminAuditLog.adminId })
      .from(adminAuditLog)
      .where(eq(adminAuditLog.targetId, id));
    expect(audit.map((a) => a.action).sort()).toEqual(["message.delete", "message.update"]);
    expect(audit.every((a) => a.adminId === admin.id)).toBe(true);
  });

  it("members get 403 on every admin row, administrators 403 on the member-only rows (404 on a message not theirs), anonymous callers 401", async () => {
    const id = await sent(alice, bob, "権限の確認");
    const adminRows = [
      { method: "GET", url: "/api/admin/messages" },
      { method: "PUT", url: `/api/admin/messages/${id}`, payload: { body: "x" } },
      { method: "DELETE", url: `/api/admin/messages/${id}` },
      {
        method: "POST",
        url: "/api/admin/messages/send-as-user",
        payload: { fromUserId: alice.id, toUserId: bob.id, content: "x" },
      },
    ] as const;
    const memberRows = [
      { method: "GET", url: "/api/messages/inbox" },
      { method: "GET", url: "/api/messages/unread" },
      { method: "GET", url: "/api/messages/sent" },
    ] as const;
    // Shared with administrators (their sends: legacy-admin-rest.test.ts): a member's
    // message is not theirs to mark.
    const sharedRows = [
      { method: "POST", url: "/api/messages/recipientId", payload: { userId: bob.id, content: "x" } },
      { method: "POST", url: `/api/messages/${bob.id}`, payload: { content: "x" } },
      { method: "PUT", url: `/api/messages/${id}/read` },
      { method: "PUT", url: `/api/messages/${id}/reply` },
    ] as const;
    const before = await snapshotTables(server, ...TABLES);
    for (const row of adminRows) {
      for (const who of [alice, bob, carol]) {
        const res = await server.request({ ...row, as: who });
        expect(res.statusCode, `${row.method} ${row.url}`).toBe(403);
      }
    }
    for (const row of memberRows) {
      const res = await server.request({ ...row, as: admin });
      expect(res.statusCode, `${row.method} ${row.url}`).toBe(403);
    }
    for (const row of sharedRows.filter((r) => r.method === "PUT")) {
      const res = await server.request({ ...row, as: admin });
      expect(res.statusCode, `${row.method} ${row.url}`).toBe(404);
    }
    for (const row of [...adminRows, ...memberRows, ...sharedRows]) {
      const res = await server.request(row);
      expect(res.statusCode, `${row.method} ${row.url}`).toBe(401);
      expect(res.json()).toEqual({ message: MSG.unauthorized });
    }
    expect(await snapshotTables(server, ...TABLES)).toEqual(before);
  });
});

describe("GET /api/admin/messages", () => {
  let tag: string;
  let ids: { unread: string; read: string; replied: string; answer: string };
  let frank: RestUser;
  let grace: RestUser;

  beforeAll(async () => {
    tag = `tag${Date.now().toString(36)}`;
    frank = await server.createUser({ name: "フランク", points: 5000 });
    grace = await server.createUser({ name: "グレース", points: 5000 });
    const unread = await sent(frank, grace, `${tag} 未読`);
    const read = await sent(frank, grace, `${tag} 既読`);
    const replied = await sent(frank, grace, `${tag} 返信済み`);
    await server.request({ method: "PUT", url: `/api/messages/${read}/read`, as: grace });
    const answer = await send(grace, { userId: frank.id, content: `${tag} 返信`, replyToId: replied });
    ids = { unread, read, replied, answer: answer.json().messageIds[0] };
  });

  it("answers the admin shape: login IDs, addresses and sent_by_admin", async () => {
    const page = await adminList(`?search=${tag}&limit=all`);
    expect(page.pagination.total).toBe(4);
    const one = page.messages.find((m) => m._id === ids.unread) as LegacyMessage;
    expect(one.from_userID).toEqual({
      _id: frank.id,
      name: "フランク",
      photoLink: null,
      role: "user",
      userID: frank.userID,
      email: `${frank.userID}@example.jp`,
    });
    expect(one.sent_by_admin).toBeNull();
  });

  it("filters by status (read counts replied ones), search and date", async () => {
    const idsOf = async (query: string) =>
      (await adminList(`?search=${tag}&limit=all${query}`)).messages.map((m) => m._id).sort();
    expect(await idsOf("&status=all")).toEqual(Object.values(ids).sort());
    expect(await idsOf("&status=unread")).toEqual([ids.unread, ids.answer].sort());
    expect(await idsOf("&status=read")).toEqual([ids.read, ids.replied].sort());
    expect(await idsOf("&status=replied")).toEqual([ids.replied]);
    // Search covers names and login IDs too.
    const byName = await adminList(`?search=${encodeURIComponent("グレース")}&limit=all`);
    expect(byName.messages.map((m) => m._id).sort()).toEqual(Object.values(ids).sort());
    expect((await adminList(`?search=${grace.userID}&limit=all`)).pagination.total).toBe(4);
    expect((await adminList(`?search=${tag}%25&limit=all`)).pagination.total).toBe(0);

    // The filter's days are Japanese days: from 00:00 to 09:00 Asia/Tokyo, UTC's date is a day behind.
    const today = japanDayOf(new Date());
    const tomorrow = japanDayOf(new Date(Date.now() + 86_400_000));
    const yesterday = japanDayOf(new Date(Date.now() - 86_400_000));
    expect((await idsOf(`&dateFrom=${yesterday}&dateTo=${today}`)).length).toBe(4);
    expect(await idsOf(`&dateFrom=${tomorrow}`)).toEqual([]);
    expect(await idsOf(`&dateTo=${yesterday}`)).toEqual([]);

    for (const query of ["?status=bogus", "?dateFrom=yesterday", "?page=0", "?limit=abc", "?limit=0", "?box=x"]) {
      const res = await server.request({ method: "GET", url: `/api/admin/messages${query}`, as: admin });
      expect(res.statusCode, query).toBe(400);
    }
  });

  it("pages on the server: page and limit as digit strings, 50 by default, 'all' on one page", async () => {
    const first = await adminList(`?search=${tag}&page=1&limit=3`);
    expect(first.pagination).toEqual({
      total: 4,
      totalPages: 2,
      pages: 2,
      currentPage: 1,
      limit: 3,
      totalCapped: false,
    });
    const second = await adminList(`?search=${tag}&page=2&limit=3`);
    expect(second.messages).toHaveLength(1);
    expect([...first.messages, ...second.messages].map((m) => m._id).sort()).toEqual(Object.values(ids).sort());
    expect(first.messages.map((m) => m._id)[0]).toBe(ids.answer);
    const defaults = await adminList("");
    expect(defaults.pagination.limit).toBe(50);
    expect(defaults.pagination.currentPage).toBe(1);
    const all = await adminList("?limit=all&page=7");
    expect(all.pagination.currentPage).toBe(1);
    expect(all.messages).toHaveLength(all.pagination.total);
  });

  it("a count that stops at its cap says so: totalCapped, total 10,000 and one more page (as adminMessages.list)", async () => {
    // 10,001 messages on one day of 2001, out of the way of the other lists, removed afterwards.
    await db().execute(sql`insert into messages (from_user_id, to_user_id, body, created_at)
      select ${alice.id}::uuid, ${bob.id}::uuid, 'capped ' || i, timestamptz '2001-02-03T12:00:00Z' + i * interval '1 ms'
      from generate_series(1, 10001) i`);
    try {
      const day = "?dateFrom=2001-02-03&dateTo=2001-02-03&limit=50";
      const capped = await adminList(day);
      expect(capped.pagination).toEqual({
        total: 10_000,
        totalPages: 201,
        pages: 201,
        currentPage: 1,
        limit: 50,
        totalCapped: true,
      });
      const trpc = await createCaller(createContextInner(server.app.deps, admin.session)).adminMessages.list({
        dateFrom: "2001-02-03",
        dateTo: "2001-02-03",
      });
      expect({ total: trpc.total, totalCapped: trpc.totalCapped }).toEqual({ total: 10_000, totalCapped: true });
    } finally {
      await db().execute(sql`delete from messages where created_at >= '2001-02-03' and created_at < '2001-02-04'`);
    }
  });

  it("box=inbox holds messages to administrators, box=sent those from them", async () => {
    await sent(frank, admin, `${tag} 運営へ`);
    const inbox = await adminList(`?box=inbox&search=${tag}&limit=all`);
    expect(inbox.messages.map((m) => m.to_userID.role)).toEqual(["admin"]);
    expect((await adminList(`?box=sent&search=${tag}&limit=all`)).pagination.total).toBe(0);
  });
});

describe("POST /api/admin/messages/send-as-user", () => {
  it("never charges the member, records the acting admin (admin list only) and writes the audit log", async () => {
    const balance = await points(alice);
    const before = await snapshotTables(server, "point_ledger");
    const res = await server.request({
      method: "POST",
      url: "/api/admin/messages/send-as-user",
      as: admin,
      payload: { fromUserId: alice.id, toUserId: bob.id, content: "  代理で送ります  " },
    });
    expect(res.statusCode).toBe(201);
    const id = res.json().messageId as string;
    expect(res.json()).toEqual({ success: true, message: MSG.messageSent, messageId: id });
    expect(await points(alice)).toBe(balance);
    expect(await snapshotTables(server, "point_ledger")).toEqual(before);

    const inAdmin = (await adminList("?limit=all")).messages.find((m) => m._id === id);
    expect(inAdmin).toMatchObject({ body: "代理で送ります", sent_by_admin: { _id: admin.id, name: "運営" } });
    expect(inAdmin?.from_userID._id).toBe(alice.id);

    const seenByBob = await server.request({ method: "GET", url: "/api/messages/inbox?limit=100", as: bob });
    const inBob = (seenByBob.json() as LegacyPage).messages.find((m) => m._id === id) as LegacyMessage;
    expect(inBob.from_userID).toEqual({ _id: alice.id, name: "アリス", photoLink: null, role: "user" });
    expect("sent_by_admin" in inBob).toBe(false);
    expect(JSON.stringify(inBob)).not.toContain(admin.id);
    const seenByAlice = await server.request({ method: "GET", url: "/api/messages/sent?limit=100", as: alice });
    const inAlice = (seenByAlice.json() as LegacyPage).messages.find((m) => m._id === id);
    expect(Object.keys(inAlice ?? {})).not.toContain("sent_by_admin");
    expect(JSON.stringify(inAlice)).not.toContain(admin.id);

    const [audit] = await db().select().from(adminAuditLog).where(eq(adminAuditLog.targetId, id));
    expect(audit).toMatchObject({ adminId: admin.id, action: "message.sendAsUser", targetType: "message" });
    expect((await messageRow(id))?.sentByAdminId).toBe(admin.id);
  });

  it("to an administrator it answers that administrator's message, marked read and replied", async () => {
    const adminCaller = createCaller(createContextInner(server.app.deps, admin.session));
    const {
      messageIds: [original],
    } = await adminCaller.adminMessages.send({ recipientIds: [carol.id], body: "運営からのお知らせ" });
    const res = await server.request({
      method: "POST",
      url: "/api/admin/messages/send-as-user",
      as: admin,
      payload: { fromUserId: carol.id, toUserId: admin.id, content: "承知しました" },
    });
    expect(res.statusCode).toBe(201);
    expect(await messageRow(original as string)).toMatchObject({ isRead: true, hasReply: true });
  });

  it("refuses bad requests with 400 and changes nothing", async () => {
    const before = await snapshotTables(server, ...TABLES);
    for (const [payload, message] of [
      [{ fromUserId: alice.id, toUserId: bob.id, content: " " }, MSG.messageRequired],
      [{ fromUserId: alice.id, toUserId: bob.id }, MSG.messageRequired],
      [{ fromUserId: alice.id, toUserId: alice.id, content: "自分へ" }, MSG.cannotMessageSelf],
      [{ fromUserId: admin.id, toUserId: bob.id, content: "管理者から" }, MSG.senderMustBeMember],
      [
        { fromUserId: alice.id, toUserId: "00000000-0000-4000-8000-000000000000", content: "hi" },
        MSG.recipientUnavailable,
      ],
      [{ fromUserId: alice.id, toUserId: bob.id, content: "a\u0000b" }, MSG.textInvalid],
    ] as const) {
      const res = await server.request({
        method: "POST",
        url: "/api/admin/messages/send-as-user",
        as: admin,
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toEqual({ message });
    }
    expect(await snapshotTables(server, ...TABLES)).toEqual(before);
  });
});

describe("the live unread count (SSE, as @trpc/client's httpSubscriptionLink opens it)", () => {
  let base: string;
  beforeAll(async () => {
    await server.app.listen({ port: 0, host: "127.0.0.1" });
    const address = server.app.server.address();
    if (!address || typeof address === "string") throw new Error("no port");
    base = `http://127.0.0.1:${address.port}`;
  });

  /** The events of an SSE stream as they arrive: `{ event, data }`, data parsed as JSON. */
  async function* events(body: ReadableStream<Uint8Array>) {
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end = buffer.indexOf("\n\n");
      while (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let event = "message";
        const data: string[] = [];
        for (const line of block.split("\n")) {
          if (line.startsWith("event:")) event = line.slice(6).trim();
          if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
        }
        if (data.length > 0) yield { event, data: JSON.parse(data.join("\n")) as unknown };
        end = buffer.indexOf("\n\n");
      }
    }
  }

  it("rises when another member sends, pushed by the server (no polling), with the token as connectionParams", async () => {
    const henry = await server.createUser({ name: "ヘンリー" });
    // What httpSubscriptionLink({ url: "/trpc", transformer: superjson, connectionParams: { token } })
    // requests for messages.onUnreadCount (no input): superjson's form of undefined.
    const url =
      `${base}/trpc/messages.onUnreadCount` +
      `?connectionParams=${encodeURIComponent(JSON.stringify({ token: henry.token }))}` +
      `&input=${encodeURIComponent(JSON.stringify({ json: null, meta: { values: ["undefined"], v: 1 } }))}`;
    const controller = new AbortController();
    const res = await fetch(url, { headers: { accept: "text/event-stream" }, signal: controller.signal });
    try {
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
      const stream = events(res.body as ReadableStream<Uint8Array>);
      const counts = async () => {
        for (;;) {
          const { value, done } = await stream.next();
          if (done) throw new Error("the stream ended");
          if (value.event === "message") return (value.data as { json: { count: number } }).json.count;
        }
      };
      expect(await counts()).toBe(0);
      await sent(alice, henry, "ライブで届く");
      expect(await counts()).toBe(1);
      await sent(bob, henry, "もう一通");
      expect(await counts()).toBe(2);
      const [latest] = (await list(henry, "unread")).messages;
      await server.request({ method: "PUT", url: `/api/messages/${latest?._id}/read`, as: henry });
      expect(await counts()).toBe(1);
    } finally {
      controller.abort();
    }
  });

  it("without a token the subscription is refused", async () => {
    const res = await fetch(`${base}/trpc/messages.onUnreadCount`, { headers: { accept: "text/event-stream" } });
    const text = await res.text();
    expect(text).toContain("UNAUTHORIZED");
  });
});

describe.runIf(onPostgres)("concurrent sends (PostgreSQL)", () => {
  it("200 concurrent sends from a balance that covers 50: never negative, ledger = balance, messages = charges", async () => {
    const covered = 50;
    const spender = await server.createUser({ name: "同時送信", points: covered * SEND_COST + SEND_COST - 1 });
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => send(spender, { userId: bob.id, content: `同時${i}` })),
    );
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s !== 201 && s !== 402)).toEqual([]);
    const [balanceRow] = await db().select({ points: users.points }).from(users).where(eq(users.id, spender.id));
    const [ledgerRow] = await db()
      .select({ sum: sql<string>`coalesce(sum(${pointLedger.delta}), 0)` })
      .from(pointLedger)
      .where(and(eq(pointLedger.userId, spender.id), eq(pointLedger.account, "points")));
    const [messageCount] = await db().select({ n: count() }).from(messages).where(eq(messages.fromUserId, spender.id));
    const chargeRows = await charges(spender);
    expect(balanceRow?.points).toBeGreaterThanOrEqual(0);
    expect(Number(ledgerRow?.sum)).toBe(balanceRow?.points);
    expect(messageCount?.n).toBe(chargeRows.length);
    expect(statuses.filter((s) => s === 201)).toHaveLength(covered);
    expect(chargeRows).toHaveLength(covered);
    expect(balanceRow?.points).toBe(SEND_COST - 1);
  }, 120_000);
});
