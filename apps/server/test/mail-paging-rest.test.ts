import { messages } from "@enmusubi/db";
import { MSG } from "@enmusubi/shared";
import { beforeAll, describe, expect, it } from "vitest";
import { type RestUser, snapshotTables, useTestServer } from "./helpers";

/*
 * Every message reachable, through the REST rows: GET /api/messages/read (受信: read messages only), `partner` (the
 * other side's name) on every member list and on GET /api/admin/messages, `withOperator` on
 * /unread; a member with 250 messages reaches the oldest. Every answer is held to the OpenAPI
 * document (helpers.ts), so the new parameters and the new row are documented.
 */

const server = useTestServer();
let admin: RestUser;
let taro: RestUser;
let hanako: RestUser;
let hanaya: RestUser;

interface LegacyPage {
  messages: Array<{ _id: string; body: string; is_read: boolean; from_userID: { _id: string; role: string } }>;
  pagination: { total: number; totalPages: number; currentPage: number; limit: number };
}

async function get(as: RestUser, url: string): Promise<LegacyPage> {
  const res = await server.request({ method: "GET", url, as });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json();
}

beforeAll(async () => {
  admin = await server.createUser({ role: "admin", name: "運営事務局" });
  taro = await server.createUser({ name: "山田 太郎" });
  hanako = await server.createUser({ name: "佐藤 花子", gender: "female" });
  hanaya = await server.createUser({ name: "花屋のはなこ", gender: "female" });
  // 250 messages to Taro: 150 older ones read (Hanako's), 100 newer unread (Hanaya's).
  const now = Date.now();
  const row = (from: RestUser, i: number, read: boolean, minutesAgo: number) => ({
    fromUserId: from.id,
    toUserId: taro.id,
    body: `${read ? "既読" : "未読"}の${i + 1}通目`,
    isRead: read,
    openedAt: read ? new Date(now) : null,
    createdAt: new Date(now - (minutesAgo - i) * 60_000),
  });
  await server.database.db
    .insert(messages)
    .values([
      ...Array.from({ length: 150 }, (_, i) => row(hanako, i, true, 1000)),
      ...Array.from({ length: 100 }, (_, i) => row(hanaya, i, false, 500)),
    ]);
  const res = await server.request({
    method: "POST",
    url: "/api/messages/recipientId",
    as: admin,
    payload: { userId: taro.id, content: "運営からのお知らせ" },
  });
  expect(res.statusCode, res.body).toBe(201);
});

describe("the member lists", () => {
  it("GET /api/messages/read: read messages only although 100 newer are unread; page 8 holds the oldest", async () => {
    const first = await get(taro, "/api/messages/read");
    expect(first.pagination).toMatchObject({ total: 150, totalPages: 8, currentPage: 1, limit: 20 });
    expect(first.messages.every((m) => m.is_read)).toBe(true);
    const last = await get(taro, "/api/messages/read?page=8");
    expect(last.messages.at(-1)?.body).toBe("既読の1通目");
    const inbox = await get(taro, "/api/messages/inbox?page=13");
    expect(inbox.pagination).toMatchObject({ total: 251, totalPages: 13 });
    expect(inbox.messages.at(-1)?.body).toBe("既読の1通目");
  });

  it("partner searches the other side's name; withOperator adds the operator's messages to /unread", async () => {
    const byName = await get(taro, `/api/messages/read?partner=${encodeURIComponent("花子")}&page=2`);
    expect(byName.pagination).toMatchObject({ total: 150, currentPage: 2 });
    expect(byName.messages.every((m) => m.from_userID._id === hanako.id)).toBe(true);
    const trigram = await get(taro, `/api/messages/inbox?partner=${encodeURIComponent("花屋の")}`);
    expect(trigram.pagination.total).toBe(100);
    expect((await get(taro, `/api/messages/sent?partner=${encodeURIComponent("花子")}`)).pagination.total).toBe(0);
    expect((await get(taro, "/api/messages/unread")).pagination.total).toBe(101);
    await server.request({
      method: "PUT",
      url: `/api/messages/${(await get(taro, `/api/messages/unread?partner=${encodeURIComponent("運営")}`)).messages[0]?._id}/read`,
      as: taro,
    });
    expect((await get(taro, "/api/messages/unread")).pagination.total).toBe(100);
    const withOperator = await get(taro, "/api/messages/unread?withOperator=true");
    expect(withOperator.pagination.total).toBe(101);
    expect(withOperator.messages[0]).toMatchObject({ body: "運営からのお知らせ", is_read: true });
    expect((await get(taro, "/api/messages/unread?withOperator=false")).pagination.total).toBe(100);
  });

  it("GET /api/admin/messages: partner searches the recipient on box=sent, the sender on box=inbox", async () => {
    const sent = await get(admin, `/api/admin/messages?box=sent&partner=${encodeURIComponent("山田 太")}`);
    expect(sent.messages.map((m) => m.body)).toEqual(["運営からのお知らせ"]);
    expect((await get(admin, `/api/admin/messages?box=sent&partner=${taro.userID}`)).pagination.total).toBe(1);
    expect(
      (await get(admin, `/api/admin/messages?box=inbox&partner=${encodeURIComponent("山田")}`)).pagination.total,
    ).toBe(0);
  });

  it("bad input answers 400 with a Japanese message, and nothing changes", async () => {
    const before = await snapshotTables(server, "messages", "users", "point_ledger");
    const cases: Array<[RestUser, string, string]> = [
      [taro, `/api/messages/read?partner=${encodeURIComponent("あ".repeat(51))}`, MSG.partnerSearchTooLong],
      [taro, `/api/messages/sent?partner=${encodeURIComponent("\u0000")}`, MSG.textInvalid],
      [taro, "/api/messages/unread?withOperator=maybe", MSG.badRequest],
      [taro, "/api/messages/read?page=0", MSG.badRequest],
      [taro, "/api/messages/read?limit=101", MSG.badRequest],
      [admin, `/api/admin/messages?box=sent&partner=${"x".repeat(51)}`, MSG.partnerSearchTooLong],
    ];
    for (const [as, url, message] of cases) {
      const res = await server.request({ method: "GET", url, as });
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toEqual({ message });
    }
    // Authenticated first: anonymous is 401 whatever the query; an administrator may not read a member's box.
    const anonymous = await server.request({ method: "GET", url: `/api/messages/read?partner=${"x".repeat(51)}` });
    expect(anonymous.statusCode).toBe(401);
    expect((await server.request({ method: "GET", url: "/api/messages/read", as: admin })).statusCode).toBe(403);
    expect(await snapshotTables(server, "messages", "users", "point_ledger")).toEqual(before);
  });

  it("the OpenAPI document lists /api/messages/read and the new query parameters", async () => {
    const res = await server.request({ method: "GET", url: "/api/openapi.json" });
    const doc = res.json() as {
      paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }> }>>;
    };
    const names = (path: string, method = "get") =>
      (doc.paths[path]?.[method]?.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name);
    expect(names("/api/messages/read")).toEqual(expect.arrayContaining(["page", "limit", "partner"]));
    expect(names("/api/messages/sent")).toContain("partner");
    expect(names("/api/messages/unread")).toEqual(expect.arrayContaining(["partner", "withOperator"]));
    expect(names("/api/admin/messages")).toContain("partner");
  });
});
