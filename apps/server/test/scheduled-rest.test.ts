import { insufficientPoints, MSG } from "@enmusubi/shared";
import { beforeAll, describe, expect, it } from "vitest";
import { type RestUser, snapshotTables, useTestServer } from "./helpers";

const server = useTestServer();
let admin: RestUser;
let alice: RestUser;
let bob: RestUser;

beforeAll(async () => {
  admin = await server.createUser({ role: "admin", name: "運営" });
  alice = await server.createUser({ name: "アリス", points: 1000 });
  bob = await server.createUser({ name: "ボブ", gender: "female", points: 1000 });
});

const LEGACY_KEYS = [
  "content",
  "createdAt",
  "id",
  "lastError",
  "recipients",
  "scheduledAt",
  "senderUserId",
  "source",
  "status",
  "type",
];

const later = () => new Date(Date.now() + 3600_000).toISOString();

describe("scheduled message rows", () => {
  it("POST schedules with the legacy payload, GET lists own entries, DELETE cancels them", async () => {
    const created = await server.request({
      method: "POST",
      url: "/api/scheduled-messages",
      as: alice,
      payload: {
        type: "direct",
        recipients: [bob.id],
        content: "また明日",
        scheduledAt: later(),
        source: "user:favorite",
        needsPointDeduction: true,
      },
    });
    expect(created.statusCode).toBe(201);
    const entry = created.json();
    expect(Object.keys(entry).sort()).toEqual(LEGACY_KEYS);
    expect(entry).toMatchObject({ recipients: [bob.id], status: "pending", senderUserId: null, lastError: null });

    const mine = await server.request({ method: "GET", url: "/api/scheduled-messages", as: alice });
    expect(mine.statusCode).toBe(200);
    expect(mine.json().map((e: { id: string }) => e.id)).toEqual([entry.id]);
    const filtered = await server.request({
      method: "GET",
      url: "/api/scheduled-messages?source=user:sent",
      as: alice,
    });
    expect(filtered.json()).toEqual([]);
    expect((await server.request({ method: "GET", url: "/api/scheduled-messages", as: bob })).json()).toEqual([]);

    const before = await snapshotTables(server, "scheduled_messages");
    for (const outsider of [bob, admin]) {
      const res = await server.request({ method: "DELETE", url: `/api/scheduled-messages/${entry.id}`, as: outsider });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: MSG.notFound });
    }
    expect(await snapshotTables(server, "scheduled_messages")).toEqual(before);

    const cancelled = await server.request({ method: "DELETE", url: `/api/scheduled-messages/${entry.id}`, as: alice });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toEqual({ success: true, message: MSG.scheduledCancelled });
    expect((await server.request({ method: "GET", url: "/api/scheduled-messages", as: alice })).json()).toEqual([]);
    const again = await server.request({ method: "DELETE", url: `/api/scheduled-messages/${entry.id}`, as: alice });
    expect(again.statusCode).toBe(404);
  });

  it("refuses bad payloads with the Japanese messages, changing nothing", async () => {
    const before = await snapshotTables(server, "scheduled_messages", "messages", "point_ledger");
    const base = {
      type: "direct",
      recipients: [bob.id],
      content: "こんにちは",
      scheduledAt: later(),
      source: "user:favorite",
    };
    for (const [payload, status, message] of [
      [{ ...base, recipients: [] }, 400, MSG.scheduledRecipientsRequired],
      [{ ...base, content: " " }, 400, MSG.scheduledContentRequired],
      [{ ...base, scheduledAt: "いつか" }, 400, MSG.scheduledAtInvalid],
      [{ ...base, scheduledAt: undefined }, 400, MSG.scheduledAtInvalid],
      [{ ...base, recipients: [alice.id] }, 400, MSG.cannotMessageSelf],
      [{ ...base, senderUserId: bob.id }, 403, MSG.forbidden],
    ] as const) {
      const res = await server.request({ method: "POST", url: "/api/scheduled-messages", as: alice, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json().message).toBe(message);
    }
    expect((await server.request({ method: "POST", url: "/api/scheduled-messages", payload: base })).statusCode).toBe(
      401,
    );
    expect(
      (await server.request({ method: "GET", url: "/api/scheduled-messages?source=x", as: alice })).statusCode,
    ).toBe(400);
    expect(await snapshotTables(server, "scheduled_messages", "messages", "point_ledger")).toEqual(before);
  });

  it("a time in the past sends at once; with too few points that answers 402 with the figures", async () => {
    const now = await server.request({
      method: "POST",
      url: "/api/scheduled-messages",
      as: alice,
      payload: {
        type: "direct",
        recipientIds: [bob.id],
        content: "すぐ届く",
        scheduledAt: new Date(Date.now() - 1000).toISOString(),
        source: "user:favorite",
      },
    });
    expect(now.statusCode).toBe(201);
    expect(now.json().status).toBe("sent");

    const poor = await server.createUser({ points: 0 });
    const refused = await server.request({
      method: "POST",
      url: "/api/scheduled-messages",
      as: poor,
      payload: {
        type: "direct",
        recipients: [bob.id],
        content: "届かない",
        scheduledAt: new Date().toISOString(),
        source: "user:favorite",
      },
    });
    expect(refused.statusCode).toBe(402);
    expect(refused.json()).toMatchObject({ success: false, available: 0 });
    expect(refused.json().message).toBe(insufficientPoints(refused.json().required, 0));
  });

  it("administrators schedule as a member and see every administrator's pending entries", async () => {
    const created = await server.request({
      method: "POST",
      url: "/api/scheduled-messages",
      as: admin,
      payload: {
        type: "direct",
        recipients: [bob.id],
        content: "代理送信",
        scheduledAt: later(),
        source: "admin:email-mgmt",
        senderUserId: alice.id,
      },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().senderUserId).toBe(alice.id);
    const pending = await server.request({ method: "GET", url: "/api/admin/scheduled-messages", as: admin });
    expect(pending.statusCode).toBe(200);
    expect(pending.json().map((e: { id: string }) => e.id)).toContain(created.json().id);
    expect((await server.request({ method: "GET", url: "/api/admin/scheduled-messages", as: alice })).statusCode).toBe(
      403,
    );
  });
});
