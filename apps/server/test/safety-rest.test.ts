import { MSG } from "@enmusubi/shared";
import { beforeAll, describe, expect, it } from "vitest";
import { type RestUser, snapshotTables, useTestServer } from "./helpers";

/**
 * Blocking and reports through HTTP (our own rows): every answer is held to the OpenAPI document
 * by the test server; refusals answer Japanese 4xx and change nothing.
 */
const server = useTestServer();
let admin: RestUser;

beforeAll(async () => {
  admin = await server.createUser({ role: "admin" });
});

const SECRET_KEYS = ["email", "points", "sendPoints", "role", "birthday", "userID", "password"];

async function post(as: RestUser | null, url: string, payload: unknown) {
  return server.request({ method: "POST", url, as, payload: payload as object });
}

async function sendMessage(from: RestUser, to: RestUser, content: string): Promise<string> {
  const res = await post(from, "/api/messages/recipientId", { userId: to.id, content });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().messageIds[0];
}

describe("POST /api/users/block, /api/users/unblock, GET /api/users/blocked", () => {
  it("blocks (idempotent), lists public profiles, refuses messages both ways (403), unblocks", async () => {
    const a = await server.createUser({ gender: "male" });
    const b = await server.createUser({ gender: "female" });
    for (let i = 0; i < 2; i++) {
      const res = await post(a, "/api/users/block", { userId: b.id });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ success: true, message: MSG.blockDone });
    }
    const list = await server.request({ method: "GET", url: "/api/users/blocked", as: a });
    expect(list.statusCode).toBe(200);
    const rows = list.json() as Array<Record<string, unknown>>;
    expect(rows.map((r) => r._id)).toEqual([b.id]);
    for (const key of SECRET_KEYS) expect(rows[0]).not.toHaveProperty(key);

    const before = await snapshotTables(server, "messages", "point_ledger", "users");
    for (const [from, to] of [
      [a, b],
      [b, a],
    ] as const) {
      const res = await post(from, "/api/messages/recipientId", { userId: to.id, content: "届かない" });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: MSG.blockedEitherWay });
    }
    expect(await snapshotTables(server, "messages", "point_ledger", "users")).toEqual(before);

    const unblocked = await post(a, "/api/users/unblock", { userId: b.id });
    expect(unblocked.json()).toEqual({ success: true, message: MSG.unblockDone });
    expect((await server.request({ method: "GET", url: "/api/users/blocked", as: a })).json()).toEqual([]);
    await sendMessage(a, b, "解除後");
  });

  it("refusals: oneself, administrators (400), unknown (404), bad input (400), wrong role (401/403); nothing changes", async () => {
    const a = await server.createUser();
    const before = await snapshotTables(server, "user_blocks", "favorites");
    const cases: Array<[RestUser | null, string, unknown, number, string]> = [
      [a, "/api/users/block", { userId: a.id }, 400, MSG.blockSelf],
      [a, "/api/users/block", { userId: admin.id }, 400, MSG.blockAdmin],
      [a, "/api/users/unblock", { userId: admin.id }, 400, MSG.blockAdmin],
      [a, "/api/users/block", { userId: "00000000-0000-4000-8000-000000000000" }, 404, MSG.notFound],
      [a, "/api/users/block", { userId: "abc" }, 400, MSG.notFound],
      [a, "/api/users/block", {}, 400, MSG.notFound],
      [null, "/api/users/block", { userId: a.id }, 401, MSG.unauthorized],
      [admin, "/api/users/block", { userId: a.id }, 403, MSG.forbidden],
    ];
    for (const [as, url, payload, status, message] of cases) {
      const res = await post(as, url, payload);
      expect(res.statusCode, `${url} ${JSON.stringify(payload)}`).toBe(status);
      expect(res.json()).toEqual({ message });
    }
    expect((await server.request({ method: "GET", url: "/api/users/blocked", as: admin })).statusCode).toBe(403);
    expect(await snapshotTables(server, "user_blocks", "favorites")).toEqual(before);
  });
});

describe("POST /api/reports", () => {
  it("reports a received message (201), refuses a duplicate (409) and what the member is not party to (404)", async () => {
    const a = await server.createUser({ gender: "male" });
    const b = await server.createUser({ gender: "female" });
    const c = await server.createUser({ gender: "female" });
    const received = await sendMessage(b, a, "怪しい勧誘");
    const notMine = await sendMessage(b, c, "二人の話");

    const res = await post(a, "/api/reports", {
      targetType: "message",
      targetId: received,
      reason: "prostitution",
      detail: "金銭の話",
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ success: true, message: MSG.reportDone, _id: expect.any(String) });

    const before = await snapshotTables(server, "reports");
    const cases: Array<[RestUser | null, unknown, number, string]> = [
      [a, { targetType: "message", targetId: received, reason: "harassment" }, 409, MSG.reportDuplicate],
      [a, { targetType: "message", targetId: notMine, reason: "harassment" }, 404, MSG.notFound],
      [a, { targetType: "member", targetId: a.id, reason: "harassment" }, 400, MSG.reportSelf],
      [a, { targetType: "member", targetId: b.id, reason: "other" }, 400, MSG.reportDetailRequired],
      [a, { targetType: "member", targetId: b.id, reason: "nope" }, 400, MSG.reportReasonInvalid],
      [a, { targetType: "post", targetId: b.id, reason: "harassment" }, 400, MSG.reportTargetInvalid],
      [
        a,
        { targetType: "member", targetId: b.id, reason: "harassment", detail: "x".repeat(1001) },
        400,
        MSG.reportDetailTooLong,
      ],
      [null, { targetType: "member", targetId: b.id, reason: "harassment" }, 401, MSG.unauthorized],
      [admin, { targetType: "member", targetId: b.id, reason: "harassment" }, 403, MSG.forbidden],
    ];
    for (const [as, payload, status, message] of cases) {
      const r = await post(as, "/api/reports", payload);
      expect(r.statusCode, JSON.stringify(payload)).toBe(status);
      expect(r.json()).toEqual({ message });
    }
    expect(await snapshotTables(server, "reports")).toEqual(before);
  });

  it("a suspended member's login answers 403 once the password matched (401 for a wrong one)", async () => {
    const member = await server.createUser();
    expect((await server.request({ method: "GET", url: "/api/users/blocked", as: member })).statusCode).toBe(200);
    await server.database.db.execute(`update users set suspended_at = now() where id = '${member.id}'`);
    const ok = await post(null, "/api/auth/login", { userID: member.userID, password: member.password });
    expect(ok.statusCode).toBe(403);
    expect(ok.json()).toEqual({ message: MSG.accountSuspended });
    const wrong = await post(null, "/api/auth/login", { userID: member.userID, password: "wrong-password" });
    expect(wrong.statusCode).toBe(401);
    expect((await server.request({ method: "GET", url: "/api/users/blocked", as: member })).statusCode).toBe(401);
  });
});
