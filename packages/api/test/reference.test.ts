import { adminAuditLog, pointCosts, users } from "@enmusubi/db";
import { MSG, OFFERED_ACTIONS, POINT_COST_ABSOLUTE_MAX, pointCostAboveCap } from "@enmusubi/shared";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { forgetReferenceList } from "../src/reference/cache";
import { snapshotTables, type TestUser, useTestApi } from "./helpers";

const api = useTestApi();
let admin: TestUser;
let member: TestUser;

beforeAll(async () => {
  admin = await api.createUser({ role: "admin" });
  member = await api.createUser();
});

const TABLES = ["occupations", "annual_incomes", "point_costs", "admin_audit_log", "users"];
const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";

describe("roles", () => {
  it("lists are open to everyone; every change refuses members and anonymous callers", async () => {
    for (const caller of [api.caller(null), api.caller(member), api.caller(admin)]) {
      expect((await caller.reference.occupations.list()).length).toBeGreaterThan(0);
      expect((await caller.reference.annualIncomes.list()).length).toBeGreaterThan(0);
    }
    // Prices: members and anonymous callers are shown what the product charges; administrators every row.
    for (const caller of [api.caller(null), api.caller(member)]) {
      expect((await caller.reference.pointCosts.list()).map((r) => r.actionName)).toEqual([...OFFERED_ACTIONS]);
    }
    expect(await api.caller(admin).reference.pointCosts.list()).toHaveLength(12);
    const changes = (c: ReturnType<typeof api.caller>) => [
      () => c.reference.occupations.create({ name: "漁師" }),
      () => c.reference.occupations.delete({ id: UNKNOWN_ID }),
      () => c.reference.annualIncomes.create({ label: "3000万円以上" }),
      () => c.reference.annualIncomes.delete({ id: UNKNOWN_ID }),
      () => c.reference.pointCosts.update({ actionName: "profile_view", pointCost: 1 }),
      () => c.reference.pointCosts.create({ actionName: "video_call", displayName: "ビデオ通話" }),
      () => c.reference.pointCosts.delete({ actionName: "video_call" }),
    ];
    const before = await snapshotTables(api, ...TABLES);
    for (const call of changes(api.caller(member))) await expect(call()).rejects.toMatchObject({ code: "FORBIDDEN" });
    for (const call of changes(api.caller(null))) await expect(call()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    expect(await snapshotTables(api, ...TABLES)).toEqual(before);
  });
});

describe("occupations and annual incomes", () => {
  it("keeps the starter order and adds new entries at the end", async () => {
    const caller = api.caller(admin);
    const list = await caller.reference.occupations.list();
    expect(list[0]?.name).toBe("会社員");
    const added = await caller.reference.occupations.create({ name: "  パイロット  " });
    expect(added.name).toBe("パイロット");
    expect((await caller.reference.occupations.list()).at(-1)).toEqual(added);

    const income = await caller.reference.annualIncomes.create({ label: "3000万円以上" });
    expect((await caller.reference.annualIncomes.list()).at(-1)).toEqual(income);
    const audit = await api.database.db.select().from(adminAuditLog).where(eq(adminAuditLog.targetId, income.id));
    expect(audit).toMatchObject([{ adminId: admin.id, action: "annual_income.create" }]);
  });

  it("refuses empty names with the catalogue's messages, and duplicates, changing nothing", async () => {
    const caller = api.caller(admin);
    const before = await snapshotTables(api, ...TABLES);
    await expect(caller.reference.occupations.create({ name: "   " })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: MSG.occupationRequired,
    });
    await expect(caller.reference.annualIncomes.create({ label: "" })).rejects.toMatchObject({
      message: MSG.annualIncomeRequired,
    });
    await expect(caller.reference.occupations.create({ name: "会社員" })).rejects.toMatchObject({
      code: "CONFLICT",
      message: MSG.occupationTaken,
    });
    await expect(caller.reference.annualIncomes.create({ label: "x".repeat(51) })).rejects.toMatchObject({
      message: MSG.referenceNameTooLong,
    });
    await expect(caller.reference.occupations.delete({ id: "not-a-uuid" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    await expect(caller.reference.occupations.delete({ id: UNKNOWN_ID })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await snapshotTables(api, ...TABLES)).toEqual(before);
  });

  it("deleting an entry a member chose leaves the member with that field unset", async () => {
    const caller = api.caller(admin);
    const occupation = await caller.reference.occupations.create({ name: "宇宙飛行士" });
    const income = await caller.reference.annualIncomes.create({ label: "非公開" });
    const chooser = await api.createUser({ occupationId: occupation.id, annualIncomeId: income.id });
    await caller.reference.occupations.delete({ id: occupation.id });
    await caller.reference.annualIncomes.delete({ id: income.id });
    const me = await api.caller(chooser).profile.me();
    expect(me.occupation).toBeNull();
    expect(me.annualIncome).toBeNull();
    expect((await caller.reference.occupations.list()).map((o) => o.id)).not.toContain(occupation.id);
    const [row] = await api.database.db.select().from(users).where(eq(users.id, chooser.id));
    expect(row?.deletedAt).toBeNull();
  });
});

describe("point costs", () => {
  it("lists the legal table with each row's cap", async () => {
    const list = await api.caller(admin).reference.pointCosts.list();
    expect(list.find((r) => r.actionName === "profile_view")).toMatchObject({ pointCost: 15, maxCost: 15 });
    expect(list.find((r) => r.actionName === "movie_play")?.maxCost).toBe(500);
  });

  it("marks which prices are charged; only those reach members, the terms and 特商法 (decision 0026)", async () => {
    const all = await api.caller(admin).reference.pointCosts.list();
    expect(all.filter((r) => r.offered).map((r) => r.actionName)).toEqual([
      "message_board_view",
      "profile_view",
      "send_message",
      "message_board_post",
      "unread_mail_view",
      "read_mail_view",
      "profile_photo_view",
    ]);
    for (const hidden of ["address_mail_send", "mail_attachment_photo_view", "photo_registration", "movie_play"]) {
      expect(all.find((r) => r.actionName === hidden)?.offered).toBe(false);
    }
    const added = await api
      .caller(admin)
      .reference.pointCosts.create({ actionName: "voice_call", displayName: "音声通話", pointCost: 5 });
    // An action an administrator adds is charged by nothing: listed to them, never to members.
    expect(added.offered).toBe(false);
    expect((await api.caller(member).reference.pointCosts.list()).map((r) => r.actionName)).not.toContain("voice_call");
    const legal = await api.caller(null).legal.info();
    expect(legal.pointCosts.map((r) => r.actionName)).toEqual([...OFFERED_ACTIONS]);
    await api.caller(admin).reference.pointCosts.delete({ actionName: "voice_call" });
  });

  it("an edit lowers a cost and is audited with from and to; the next charge uses it", async () => {
    const caller = api.caller(admin);
    const row = await caller.reference.pointCosts.update({
      actionName: "profile_view",
      pointCost: 7,
      description: "説明",
    });
    expect(row).toMatchObject({ pointCost: 7, description: "説明", maxCost: 15 });
    const audit = await api.database.db
      .select()
      .from(adminAuditLog)
      .where(eq(adminAuditLog.action, "point_cost.update"));
    expect(audit.at(-1)?.details).toMatchObject({ pointCost: { from: 15, to: 7 } });
    const charged = await api.caller(member).points.deduct({ actionName: "profile_view" });
    expect(charged.required).toBe(7);
  });

  it("never above the legal initial fee nor below 0, nor a fraction: refused, nothing changes", async () => {
    const caller = api.caller(admin);
    const before = await snapshotTables(api, ...TABLES);
    await expect(
      caller.reference.pointCosts.update({ actionName: "profile_view", pointCost: 16 }),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: pointCostAboveCap(15),
    });
    await expect(
      caller.reference.pointCosts.update({ actionName: "profile_view", pointCost: -1 }),
    ).rejects.toMatchObject({
      message: MSG.pointCostInvalid,
    });
    await expect(
      caller.reference.pointCosts.update({ actionName: "profile_view", pointCost: 1.5 }),
    ).rejects.toMatchObject({
      message: MSG.pointCostInvalid,
    });
    await expect(
      caller.reference.pointCosts.update({ actionName: "nothing_here", pointCost: 1 }),
    ).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(
      caller.reference.pointCosts.update({ actionName: "profile_view", displayName: " " }),
    ).rejects.toMatchObject({
      message: MSG.displayNameRequired,
    });
    expect(await snapshotTables(api, ...TABLES)).toEqual(before);
  });

  it("adds an action with the default cost 5, refuses duplicates and costs above the cap, deletes it", async () => {
    const caller = api.caller(admin);
    const created = await caller.reference.pointCosts.create({ actionName: "video_call", displayName: "ビデオ通話" });
    expect(created).toMatchObject({ pointCost: 5, maxCost: POINT_COST_ABSOLUTE_MAX, description: "" });
    const before = await snapshotTables(api, ...TABLES);
    await expect(
      caller.reference.pointCosts.create({ actionName: "video_call", displayName: "重複" }),
    ).rejects.toMatchObject({
      code: "CONFLICT",
      message: MSG.actionNameTaken,
    });
    await expect(
      caller.reference.pointCosts.create({
        actionName: "gift",
        displayName: "ギフト",
        pointCost: POINT_COST_ABSOLUTE_MAX + 1,
      }),
    ).rejects.toMatchObject({ message: pointCostAboveCap(POINT_COST_ABSOLUTE_MAX) });
    await expect(
      caller.reference.pointCosts.create({ actionName: "Bad Name", displayName: "x" }),
    ).rejects.toMatchObject({
      message: MSG.actionNameInvalid,
    });
    expect(await snapshotTables(api, ...TABLES)).toEqual(before);

    await caller.reference.pointCosts.delete({ actionName: "video_call" });
    const rows = await api.database.db.select().from(pointCosts).where(eq(pointCosts.actionName, "video_call"));
    expect(rows).toHaveLength(0);
  });

  it("rows of the legal fee table cannot be deleted", async () => {
    const before = await snapshotTables(api, ...TABLES);
    await expect(api.caller(admin).reference.pointCosts.delete({ actionName: "send_message" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: MSG.legalPointCostNotDeletable,
    });
    expect(await snapshotTables(api, ...TABLES)).toEqual(before);
  });

  it("concurrent edits are applied one after the other, each audited with its true previous value", async () => {
    const caller = api.caller(admin);
    await Promise.all([
      caller.reference.pointCosts.update({ actionName: "message_board_post", pointCost: 3 }),
      caller.reference.pointCosts.update({ actionName: "message_board_post", pointCost: 4 }),
    ]);
    const audit = await api.database.db
      .select()
      .from(adminAuditLog)
      .where(eq(adminAuditLog.targetId, "message_board_post"));
    const steps = audit.map((a) => (a.details as { pointCost: { from: number; to: number } }).pointCost);
    expect(steps).toHaveLength(2);
    expect(steps[1]?.from).toBe(steps[0]?.to);
  });
});

describe("the lists from memory (reference/cache.ts)", () => {
  const costOf = async (actionName: string) =>
    (await api.caller(admin).reference.pointCosts.list()).find((r) => r.actionName === actionName)?.pointCost;

  it("are read once: a change behind the services' back shows only once announced, every change through them at once", async () => {
    await api.caller(admin).reference.pointCosts.update({ actionName: "address_mail_view", pointCost: 20 });
    expect(await costOf("address_mail_view")).toBe(20);
    await api.database.db
      .update(pointCosts)
      .set({ pointCost: 11 })
      .where(eq(pointCosts.actionName, "address_mail_view"));
    expect(await costOf("address_mail_view")).toBe(20);
    // What another process's notification does (apps/server/src/reference-events.ts).
    forgetReferenceList(api.database.db, "point_costs");
    expect(await costOf("address_mail_view")).toBe(11);

    await api.caller(admin).reference.pointCosts.update({ actionName: "address_mail_view", pointCost: 12 });
    expect(await costOf("address_mail_view")).toBe(12);
    const created = await api.caller(admin).reference.occupations.create({ name: "宇宙飛行士" });
    expect((await api.caller(null).reference.occupations.list()).at(-1)).toEqual(created);
    await api.caller(admin).reference.occupations.delete({ id: created.id });
    expect((await api.caller(null).reference.occupations.list()).map((o) => o.id)).not.toContain(created.id);
  });

  it("a refused change leaves the list as it was; callers get their own array", async () => {
    const before = await api.caller(null).reference.pointCosts.list();
    await expect(
      api.caller(admin).reference.pointCosts.update({ actionName: "address_mail_view", pointCost: 999 }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    const after = await api.caller(null).reference.pointCosts.list();
    expect(after).toEqual(before);
    after.pop();
    expect(await api.caller(null).reference.pointCosts.list()).toEqual(before);
  });
});
