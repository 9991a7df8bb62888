import { adminAuditLog, pointLedger, users } from "@enmusubi/db";
import { onPostgres } from "@enmusubi/db/testing";
import { MSG } from "@enmusubi/shared";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { snapshotTables, type TestUser, useTestApi } from "./helpers";

const api = useTestApi();
let admin: TestUser;
let member: TestUser;

beforeAll(async () => {
  admin = await api.createUser({ role: "admin", name: "管理者" });
  member = await api.createUser({ gender: "female" });
});

const TABLES = ["users", "point_ledger", "admin_audit_log", "favorites"];

async function ledgerSum(userId: string, account: "points" | "send_points") {
  const [row] = await api.database.db
    .select({ total: sql<number>`coalesce(sum(${pointLedger.delta}), 0)::int` })
    .from(pointLedger)
    .where(and(eq(pointLedger.userId, userId), eq(pointLedger.account, account)));
  return row?.total;
}

describe("roles", () => {
  it("every admin user procedure refuses members (FORBIDDEN) and anonymous callers (UNAUTHORIZED)", async () => {
    const calls = (c: ReturnType<typeof api.caller>) => [
      () => c.adminUsers.list({}),
      () => c.adminUsers.create({ userID: "abc123", password: "secret1", name: "x", email: "x@example.jp" }),
      () =>
        c.adminUsers.update({
          id: member.id,
          name: "x",
          email: "x@example.jp",
          points: 1,
          sendPoints: 1,
          expectedPoints: 100,
          expectedSendPoints: 20,
        }),
      () => c.adminUsers.updateSendPoints({ id: member.id, sendPoints: 1, expectedSendPoints: 20 }),
      () => c.adminUsers.updateLegacy({ id: member.id, points: 1 }),
      () => c.adminUsers.get({ id: member.id }),
      () => c.adminUsers.delete({ id: member.id }),
      () => c.adminUsers.ledger({ id: member.id }),
    ];
    const before = await snapshotTables(api, ...TABLES);
    for (const call of calls(api.caller(member))) await expect(call()).rejects.toMatchObject({ code: "FORBIDDEN" });
    for (const call of calls(api.caller(null))) await expect(call()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    expect(await snapshotTables(api, ...TABLES)).toEqual(before);
  });
});

describe("adminUsers.list", () => {
  it("pages on the server and searches several comma-separated IDs or a gender", async () => {
    const a = await api.createUser({ gender: "male" });
    const b = await api.createUser({ gender: "female" });
    const caller = api.caller(admin);
    const both = await caller.adminUsers.list({ search: `${a.userID}, ${b.userID}` });
    expect(both.users.map((u) => u.userID).sort()).toEqual([a.userID, b.userID].sort());
    expect(both.total).toBe(2);

    const women = await caller.adminUsers.list({ field: "gender", search: "女性", pageSize: 1000 });
    expect(women.users.every((u) => u.gender === "female")).toBe(true);
    expect(women.users.map((u) => u.userID)).toContain(b.userID);

    const page1 = await caller.adminUsers.list({ pageSize: 2, page: 1 });
    const page2 = await caller.adminUsers.list({ pageSize: 2, page: 2 });
    expect(page1.users).toHaveLength(2);
    expect(page1.total).toBeGreaterThanOrEqual(4);
    expect(page1.totalPages).toBe(Math.ceil(page1.total / 2));
    expect(page2.users[0]?.id).not.toBe(page1.users[0]?.id);
    expect(JSON.stringify(page1)).not.toMatch(/passwordHash|tokenVersion/);

    const nothing = await caller.adminUsers.list({ field: "gender", search: "unknown" });
    expect(nothing).toMatchObject({ users: [], total: 0, totalPages: 1 });
  });

  it("every page, including those read from the far end, follows one newest-first order without gaps", async () => {
    for (let i = 0; i < 5; i++) await api.createUser();
    const caller = api.caller(admin);
    const all = await caller.adminUsers.list({ pageSize: 1000 });
    for (const pageSize of [2, 3]) {
      const seen: string[] = [];
      for (let page = 1; page <= Math.ceil(all.total / pageSize) + 1; page++) {
        const result = await caller.adminUsers.list({ pageSize, page });
        seen.push(...result.users.map((u) => u.id));
      }
      expect(seen).toEqual(all.users.map((u) => u.id));
    }
  });
});

describe("adminUsers.list standing", () => {
  it("answers each row's standing, so the screen needs no read per row", async () => {
    const kept = await api.createUser();
    const suspended = await api.createUser();
    const caller = api.caller(admin);
    await caller.adminModeration.suspend({ userId: suspended.id, reason: "テスト" });
    const list = await caller.adminUsers.list({ search: `${kept.userID},${suspended.userID}` });
    const standing = Object.fromEntries(list.users.map((u) => [u.userID, u.suspended]));
    expect(standing).toEqual({ [kept.userID]: false, [suspended.userID]: true });
    expect(list.users[0]).not.toHaveProperty("suspendedAt");
  });
});

describe("adminUsers.list userID prefix", () => {
  it("lists the matches of one prefix in userID order (the exact ID first, case ignored), every page without gaps", async () => {
    // Created newest last in an order unlike their IDs, so userID order and newest-first differ.
    for (const userID of ["pfxq12", "PFXQ1", "pfxq3", "pfxq10", "pfxq2", "pfxq11b"]) await api.createUser({ userID });
    await api.createUser({ userID: "pfxr1" });
    const caller = api.caller(admin);
    const expected = ["PFXQ1", "pfxq10", "pfxq11b", "pfxq12", "pfxq2", "pfxq3"];
    const all = await caller.adminUsers.list({ search: "pfxq" });
    expect(all.users.map((u) => u.userID)).toEqual(expected);
    expect(all.total).toBe(6);
    expect((await caller.adminUsers.list({ search: "pfxq1" })).users.map((u) => u.userID)).toEqual(
      expected.slice(0, 4),
    );
    for (const pageSize of [2, 4]) {
      const seen: string[] = [];
      for (let page = 1; page <= Math.ceil(6 / pageSize) + 1; page++) {
        seen.push(...(await caller.adminUsers.list({ search: "PfXq", pageSize, page })).users.map((u) => u.userID));
      }
      expect(seen).toEqual(expected);
    }
    // "_" is a character, not a wildcard.
    expect((await caller.adminUsers.list({ search: "pfx_" })).total).toBe(0);
  });
});

describe("adminUsers.create", () => {
  it("creates a member with the spec defaults, opening ledger rows and an audit entry", async () => {
    const caller = api.caller(admin);
    const { userID, password } = await caller.auth.uniqueGenerate();
    const created = await caller.adminUsers.create({ userID, password, name: "新規", email: `${userID}@example.jp` });
    expect(created).toMatchObject({ userID, name: "新規", gender: "male", points: 100, sendPoints: 20, role: "user" });
    expect(await ledgerSum(created.id, "points")).toBe(100);
    expect(await ledgerSum(created.id, "send_points")).toBe(20);
    const [audit] = await api.database.db.select().from(adminAuditLog).where(eq(adminAuditLog.targetId, created.id));
    expect(audit).toMatchObject({ adminId: admin.id, action: "user.create" });
    await expect(api.caller().auth.login({ userID, password })).resolves.toMatchObject({ role: "user" });
  });

  it("refuses a taken userID or email, a short password and a missing name, changing nothing", async () => {
    const caller = api.caller(admin);
    const before = await snapshotTables(api, ...TABLES);
    const base = { userID: "fresh1234", password: "secret1", name: "名前", email: "fresh1234@example.jp" };
    await expect(caller.adminUsers.create({ ...base, userID: member.userID })).rejects.toMatchObject({
      code: "CONFLICT",
      message: MSG.userIdTaken,
    });
    await expect(caller.adminUsers.create({ ...base, email: `${member.userID}@EXAMPLE.jp` })).rejects.toMatchObject({
      code: "CONFLICT",
      message: MSG.emailTaken,
    });
    await expect(caller.adminUsers.create({ ...base, password: "12345" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: MSG.passwordTooShort,
    });
    await expect(caller.adminUsers.create({ ...base, name: "  " })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: MSG.nameRequired,
    });
    await expect(caller.adminUsers.create({ ...base, points: -1 })).rejects.toMatchObject({
      message: MSG.pointsInvalid,
    });
    expect(await snapshotTables(api, ...TABLES)).toEqual(before);
  });
});

describe("adminUsers.update", () => {
  it("records a points change as a ledger entry with the admin, from and to", async () => {
    const target = await api.createUser({ points: 100 });
    const updated = await api.caller(admin).adminUsers.update({
      id: target.id,
      name: "変更後",
      email: `${target.userID}@example.jp`,
      points: 250,
      sendPoints: 5,
      expectedPoints: 100,
      expectedSendPoints: 20,
    });
    expect(updated).toMatchObject({ name: "変更後", points: 250, sendPoints: 5 });
    const ledger = await api.caller(admin).adminUsers.ledger({ id: target.id });
    const adjust = ledger.find((r) => r.kind === "admin_adjust" && r.account === "points");
    expect(adjust).toMatchObject({ delta: 150, balanceBefore: 100, balanceAfter: 250, actorUserID: admin.userID });
    expect(await ledgerSum(target.id, "points")).toBe(250);
    expect(await ledgerSum(target.id, "send_points")).toBe(5);
    const audits = await api.database.db.select().from(adminAuditLog).where(eq(adminAuditLog.targetId, target.id));
    expect(audits.at(-1)?.details).toMatchObject({ points: { from: 100, to: 250 }, name: { to: "変更後" } });
  });

  it("changes the password only with a matching confirmation and ends the member's sessions", async () => {
    const target = await api.createUser();
    const caller = api.caller(admin);
    const fields = { id: target.id, name: "x", email: `${target.userID}@example.jp` };
    const before = await snapshotTables(api, ...TABLES);
    await expect(
      caller.adminUsers.update({ ...fields, password: "newpass1", passwordConfirmation: "newpass2" }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", message: MSG.passwordMismatch });
    await expect(
      caller.adminUsers.update({ ...fields, password: "short", passwordConfirmation: "short" }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", message: MSG.passwordTooShort });
    expect(await snapshotTables(api, ...TABLES)).toEqual(before);

    const { token } = await api.caller().auth.login({ userID: target.userID, password: target.password });
    await caller.adminUsers.update({ ...fields, password: "newpass1", passwordConfirmation: "newpass1" });
    const { resolveSession } = await import("../src/auth/session");
    expect(await resolveSession(api.deps, `Bearer ${token}`)).toBeNull();
    await expect(api.caller().auth.login({ userID: target.userID, password: "newpass1" })).resolves.toBeTruthy();
  });

  it("clears the photo link with an empty string and refuses another member's email", async () => {
    const target = await api.createUser({ photoLink: "https://example.jp/a.jpg" });
    const caller = api.caller(admin);
    const fields = { id: target.id, name: "x", email: `${target.userID}@example.jp` };
    const cleared = await caller.adminUsers.update({ ...fields, photoLink: "" });
    expect(cleared.photoLink).toBeNull();
    await expect(caller.adminUsers.update({ ...fields, email: `${member.userID}@example.jp` })).rejects.toMatchObject({
      code: "CONFLICT",
      message: MSG.emailTaken,
    });
  });

  it("updates sendPoints alone through the ledger", async () => {
    const target = await api.createUser();
    const updated = await api
      .caller(admin)
      .adminUsers.updateSendPoints({ id: target.id, sendPoints: 77, expectedSendPoints: 20 });
    expect(updated.sendPoints).toBe(77);
    expect(await ledgerSum(target.id, "send_points")).toBe(77);
  });
});

async function balances(id: string) {
  const [row] = await api.database.db
    .select({ points: users.points, sendPoints: users.sendPoints })
    .from(users)
    .where(eq(users.id, id));
  return row;
}

async function adminAdjustRows(id: string) {
  return api.database.db
    .select()
    .from(pointLedger)
    .where(and(eq(pointLedger.userId, id), eq(pointLedger.kind, "admin_adjust")));
}

describe("adminUsers.update never loses points to a stale edit (decision 0016)", () => {
  it("saving a name, an e-mail, a password or a photo link never touches points or sendPoints", async () => {
    const target = await api.createUser({ points: 100 });
    const caller = api.caller(admin);
    // The member spends after the administrator's list was loaded (100 pt shown there).
    await api.caller(target).points.deduct({ actionName: "profile_view" });
    await caller.adminUsers.update({ id: target.id, name: "改名" });
    await caller.adminUsers.update({ id: target.id, email: `${target.userID}-new@example.jp` });
    await caller.adminUsers.update({ id: target.id, password: "newpass1", passwordConfirmation: "newpass1" });
    const updated = await caller.adminUsers.update({ id: target.id, photoLink: "https://example.jp/b.jpg" });
    expect(updated).toMatchObject({
      name: "改名",
      email: `${target.userID}-new@example.jp`,
      photoLink: "https://example.jp/b.jpg",
      points: 85,
      sendPoints: 20,
    });
    expect(await balances(target.id)).toEqual({ points: 85, sendPoints: 20 });
    expect(await adminAdjustRows(target.id)).toEqual([]);
    expect(await ledgerSum(target.id, "points")).toBe(85);
    const audits = await api.database.db.select().from(adminAuditLog).where(eq(adminAuditLog.targetId, target.id));
    for (const audit of audits) expect(audit.details).not.toHaveProperty("points");
  });

  it("a balance change must state the balance it replaces", async () => {
    const target = await api.createUser({ points: 100 });
    const before = await snapshotTables(api, ...TABLES);
    const caller = api.caller(admin);
    await expect(caller.adminUsers.update({ id: target.id, points: 500 })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: MSG.balanceExpectedMissing,
    });
    await expect(caller.adminUsers.update({ id: target.id, sendPoints: 5 })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: MSG.balanceExpectedMissing,
    });
    await expect(caller.adminUsers.updateSendPoints({ id: target.id, sendPoints: 5 } as never)).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: MSG.balanceExpectedMissing,
    });
    expect(await snapshotTables(api, ...TABLES)).toEqual(before);
  });

  it("refuses a balance change when the balance moved meanwhile: CONFLICT with the current figures, nothing written", async () => {
    const target = await api.createUser({ points: 100 });
    const caller = api.caller(admin);
    await api.caller(target).points.deduct({ actionName: "profile_view" }); // 100 → 85
    const before = await snapshotTables(api, ...TABLES);
    const stale = { id: target.id, name: "改名", points: 500, expectedPoints: 100 };
    await expect(caller.adminUsers.update(stale)).rejects.toMatchObject({
      code: "CONFLICT",
      message: MSG.balanceChanged,
      cause: { details: { points: 85, sendPoints: 20 } },
    });
    await expect(
      caller.adminUsers.update({ id: target.id, sendPoints: 5, expectedSendPoints: 19 }),
    ).rejects.toMatchObject({ code: "CONFLICT", cause: { details: { points: 85, sendPoints: 20 } } });
    await expect(
      caller.adminUsers.updateSendPoints({ id: target.id, sendPoints: 5, expectedSendPoints: 19 }),
    ).rejects.toMatchObject({ code: "CONFLICT", message: MSG.balanceChanged, cause: { details: { sendPoints: 20 } } });
    // The name is not saved either: the edit is one.
    expect(await snapshotTables(api, ...TABLES)).toEqual(before);

    // Decided again against the current figure: applied, booked from 85.
    const applied = await caller.adminUsers.update({ ...stale, expectedPoints: 85 });
    expect(applied).toMatchObject({ name: "改名", points: 500 });
    const [adjust] = await adminAdjustRows(target.id);
    expect(adjust).toMatchObject({ delta: 415, balanceAfter: 500 });
    expect(await ledgerSum(target.id, "points")).toBe(500);
  });

  it("a version (REST ETag) states both balances; a stale one is refused with PRECONDITION_FAILED", async () => {
    const target = await api.createUser({ points: 100 });
    const caller = api.caller(admin);
    const read = await caller.adminUsers.get({ id: target.id });
    expect(read).toMatchObject({ id: target.id, points: 100, sendPoints: 20 });
    expect(read.version).toMatch(/^[\w-]{16,}$/);
    expect((await caller.adminUsers.get({ id: target.id })).version).toBe(read.version);
    await api.caller(target).points.deduct({ actionName: "profile_view" });
    const before = await snapshotTables(api, ...TABLES);
    await expect(
      caller.adminUsers.update({ id: target.id, points: 1, expectedVersion: read.version }),
    ).rejects.toMatchObject({
      code: "PRECONDITION_FAILED",
      message: MSG.userChangedSince,
      cause: { details: { points: 85, sendPoints: 20 } },
    });
    expect(await snapshotTables(api, ...TABLES)).toEqual(before);
    const now = await caller.adminUsers.get({ id: target.id });
    expect(now.version).not.toBe(read.version);
    const applied = await caller.adminUsers.update({ id: target.id, points: 1, expectedVersion: now.version });
    expect(applied.points).toBe(1);
    expect(applied.version).not.toBe(now.version);
    await expect(caller.adminUsers.get({ id: "00000000-0000-4000-8000-000000000000" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });
});

describe("adminUsers.updateLegacy (the REST PUT)", () => {
  it("without If-Match sets the balance as it is now, under the row lock, and books from → to", async () => {
    const target = await api.createUser({ points: 100 });
    await api.caller(target).points.deduct({ actionName: "profile_view" });
    const updated = await api.caller(admin).adminUsers.updateLegacy({ id: target.id, points: 300, sendPoints: 7 });
    expect(updated).toMatchObject({ points: 300, sendPoints: 7 });
    expect(await adminAdjustRows(target.id)).toEqual([
      expect.objectContaining({ account: "points", delta: 215, balanceAfter: 300 }),
      expect.objectContaining({ account: "send_points", delta: -13, balanceAfter: 7 }),
    ]);
    expect(await ledgerSum(target.id, "points")).toBe(300);
  });

  it("with If-Match applies when any tag is the current version; otherwise 412 with the figures, nothing written", async () => {
    const target = await api.createUser({ points: 100 });
    const caller = api.caller(admin);
    const read = await caller.adminUsers.get({ id: target.id });
    await api.caller(target).points.deduct({ actionName: "profile_view" });
    const before = await snapshotTables(api, ...TABLES);
    await expect(
      caller.adminUsers.updateLegacy({ id: target.id, name: "古い版", ifMatch: [read.version, "!"] }),
    ).rejects.toMatchObject({
      code: "PRECONDITION_FAILED",
      message: MSG.userChangedSince,
      cause: { details: { points: 85, sendPoints: 20, version: expect.any(String) } },
    });
    expect(await snapshotTables(api, ...TABLES)).toEqual(before);
    const now = await caller.adminUsers.get({ id: target.id });
    const applied = await caller.adminUsers.updateLegacy({ id: target.id, points: 1, ifMatch: ["!", now.version] });
    expect(applied.points).toBe(1);
  });
});

describe.runIf(onPostgres)("an administrator's balance edit racing paid actions (PostgreSQL)", () => {
  it("never loses or creates points: the edit applies against the balance it states or is refused", async () => {
    for (let round = 0; round < 5; round++) {
      const racer = await api.createUser({ points: 100 });
      const charges = Array.from({ length: 6 }, () => api.caller(racer).points.deduct({ actionName: "profile_view" }));
      const edit = api.caller(admin).adminUsers.update({ id: racer.id, points: 40, expectedPoints: 100 });
      const rename = api.caller(admin).adminUsers.update({ id: racer.id, name: `競争${round}` });
      const results = await Promise.allSettled([...charges, edit, rename]);
      expect(results.at(-1)?.status).toBe("fulfilled");
      const charged = results.slice(0, 6).filter((r) => r.status === "fulfilled").length;
      const editResult = results.at(-2);
      const adjust = await adminAdjustRows(racer.id);
      const row = await balances(racer.id);
      expect(await ledgerSum(racer.id, "points")).toBe(row?.points);
      if (editResult?.status === "fulfilled") {
        // Applied against exactly 100: every charge it did not see came after it.
        expect(adjust).toHaveLength(1);
        expect(adjust[0]).toMatchObject({ delta: -60, balanceAfter: 40 });
        expect(row?.points).toBe(40 - 15 * charged);
      } else {
        expect(editResult?.reason).toMatchObject({ code: "CONFLICT" });
        expect(adjust).toEqual([]);
        expect(row?.points).toBe(100 - 15 * charged);
      }
      const chargeRows = await api.database.db
        .select()
        .from(pointLedger)
        .where(and(eq(pointLedger.userId, racer.id), eq(pointLedger.kind, "prepaid_charge")));
      expect(chargeRows).toHaveLength(charged);
    }
  });
});

describe.runIf(onPostgres)("the legacy PUT racing paid actions (PostgreSQL)", () => {
  it("sets the balance once; every charge lands before or after it, none is lost or created", async () => {
    for (let round = 0; round < 5; round++) {
      const racer = await api.createUser({ points: 100 });
      const charges = Array.from({ length: 6 }, () => api.caller(racer).points.deduct({ actionName: "profile_view" }));
      const edit = api.caller(admin).adminUsers.updateLegacy({ id: racer.id, points: 200 });
      const results = await Promise.allSettled([...charges, edit]);
      expect(results.at(-1)?.status).toBe("fulfilled");
      const adjust = await adminAdjustRows(racer.id);
      expect(adjust).toHaveLength(1);
      const charged = results.slice(0, 6).filter((r) => r.status === "fulfilled").length;
      const row = await balances(racer.id);
      expect(await ledgerSum(racer.id, "points")).toBe(row?.points);
      // Charges after the edit took from 200; those before it from 100: the edit's `from` says which.
      const after = (200 - (row?.points ?? 0)) / 15;
      const from = (adjust[0]?.balanceAfter ?? 0) - (adjust[0]?.delta ?? 0);
      expect(Number.isInteger(after)).toBe(true);
      expect(from).toBe(100 - 15 * (charged - after));
    }
  });
});

describe("adminUsers.delete", () => {
  it("removes a member from every list and from login, keeping their rows", async () => {
    const target = await api.createUser();
    const friend = await api.createUser();
    await api.database.db.execute(
      sql`insert into favorites (user_id, favorite_user_id) values (${friend.id}, ${target.id})`,
    );
    await api.caller(admin).adminUsers.delete({ id: target.id });
    const list = await api.caller(admin).adminUsers.list({ search: target.userID });
    expect(list.total).toBe(0);
    await expect(api.caller().auth.login({ userID: target.userID, password: target.password })).rejects.toMatchObject({
      code: "UNAUTHORIZED",
    });
    await expect(api.caller(target).profile.me()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    expect((await api.caller(friend).profile.me()).favoriteUserIds).not.toContain(target.id);
    const [row] = await api.database.db.select().from(users).where(eq(users.id, target.id));
    expect(row?.deletedAt).toBeInstanceOf(Date);
  });

  it("refuses to delete an administrator or an unknown id, changing nothing", async () => {
    const otherAdmin = await api.createUser({ role: "admin" });
    const before = await snapshotTables(api, ...TABLES);
    await expect(api.caller(admin).adminUsers.delete({ id: otherAdmin.id })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: MSG.adminNotDeletable,
    });
    await expect(api.caller(admin).adminUsers.delete({ id: admin.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      api.caller(admin).adminUsers.delete({ id: "00000000-0000-4000-8000-000000000000" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(api.caller(admin).adminUsers.delete({ id: "not-a-uuid" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    expect(await snapshotTables(api, ...TABLES)).toEqual(before);
  });
});

describe("points.deduct", () => {
  it("charges cost × quantity once and reports the spec's figures", async () => {
    const buyer = await api.createUser({ points: 100 });
    const result = await api.caller(buyer).points.deduct({ actionName: "profile_view", quantity: 2 });
    expect(result).toEqual({ success: true, required: 30, available: 100, remainingPoints: 70 });
  });

  it("refuses when points are short with the spec's message and figures, changing nothing", async () => {
    const poor = await api.createUser({ points: 10 });
    const before = await snapshotTables(api, "users", "point_ledger", "prepaid_actions");
    await expect(api.caller(poor).points.deduct({ actionName: "send_message" })).rejects.toMatchObject({
      code: "PAYMENT_REQUIRED",
      message: "ポイントが不足しています。必要ポイント: 48pt 所持ポイント: 10pt",
    });
    await expect(api.caller(poor).points.deduct({ actionName: "movie_play" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: MSG.unknownAction,
    });
    await expect(api.caller(poor).points.deduct({ actionName: "send_message", quantity: 0 })).rejects.toMatchObject({
      message: MSG.quantityInvalid,
    });
    await expect(api.caller(admin).points.deduct({ actionName: "send_message" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    expect(await snapshotTables(api, "users", "point_ledger", "prepaid_actions")).toEqual(before);
  });

  it("never overdraws under concurrent deductions", async () => {
    const racer = await api.createUser({ points: 100 });
    const attempts = await Promise.allSettled(
      Array.from({ length: 10 }, () => api.caller(racer).points.deduct({ actionName: "profile_view" })),
    );
    const ok = attempts.filter((a) => a.status === "fulfilled").length;
    expect(ok).toBe(6);
    const [row] = await api.database.db.select({ points: users.points }).from(users).where(eq(users.id, racer.id));
    expect(row?.points).toBe(10);
    expect(await ledgerSum(racer.id, "points")).toBe(10);
  });

  it("an admin's edit racing the member's charges leaves a balance equal to the ledger, never below 0", async () => {
    const racer = await api.createUser({ points: 100 });
    const charges = Array.from({ length: 6 }, () => api.caller(racer).points.deduct({ actionName: "profile_view" }));
    const edit = api.caller(admin).adminUsers.update({
      id: racer.id,
      name: "競争",
      email: `${racer.userID}@example.jp`,
      points: 40,
      sendPoints: 20,
      expectedPoints: 100,
      expectedSendPoints: 20,
    });
    const results = await Promise.allSettled([...charges, edit]);
    const [row] = await api.database.db.select({ points: users.points }).from(users).where(eq(users.id, racer.id));
    expect(row?.points).toBeGreaterThanOrEqual(0);
    expect(await ledgerSum(racer.id, "points")).toBe(row?.points);
    // Whatever the interleaving, every successful charge is in the ledger exactly once.
    const charged = results.slice(0, 6).filter((r) => r.status === "fulfilled").length;
    const chargeRows = await api.database.db
      .select()
      .from(pointLedger)
      .where(and(eq(pointLedger.userId, racer.id), eq(pointLedger.kind, "prepaid_charge")));
    expect(chargeRows).toHaveLength(charged);
  });
});
