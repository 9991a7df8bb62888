import { adminAuditLog } from "@enmusubi/db";
import { MSG } from "@enmusubi/shared";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { writeAudit } from "../src/audit/audit-log";
import { perDatabase, requestIdOf, withRequestId } from "../src/request-scope";
import { appRouter } from "../src/root";
import { snapshotTables, type TestUser, useTestApi } from "./helpers";

const api = useTestApi();
let adminA: TestUser;
let adminB: TestUser;
let member: TestUser;

beforeAll(async () => {
  adminA = await api.createUser({ role: "admin", name: "監査 A" });
  adminB = await api.createUser({ role: "admin", name: "監査 B" });
  member = await api.createUser();
});

describe("adminAudit is read-only and for administrators", () => {
  it("has queries only: no procedure under adminAudit can change or delete a row", () => {
    const procedures = Object.entries(appRouter._def.procedures).filter(([path]) => path.startsWith("adminAudit."));
    expect(procedures.map(([path]) => path).sort()).toEqual(["adminAudit.actions", "adminAudit.list"]);
    for (const [, procedure] of procedures) {
      expect((procedure as unknown as { _def: { type: string } })._def.type).toBe("query");
    }
  });

  it("refuses members (FORBIDDEN) and anonymous callers (UNAUTHORIZED)", async () => {
    for (const [user, code] of [
      [member, "FORBIDDEN"],
      [null, "UNAUTHORIZED"],
    ] as const) {
      const caller = api.caller(user);
      await expect(caller.adminAudit.list({})).rejects.toMatchObject({ code });
      await expect(caller.adminAudit.actions()).rejects.toMatchObject({ code });
    }
  });
});

describe("adminAudit.list", () => {
  let occupationId = "";
  beforeAll(async () => {
    const created = await api.caller(adminA).reference.occupations.create({ name: "監査テスト職" });
    occupationId = created.id;
    const inquiry = await api.caller(member).inquiries.create({ title: "監査", message: "確認" });
    await api.caller(adminB).adminInquiries.markRead({ id: inquiry.id });
    await api.caller(adminB).adminInquiries.reply({ id: inquiry.id, reply: "回答" });
  });

  it("answers entries newest first with the administrator, target and details as written", async () => {
    const result = await api.caller(adminA).adminAudit.list({});
    const actions = result.entries.map((e) => e.action);
    expect(actions.slice(0, 3)).toEqual(["inquiry.reply", "inquiry.mark_read", "occupation.create"]);
    const created = result.entries.find((e) => e.action === "occupation.create");
    expect(created).toMatchObject({
      admin: { id: adminA.id, userID: adminA.userID, name: "監査 A" },
      targetType: "occupation",
      targetId: occupationId,
      details: { name: "監査テスト職" },
    });
    expect(result.entries.find((e) => e.action === "inquiry.mark_read")?.details).toEqual({
      before: { isRead: false },
      after: { isRead: true },
    });
    const times = result.entries.map((e) => e.createdAt.getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(result.pagination).toMatchObject({ total: result.entries.length, totalPages: 1, currentPage: 1, limit: 50 });
  });

  it("filters by administrator userID and by action, and pages on the server", async () => {
    const caller = api.caller(adminA);
    const byB = await caller.adminAudit.list({ adminUserID: adminB.userID });
    expect(byB.entries.length).toBe(2);
    expect(byB.entries.every((e) => e.admin.id === adminB.id)).toBe(true);
    const replies = await caller.adminAudit.list({ action: "inquiry.reply" });
    expect(replies.entries.map((e) => e.admin.userID)).toEqual([adminB.userID]);
    const nobody = await caller.adminAudit.list({ adminUserID: "no-such-admin" });
    expect(nobody).toMatchObject({ entries: [], pagination: { total: 0, totalPages: 1 } });

    const all = await caller.adminAudit.list({ limit: 100 });
    const page1 = await caller.adminAudit.list({ limit: 2, page: 1 });
    const page2 = await caller.adminAudit.list({ limit: 2, page: 2 });
    expect([...page1.entries, ...page2.entries].map((e) => e.id)).toEqual(all.entries.slice(0, 4).map((e) => e.id));
    expect(page1.pagination.totalPages).toBe(Math.ceil(all.pagination.total / 2));
  });

  it("filters by Japan's calendar days, both ends included", async () => {
    const [row] = await api.database.db
      .select({ id: adminAuditLog.id })
      .from(adminAuditLog)
      .where(eq(adminAuditLog.action, "occupation.create"));
    // 2025-08-20 15:30 UTC is 2025-08-21 00:30 in Japan.
    await api.database.db
      .update(adminAuditLog)
      .set({ createdAt: sql`'2025-08-20T15:30:00Z'::timestamptz` })
      .where(eq(adminAuditLog.id, row?.id ?? ""));
    const caller = api.caller(adminA);
    const ids = async (input: { dateFrom?: string; dateTo?: string }) =>
      (await caller.adminAudit.list(input)).entries.map((e) => e.id);
    expect(await ids({ dateFrom: "2025-08-21", dateTo: "2025-08-21" })).toEqual([row?.id]);
    expect(await ids({ dateTo: "2025-08-20" })).toEqual([]);
    expect(await ids({ dateFrom: "2025-08-22", dateTo: "2025-08-30" })).toEqual([]);
    expect(await ids({ dateFrom: "2025-08-21" })).toContain(row?.id);
  });

  it("refuses bad filters with a Japanese message, changing nothing", async () => {
    const caller = api.caller(adminA);
    const before = await snapshotTables(api, "admin_audit_log");
    await expect(caller.adminAudit.list({ dateFrom: "2025-09-01", dateTo: "2025-08-01" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: MSG.auditDateRangeInvalid,
    });
    await expect(caller.adminAudit.list({ limit: 101 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(caller.adminAudit.list({ dateFrom: "2025-02-31" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(caller.adminAudit.list({ dateFrom: "2025-02-31x" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(caller.adminAudit.list({ page: 0 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await snapshotTables(api, "admin_audit_log")).toEqual(before);
  });
});

describe("adminAudit.actions", () => {
  it("lists each action name once, sorted", async () => {
    const actions = await api.caller(adminA).adminAudit.actions();
    expect(actions).toEqual([...new Set(actions)].sort());
    expect(actions).toEqual(expect.arrayContaining(["inquiry.mark_read", "inquiry.reply", "occupation.create"]));
  });
});

describe("the request id on audit rows (request-scope.ts)", () => {
  it("is carried by a request's database handle into its transactions and savepoints, and shares per-database values", async () => {
    const db = api.database.db;
    const tagged = withRequestId(db, "scope-probe-1");
    expect(requestIdOf(db)).toBeUndefined();
    expect(requestIdOf(tagged)).toBe("scope-probe-1");
    await tagged.transaction(async (tx) => {
      expect(requestIdOf(tx)).toBe("scope-probe-1");
      await tx.transaction(async (savepoint) => {
        expect(requestIdOf(savepoint)).toBe("scope-probe-1");
        await writeAudit(savepoint, { adminId: adminA.id, action: "probe", targetType: "user" });
      });
    });
    const rows = await db.select().from(adminAuditLog).where(eq(adminAuditLog.requestId, "scope-probe-1"));
    expect(rows).toHaveLength(1);
    // Outside a request the row carries none.
    await db.transaction((tx) => writeAudit(tx, { adminId: adminA.id, action: "probe-none", targetType: "user" }));
    const [none] = await db.select().from(adminAuditLog).where(eq(adminAuditLog.action, "probe-none"));
    expect(none?.requestId).toBeNull();
    // One value per database, whichever request's view asks.
    let built = 0;
    const shared = perDatabase(() => ({ n: ++built }));
    expect(shared(withRequestId(db, "a"))).toBe(shared(withRequestId(withRequestId(db, "b"), "c")));
    expect(shared(db)).toBe(shared(withRequestId(db, "d")));
    expect(built).toBe(1);
  });
});
