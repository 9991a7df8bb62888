import { mailOutbox } from "@enmusubi/db";
import { MSG } from "@enmusubi/shared";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { type RestUser, snapshotTables, useTestServer } from "./helpers";

/**
 * The legacy inquiry rows (spec §7 /api/inquiry*, /api/admin/inquiries*), through HTTP: every
 * answer is also held to the published OpenAPI document by `server.request`.
 */

const server = useTestServer();
const TABLES = ["inquiries", "inquiry_replies", "mail_outbox", "admin_audit_log"];

let admin: RestUser;
let owner: RestUser;
let other: RestUser;

beforeAll(async () => {
  admin = await server.createUser({ role: "admin", name: "運営" });
  owner = await server.createUser({ name: "問い合わせ 花子" });
  other = await server.createUser({ name: "別の会員" });
});

interface LegacyInquiry {
  _id: string;
  userID: { _id: string; name: string | null; userID: string; email: string };
  title: string;
  message: string;
  is_read: boolean;
  reply_unread: boolean;
  created_at: string;
  replies: Array<{
    _id: string;
    adminId: { _id: string; name: string | null; userID: string | null };
    reply: string;
    createdAt: string;
  }>;
}

async function create(
  title = "ログインできません",
  message = "パスワードを変えてからログインできません。",
  as = owner,
) {
  const res = await server.request({ method: "POST", url: "/api/inquiry", as, payload: { title, message } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ inquiry: LegacyInquiry }>().inquiry;
}

type Actor = "owner" | "other" | "admin" | "anonymous";
const who = (a: Actor) => ({ owner, other, admin, anonymous: null })[a];

const ROWS: Array<{
  method: "GET" | "POST" | "PUT" | "DELETE";
  url: (id: string) => string;
  payload?: Record<string, unknown>;
  expect: Record<Actor, number>;
}> = [
  {
    method: "POST",
    url: () => "/api/inquiry",
    payload: { title: "件名", message: "本文" },
    expect: { owner: 201, other: 201, admin: 403, anonymous: 401 },
  },
  { method: "GET", url: () => "/api/inquiry", expect: { owner: 200, other: 200, admin: 403, anonymous: 401 } },
  {
    method: "DELETE",
    url: (id) => `/api/inquiry/${id}`,
    expect: { owner: 200, other: 404, admin: 403, anonymous: 401 },
  },
  {
    method: "PUT",
    url: (id) => `/api/inquiry/${id}/seen`,
    expect: { owner: 200, other: 404, admin: 403, anonymous: 401 },
  },
  { method: "GET", url: () => "/api/admin/inquiries", expect: { owner: 403, other: 403, admin: 200, anonymous: 401 } },
  {
    method: "PUT",
    url: (id) => `/api/admin/inquiries/${id}/read`,
    expect: { owner: 403, other: 403, admin: 200, anonymous: 401 },
  },
  {
    method: "POST",
    url: (id) => `/api/admin/inquiries/${id}/reply`,
    payload: { reply: "確認します" },
    expect: { owner: 403, other: 403, admin: 201, anonymous: 401 },
  },
];

describe("each inquiry row × owner, other member, administrator, anonymous", () => {
  for (const row of ROWS) {
    for (const actor of ["owner", "other", "admin", "anonymous"] as const) {
      const status = row.expect[actor];
      it(`${row.method} ${row.url(":id")} as ${actor}: ${status}`, async () => {
        const inquiry = await create();
        const before = await snapshotTables(server, ...TABLES);
        const res = await server.request({
          method: row.method,
          url: row.url(inquiry._id),
          as: who(actor),
          ...(row.payload ? { payload: row.payload } : {}),
        });
        expect(res.statusCode, res.body).toBe(status);
        if (status >= 400) expect(await snapshotTables(server, ...TABLES)).toEqual(before);
      });
    }
  }

  it("a member's GET /api/inquiry never holds another member's inquiry", async () => {
    const mine = await create("自分の");
    const res = await server.request({ method: "GET", url: "/api/inquiry?limit=100", as: other });
    expect(res.json<LegacyInquiry[]>().map((i) => i._id)).not.toContain(mine._id);
    expect(res.json<LegacyInquiry[]>().every((i) => i.userID._id === other.id)).toBe(true);
  });
});

describe("legacy shapes", () => {
  it("POST, reply, GET (member and admin), seen and DELETE answer the spec's fields", async () => {
    const owner = await server.createUser({ name: "形式 確認" });
    const created = await create("  退会について ", "退会したいです。", owner);
    expect(created).toMatchObject({
      title: "退会について",
      message: "退会したいです。",
      is_read: false,
      reply_unread: false,
      replies: [],
      userID: { _id: owner.id, userID: owner.userID, email: `${owner.userID}@example.jp` },
    });

    const replied = await server.request({
      method: "POST",
      url: `/api/admin/inquiries/${created._id}/reply`,
      as: admin,
      payload: { reply: "設定画面から手続きできます。" },
    });
    expect(replied.statusCode, replied.body).toBe(201);
    expect(replied.json()).toMatchObject({
      success: true,
      message: MSG.inquiryReplied,
      reply: { reply: "設定画面から手続きできます。", adminId: { _id: admin.id, name: "運営", userID: admin.userID } },
    });
    const [mail] = await server.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.to, `${owner.userID}@example.jp`));
    expect(mail?.text).toContain("退会について");

    const mine = await server.request({ method: "GET", url: "/api/inquiry?limit=100", as: owner });
    expect(mine.statusCode).toBe(200);
    expect(Number(mine.headers["x-unread-replies"])).toBe(1);
    expect(Number(mine.headers["x-total-count"])).toBeGreaterThanOrEqual(1);
    const inList = mine.json<LegacyInquiry[]>().find((i) => i._id === created._id);
    expect(inList).toMatchObject({ is_read: true, reply_unread: true });
    // Members never see an administrator's login ID.
    expect(inList?.replies).toEqual([
      {
        _id: expect.any(String),
        adminId: { _id: admin.id, name: "運営", userID: null },
        reply: "設定画面から手続きできます。",
        createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      },
    ]);

    const desk = await server.request({ method: "GET", url: "/api/admin/inquiries?limit=5&page=1", as: admin });
    const body = desk.json<{
      inquiries: LegacyInquiry[];
      total: number;
      unread: number;
      pagination: Record<string, number>;
    }>();
    expect(body.inquiries[0]?._id).toBe(created._id);
    expect(body.inquiries[0]?.replies[0]?.adminId.userID).toBe(admin.userID);
    expect(body.pagination).toMatchObject({ currentPage: 1, limit: 5, total: body.total });
    expect(body.unread).toBeLessThan(body.total);
    const unreadOnly = await server.request({
      method: "GET",
      url: "/api/admin/inquiries?unreadOnly=true&limit=100",
      as: admin,
    });
    expect(unreadOnly.json<{ inquiries: LegacyInquiry[] }>().inquiries.every((i) => !i.is_read)).toBe(true);

    const seen = await server.request({ method: "PUT", url: `/api/inquiry/${created._id}/seen`, as: owner });
    expect(seen.json()).toEqual({ success: true });
    const after = await server.request({ method: "GET", url: "/api/inquiry?limit=100", as: owner });
    expect(Number(after.headers["x-unread-replies"])).toBe(0);

    const deleted = await server.request({ method: "DELETE", url: `/api/inquiry/${created._id}`, as: owner });
    expect(deleted.json()).toEqual({ success: true, message: MSG.inquiryDeleted });
    const again = await server.request({ method: "DELETE", url: `/api/inquiry/${created._id}`, as: owner });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ message: MSG.notFound });
  });
});

describe("bad input: the spec's message, 400, nothing stored", () => {
  const CASES: Array<[string, Record<string, unknown>, string]> = [
    ["blank title", { title: "  ", message: "本文" }, MSG.inquiryTitleRequired],
    ["no message", { title: "件名" }, MSG.inquiryMessageRequired],
    ["title of 101", { title: "あ".repeat(101), message: "本文" }, MSG.inquiryTitleTooLong],
    ["message of 1001", { title: "件名", message: "あ".repeat(1001) }, MSG.inquiryMessageTooLong],
  ];
  for (const [name, payload, message] of CASES) {
    it(name, async () => {
      const before = await snapshotTables(server, ...TABLES);
      const res = await server.request({ method: "POST", url: "/api/inquiry", as: owner, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message });
      expect(await snapshotTables(server, ...TABLES)).toEqual(before);
    });
  }

  it("a blank reply and a malformed id", async () => {
    const inquiry = await create();
    const before = await snapshotTables(server, ...TABLES);
    const blank = await server.request({
      method: "POST",
      url: `/api/admin/inquiries/${inquiry._id}/reply`,
      as: admin,
      payload: { reply: " " },
    });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toEqual({ message: MSG.inquiryReplyRequired });
    const badId = await server.request({ method: "DELETE", url: "/api/inquiry/not-a-uuid", as: owner });
    expect(badId.statusCode).toBe(400);
    const badPage = await server.request({ method: "GET", url: "/api/admin/inquiries?limit=1000", as: admin });
    expect(badPage.statusCode).toBe(400);
    expect(await snapshotTables(server, ...TABLES)).toEqual(before);
  });
});
