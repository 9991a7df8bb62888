import { insufficientPoints, MSG } from "@enmusubi/shared";
import { beforeAll, describe, expect, it } from "vitest";
import { type RestUser, snapshotTables, useTestServer } from "./helpers";

/**
 * Unreachable members through HTTP (decision 0015): a suspended (or deleted) member leaves the member-facing lists and is
 * refused as the target of a paid action with 404, charging nothing; their open live-count stream
 * ends at the suspension. Every answer is held to the OpenAPI document by the test server.
 */
const server = useTestServer();
let admin: RestUser;
let alice: RestUser;
let suspended: RestUser;
let deleted: RestUser;
const tag = `停止R${Math.random().toString(36).slice(2, 7)}`;

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
];

/** An administrator's tRPC mutation over HTTP (suspension has no legacy REST route). */
async function trpc(as: RestUser, path: string, input: unknown) {
  const res = await server.app.inject({
    method: "POST",
    url: `/trpc/${path}`,
    headers: { authorization: `Bearer ${as.token}`, "content-type": "application/json" },
    payload: JSON.stringify({ json: input }),
  });
  expect(res.statusCode, res.body).toBe(200);
}

beforeAll(async () => {
  admin = await server.createUser({ role: "admin" });
  alice = await server.createUser({ name: `${tag}アリス`, gender: "male", points: 1000 });
  suspended = await server.createUser({ name: `${tag}停止`, gender: "female" });
  deleted = await server.createUser({ name: `${tag}退会`, gender: "female" });
  for (const other of [suspended, deleted]) {
    const res = await server.request({
      method: "POST",
      url: "/api/users/favorite",
      as: alice,
      payload: { favoriteUserId: other.id },
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  await trpc(admin, "adminModeration.suspend", { userId: suspended.id, reason: "テスト" });
  const gone = await server.request({ method: "DELETE", url: `/api/admin/users/${deleted.id}`, as: admin });
  expect(gone.statusCode, gone.body).toBeLessThan(300);
});

describe("suspended and deleted members through REST", () => {
  it("leave the profile search and the favourites", async () => {
    const search = await server.request({
      method: "GET",
      url: `/api/users/search?keyword=${encodeURIComponent(tag)}&excludeSameSex=false`,
      as: alice,
    });
    expect(search.statusCode, search.body).toBe(200);
    expect(search.json().profiles).toEqual([]);
    const favourites = await server.request({ method: "GET", url: "/api/users/favorites", as: alice });
    expect(favourites.statusCode).toBe(200);
    expect(favourites.json().map((p: { _id: string }) => p._id)).toEqual([]);
  });

  it("are refused with 404 as the target of a profile view, a message, a favourite or a scheduled message; nothing is charged", async () => {
    const before = await snapshotTables(server, ...TABLES);
    for (const other of [suspended, deleted]) {
      const calls: Array<[string, string, object | undefined, string]> = [
        ["POST", `/api/users/${other.id}/profile-view`, undefined, MSG.notFound],
        ["GET", `/api/users/${other.id}/view-price`, undefined, MSG.notFound],
        ["POST", `/api/messages/${other.id}`, { content: "届きますか" }, MSG.recipientUnavailable],
        ["POST", "/api/messages/recipientId", { userId: other.id, content: "届きますか" }, MSG.recipientUnavailable],
        ["POST", "/api/users/favorite", { favoriteUserId: other.id }, MSG.notFound],
        [
          "POST",
          "/api/scheduled-messages",
          {
            type: "direct",
            recipients: [other.id],
            content: "予約",
            scheduledAt: new Date(Date.now() + 3600_000).toISOString(),
            source: "user:favorite",
          },
          MSG.recipientUnavailable,
        ],
      ];
      for (const [method, url, payload, message] of calls) {
        const res = await server.request({
          method: method as "GET" | "POST",
          url,
          as: alice,
          ...(payload ? { payload } : {}),
        });
        expect(res.statusCode, `${url} ${res.body}`).toBe(404);
        expect(res.json()).toEqual({ message });
      }
    }
    expect(await snapshotTables(server, ...TABLES)).toEqual(before);
  });
});

describe("the live unread count over SSE", () => {
  let base: string;
  beforeAll(async () => {
    await server.app.listen({ port: 0, host: "127.0.0.1" });
    const address = server.app.server.address();
    if (!address || typeof address === "string") throw new Error("no port");
    base = `http://127.0.0.1:${address.port}`;
  });

  it("ends when the member is suspended", async () => {
    const member = await server.createUser({});
    const url =
      `${base}/trpc/messages.onUnreadCount` +
      `?connectionParams=${encodeURIComponent(JSON.stringify({ token: member.token }))}` +
      `&input=${encodeURIComponent(JSON.stringify({ json: null, meta: { values: ["undefined"], v: 1 } }))}`;
    const controller = new AbortController();
    const res = await fetch(url, { headers: { accept: "text/event-stream" }, signal: controller.signal });
    try {
      expect(res.status).toBe(200);
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      const decoder = new TextDecoder();
      let text = "";
      while (!text.includes('"count"')) {
        const { value, done } = await reader.read();
        if (done) throw new Error("the stream ended before its first count");
        text += decoder.decode(value, { stream: true });
      }
      await trpc(admin, "adminModeration.suspend", { userId: member.id, reason: "テスト" });
      const ended = await Promise.race([
        (async () => {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) return "ended";
            text += decoder.decode(value, { stream: true });
          }
        })(),
        new Promise((resolve) => setTimeout(() => resolve("still open"), 3000)),
      ]);
      expect(ended).toBe("ended");
    } finally {
      controller.abort();
    }
  });
});

describe("points past their lot's expiry (decision 0008)", () => {
  it("cannot pay a profile view: 402 quoting the spendable points, nothing written", async () => {
    const viewer = await server.createUser({ points: 100 });
    const viewed = await server.createUser({});
    await server.database.db.execute(
      `update point_lots set expires_at = now() - interval '1 minute' where user_id = '${viewer.id}'`,
    );
    const before = await snapshotTables(server, ...TABLES);
    const res = await server.request({ method: "POST", url: `/api/users/${viewed.id}/profile-view`, as: viewer });
    expect(res.statusCode, res.body).toBe(402);
    expect(res.json()).toMatchObject({ message: insufficientPoints(15, 0), required: 15, available: 0 });
    expect(await snapshotTables(server, ...TABLES)).toEqual(before);
  });
});
