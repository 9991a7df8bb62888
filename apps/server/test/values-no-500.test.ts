import { AppError, createCaller, createContextInner, toTRPCError } from "@enmusubi/api";
import { messages } from "@enmusubi/db";
import { MSG } from "@enmusubi/shared";
import { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import Fastify from "fastify";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { registerRoutes, route } from "../src/rest/adapter";
import { type RestUser, snapshotTables, useTestServer } from "./helpers";

/*
 * No 500 for any input (decision 0019): days, instants and pages that used to reach the database (or
 * a hand-written parser) and answer 500. Each is refused with 400 and a Japanese message, and
 * changes nothing. Run on PostgreSQL too (TEST_DATABASE_URL): year 0 behaves differently there.
 */

const server = useTestServer();
let admin: RestUser;
let member: RestUser;
let other: RestUser;

beforeAll(async () => {
  admin = await server.createUser({ role: "admin" });
  member = await server.createUser({ points: 1000 });
  other = await server.createUser({ gender: "female", points: 1000 });
});

const JAPANESE = /[ぁ-んァ-ヶ一-龠]/;

async function refused(url: string, as: RestUser, message?: string) {
  const res = await server.request({ method: "GET", url, as });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
  expect(res.json().message).toMatch(JAPANESE);
  if (message) expect(res.json().message).toBe(message);
}

describe("REST: impossible days, year 0, reversed ranges and huge pages answer 400", () => {
  it("GET /api/admin/payments/transactions", async () => {
    const base = "/api/admin/payments/transactions";
    await refused(`${base}?startDate=2025-02-31`, admin, MSG.dateInvalid);
    await refused(`${base}?endDate=2023-02-29`, admin, MSG.dateInvalid);
    await refused(`${base}?startDate=0000-01-01`, admin, MSG.dateInvalid);
    await refused(`${base}?startDate=2025-03-02&endDate=2025-03-01`, admin, MSG.dateRangeInvalid);
    await refused(`${base}?page=100001`, admin, MSG.pageTooLarge);
    await refused(`${base}?page=1e15`, admin);
    // A leap day that exists is a day.
    const ok = await server.request({
      method: "GET",
      url: `${base}?startDate=2024-02-29&endDate=2024-03-01`,
      as: admin,
    });
    expect(ok.statusCode).toBe(200);
  });

  it("GET /api/admin/messages", async () => {
    await refused("/api/admin/messages?dateFrom=0000-01-01", admin);
    await refused("/api/admin/messages?dateFrom=2025-02-31", admin);
    await refused("/api/admin/messages?page=1e15&limit=10000", admin);
    await refused("/api/admin/messages?page=1000000&limit=10000", admin, MSG.pageTooLarge);
    await refused("/api/admin/messages?dateFrom=2025-03-02&dateTo=2025-03-01", admin);
    const ok = await server.request({
      method: "GET",
      url: "/api/admin/messages?dateFrom=2025-03-01&dateTo=2025-03-01T12:00:00Z",
      as: admin,
    });
    expect(ok.statusCode).toBe(200);
  });

  it("GET /api/board", async () => {
    await refused("/api/board?dateFrom=0000-01-01", member);
    await refused("/api/board?dateFrom=2025-02-31", member);
    await refused("/api/board?dateFrom=2025-03-02&dateTo=2025-03-01", member);
  });

  it("GET /api/admin/users, /api/users/search, /api/messages/inbox with huge pages", async () => {
    await refused("/api/admin/users?page=1e15", admin);
    await refused("/api/admin/users?page=900000000&limit=1000", admin, MSG.pageTooLarge);
    await refused("/api/users/search?page=1e15", member);
    await refused("/api/messages/inbox?page=900000000&limit=100", member, MSG.pageTooLarge);
    await refused("/api/admin/inquiries?page=900000000&limit=100", admin, MSG.pageTooLarge);
  });

  it("POST /api/scheduled-messages with year 0 or a far-future instant changes nothing", async () => {
    const before = await snapshotTables(server, "scheduled_messages", "messages", "point_ledger");
    for (const scheduledAt of ["0000-01-01T00:00:00Z", "-000001-01-01T00:00:00Z", "9999-12-31T23:59:59Z"]) {
      const res = await server.request({
        method: "POST",
        url: "/api/scheduled-messages",
        as: member,
        payload: { type: "direct", recipients: [other.id], content: "こんにちは", scheduledAt, source: "user:search" },
      });
      expect(res.statusCode, `${scheduledAt}: ${res.body}`).toBe(400);
      expect(res.json().message).toBe(MSG.scheduledAtInvalid);
    }
    expect(await snapshotTables(server, "scheduled_messages", "messages", "point_ledger")).toEqual(before);
  });
});

describe("a day in a filter is the Japanese day (Asia/Tokyo), not UTC's", () => {
  it("GET /api/admin/messages?dateFrom=D&dateTo=D lists what was written on D in Japan", async () => {
    // 2025-03-02 01:00 in Tokyo: still 2025-03-01 in UTC.
    await server.database.db.insert(messages).values({
      fromUserId: member.id,
      toUserId: other.id,
      body: "日本時間の3月2日",
      createdAt: new Date("2025-03-01T16:00:00Z"),
    });
    const list = async (query: string) => {
      const res = await server.request({ method: "GET", url: `/api/admin/messages?${query}`, as: admin });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().messages.map((m: { body: string }) => m.body);
    };
    expect(await list("dateFrom=2025-03-02&dateTo=2025-03-02")).toEqual(["日本時間の3月2日"]);
    expect(await list("dateFrom=2025-03-01&dateTo=2025-03-01")).toEqual([]);
    expect(await list("dateFrom=2025-03-02T00:00:00%2B09:00&dateTo=2025-03-02T02:00:00%2B09:00")).toEqual([
      "日本時間の3月2日",
    ]);
  });
});

describe("GET /api/board honours limit from 1 to 50", () => {
  it("limit 1–50 is a page of that size (default 10); 0 and 51 are refused", async () => {
    const entered = await server.request({ method: "POST", url: "/api/board/enter", as: member, payload: {} });
    expect(entered.statusCode, entered.body).toBeLessThan(300);
    for (let i = 0; i < 12; i += 1) {
      const res = await server.request({
        method: "POST",
        url: "/api/admin/board",
        as: admin,
        payload: { title: `お知らせ${i}`, content: "本文" },
      });
      expect(res.statusCode, res.body).toBeLessThan(300);
    }
    const eleven = await server.request({ method: "GET", url: "/api/board?limit=11", as: member });
    expect(eleven.json().posts).toHaveLength(11);
    expect(eleven.json().pagination).toMatchObject({ limit: 11, totalPages: 2, hasNextPage: true });
    const res = await server.request({ method: "GET", url: "/api/board?limit=25", as: member });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().pagination.limit).toBe(25);
    const standard = await server.request({ method: "GET", url: "/api/board", as: member });
    expect(standard.json().pagination.limit).toBe(10);
    expect(standard.json().posts).toHaveLength(10);
    await refused("/api/board?limit=0", member);
    await refused("/api/board?limit=51", member);
  });
});

describe("tRPC: the same values are BAD_REQUEST, never INTERNAL_SERVER_ERROR", () => {
  async function status(who: RestUser, call: (c: ReturnType<typeof createCaller>) => Promise<unknown>) {
    const caller = createCaller(createContextInner(server.app.deps, who.session));
    try {
      await call(caller);
      return 200;
    } catch (error) {
      if (!(error instanceof TRPCError)) throw error;
      return getHTTPStatusCodeFromError(error);
    }
  }

  it("scheduled.create with a far-past Date", async () => {
    const at = new Date("0000-01-01T00:00:00Z");
    const send = (c: ReturnType<typeof createCaller>) =>
      c.scheduled.create({
        type: "direct",
        recipientIds: [other.id],
        content: "こんにちは",
        scheduledAt: at,
        source: "user:search",
      });
    expect(await status(member, send)).toBe(400);
  });

  /** The TRPCError's message, or "" when the call succeeds. */
  async function refusal(who: RestUser, call: (c: ReturnType<typeof createCaller>) => Promise<unknown>) {
    const caller = createCaller(createContextInner(server.app.deps, who.session));
    return call(caller).then(
      () => "",
      (error: TRPCError) => error.message,
    );
  }

  it("the schemas stop them (their own message, not the database's refusal)", async () => {
    expect(await refusal(admin, (c) => c.adminAudit.list({ dateFrom: "0000-01-01" }))).toBe(MSG.dateInvalid);
    expect(await refusal(admin, (c) => c.adminPayments.sales({ granularity: "day", from: "0000-01-01" }))).toBe(
      MSG.dateInvalid,
    );
    expect(await refusal(admin, (c) => c.adminMessages.list({ dateFrom: "0000-01-01" }))).toBe(MSG.dateInvalid);
    expect(await refusal(admin, (c) => c.adminInquiries.list({ page: 1e15 }))).toBe(MSG.pageTooLarge);
    expect(await refusal(admin, (c) => c.adminUsers.list({ page: 1e15 }))).toBe(MSG.pageTooLarge);
    expect(await refusal(member, (c) => c.members.search({ page: 1e15 }))).toBe(MSG.pageTooLarge);
  });

  it("an empty search has one (empty) page, not zero", async () => {
    const caller = createCaller(createContextInner(server.app.deps, member.session));
    const found = await caller.members.search({ keyword: "該当する人のいない名前" });
    expect(found.total).toBe(0);
    expect(found.totalPages).toBe(1);
  });

  it("adminPayments.sales and adminAudit.list with year 0000", async () => {
    expect(await status(admin, (c) => c.adminPayments.sales({ granularity: "day", from: "0000-01-01" }))).toBe(400);
    expect(await status(admin, (c) => c.adminPayments.sales({ granularity: "month", to: "0000-12-31" }))).toBe(400);
    expect(await status(admin, (c) => c.adminAudit.list({ dateFrom: "0000-01-01" }))).toBe(400);
    expect(await status(admin, (c) => c.adminAudit.list({ dateTo: "0000-01-01" }))).toBe(400);
    expect(await status(admin, (c) => c.adminMessages.list({ dateFrom: "0000-01-01" }))).toBe(400);
    expect(await status(member, (c) => c.board.list({ startDate: "0000-01-01" }))).toBe(400);
  });
});

describe("errors a handler throws are shaped by errors.ts", () => {
  it("a ZodError, an AppError, a TRPCError BAD_REQUEST and a database refusal of a value are 400, anything else 500", async () => {
    const app = Fastify({ logger: false });
    app.decorate("deps", server.app.deps);
    const failing = (name: string, fail: () => never) =>
      route({
        method: "GET",
        path: `/test/${name}`,
        summary: name,
        access: "public",
        response: z.object({}),
        example: {},
        handler: async () => fail(),
      });
    const databaseRefusal = Object.assign(new Error("date/time field value out of range"), { code: "22008" });
    registerRoutes(app, [
      failing("zod", () => {
        z.number({ error: MSG.pageTooLarge }).parse("x");
        throw new Error("unreachable");
      }),
      failing("app", () => {
        throw new AppError("BAD_REQUEST", MSG.dateInvalid);
      }),
      failing("trpc", () => {
        throw toTRPCError(new AppError("BAD_REQUEST", MSG.dateRangeInvalid));
      }),
      failing("database", () => {
        throw new Error("Failed query", { cause: databaseRefusal });
      }),
      failing("bug", () => {
        throw new TypeError("x is undefined");
      }),
    ]);
    await app.ready();
    const answer = async (name: string) => {
      const res = await app.inject({ method: "GET", url: `/test/${name}` });
      return [res.statusCode, res.json().message];
    };
    expect(await answer("zod")).toEqual([400, MSG.pageTooLarge]);
    expect(await answer("app")).toEqual([400, MSG.dateInvalid]);
    expect(await answer("trpc")).toEqual([400, MSG.dateRangeInvalid]);
    expect(await answer("database")).toEqual([400, MSG.badRequest]);
    expect(await answer("bug")).toEqual([500, MSG.internalError]);
    await app.close();
    // The same mapping for procedures.
    expect(toTRPCError(new Error("Failed query", { cause: databaseRefusal })).code).toBe("BAD_REQUEST");
  });
});
