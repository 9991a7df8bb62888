import { MSG } from "@enmusubi/shared";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { type RestUser, snapshotTables, useTestServer } from "./helpers";

/**
 * Conversations over REST (decision 0030): GET /api/messages/conversations and
 * GET /api/messages/with/{userId}, every answer held to the published OpenAPI document.
 */

const server = useTestServer();
let alice: RestUser;
let bob: RestUser;
let carol: RestUser;

beforeAll(async () => {
  alice = await server.createUser({ name: "アリス", points: 5000 });
  bob = await server.createUser({ name: "ボブ", gender: "female", points: 5000 });
  carol = await server.createUser({ name: "キャロル", points: 5000 });
});

async function send(from: RestUser, to: RestUser, content: string): Promise<string> {
  const res = await server.request({
    method: "POST",
    url: "/api/messages/recipientId",
    as: from,
    payload: { userId: to.id, content },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().messageIds[0];
}

const get = (as: RestUser, url: string) => server.request({ method: "GET", url, as });

describe("GET /api/messages/conversations", () => {
  it("one line per partner, newest first, with the sealed preview and the unread count", async () => {
    await send(bob, alice, "ボブからのはじめてのメッセージです");
    await send(alice, carol, "キャロルさんへ");
    await send(bob, alice, "ボブからの二通目のメッセージです");
    const res = await get(alice, "/api/messages/conversations");
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.conversations.map((c: { partner: { name: string } }) => c.partner.name)).toEqual(["ボブ", "キャロル"]);
    expect(body.conversations[0]).toMatchObject({
      partner: { _id: bob.id, role: "user", verified: true },
      last_message: { sealed: true, body: "ボブからの二通目…", preview: "ボブからの二通目…" },
      unread_count: 2,
    });
    expect(body.pagination).toMatchObject({ total: 2, totalPages: 1, currentPage: 1, totalCapped: false });
    const paged = await get(alice, "/api/messages/conversations?page=2&limit=1");
    expect(paged.json().conversations.map((c: { partner: { _id: string } }) => c.partner._id)).toEqual([carol.id]);
    const searched = await get(alice, `/api/messages/conversations?q=${encodeURIComponent("キャロ")}`);
    expect(searched.json().pagination.total).toBe(1);
  });

  it("bad queries answer 400 in Japanese", async () => {
    for (const [query, message] of [
      ["page=0", MSG.badRequest],
      ["page=abc", MSG.badRequest],
      ["limit=101", MSG.badRequest],
      [`q=${encodeURIComponent("あ".repeat(51))}`, MSG.partnerSearchTooLong],
    ] as const) {
      const res = await get(alice, `/api/messages/conversations?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().message).toBe(message);
    }
  });
});

describe("GET /api/messages/with/{userId}", () => {
  it("pages backwards to the oldest; opening a sealed one with POST /api/messages/{id}/open reads it", async () => {
    const dave = await server.createUser({ name: "デイブ", points: 5000 });
    const erin = await server.createUser({ name: "エリン", points: 5000 });
    await server.database.db.execute(
      sql`insert into messages (from_user_id, to_user_id, body, created_at)
          select ${erin.id}::uuid, ${dave.id}::uuid, '古いメッセージ ' || g, now() - (100 - g) * interval '1 minute'
          from generate_series(1, 45) g`,
    );
    const first = await get(dave, `/api/messages/with/${erin.id}?limit=20`);
    expect(first.statusCode, first.body).toBe(200);
    const page = first.json();
    expect(page).toMatchObject({
      partner: { _id: erin.id, name: "エリン", reachable: true },
      has_older: true,
      scheduled: [],
    });
    expect(page.messages).toHaveLength(20);
    expect(page.next_cursor).toBe(page.messages[0]._id);
    const ids: string[] = page.messages.map((m: { _id: string }) => m._id);
    let cursor = page.next_cursor as string | null;
    while (cursor) {
      const older = (await get(dave, `/api/messages/with/${erin.id}?limit=20&before=${cursor}`)).json();
      ids.unshift(...older.messages.map((m: { _id: string }) => m._id));
      cursor = older.next_cursor;
      if (!older.has_older) expect(older.messages[0].preview).toBe("古いメッ…");
    }
    expect(new Set(ids).size).toBe(45);
    const newest = page.messages.at(-1);
    expect(newest).toMatchObject({ sealed: true, is_read: false });
    const opened = await server.request({
      method: "POST",
      url: `/api/messages/${newest._id}/open`,
      as: dave,
      payload: {},
    });
    expect(opened.statusCode, opened.body).toBe(200);
    const again = (await get(dave, `/api/messages/with/${erin.id}?limit=1`)).json();
    expect(again.messages[0]).toMatchObject({
      _id: newest._id,
      sealed: false,
      is_read: true,
      body: "古いメッセージ 45",
    });
    const list = (await get(dave, "/api/messages/conversations")).json();
    expect(list.conversations[0].unread_count).toBe(44);
  });

  it("404 for someone out of reach, 400 for a bad id or cursor, and nothing changes", async () => {
    const other = await send(carol, bob, "他人どうしのメッセージ");
    const before = await snapshotTables(server, "messages", "conversations", "point_ledger");
    const cases: Array<[string, number, string]> = [
      [`/api/messages/with/${alice.id}`, 404, MSG.notFound],
      ["/api/messages/with/00000000-0000-4000-8000-000000000000", 404, MSG.notFound],
      ["/api/messages/with/not-an-id", 400, MSG.notFound],
      [`/api/messages/with/${bob.id}?before=xyz`, 400, MSG.threadCursorInvalid],
      [`/api/messages/with/${bob.id}?before=${other}`, 400, MSG.threadCursorInvalid],
      [`/api/messages/with/${bob.id}?limit=0`, 400, MSG.badRequest],
    ];
    for (const [url, status, message] of cases) {
      const res = await get(alice, url);
      expect(res.statusCode, url).toBe(status);
      expect(res.json().message, url).toBe(message);
    }
    expect(await snapshotTables(server, "messages", "conversations", "point_ledger")).toEqual(before);
  });
});
