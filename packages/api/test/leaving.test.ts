import { adminAuditLog, idVerifications, pointLedger, pointLots, pointLotUsages, users } from "@enmusubi/db";
import { LEGAL, MSG, TERMS_VERSION, WITHDRAWN_MEMBER_NAME } from "@enmusubi/shared";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { purgeWithdrawn } from "../src/accounts/retention";
import { unusedBalanceAt } from "../src/payments/report";
import { changeBalance, setBalance } from "../src/points/ledger";
import { snapshotTables, type TestUser, useTestApi } from "./helpers";

const api = useTestApi();
const db = () => api.database.db;
const consent = { acceptTerms: true, adult: true, termsVersion: TERMS_VERSION } as const;

function must<T>(value: T | null | undefined): T {
  if (value === null || value === undefined) throw new Error("expected a value");
  return value;
}

async function buy(user: TestUser, points: number, yen: number) {
  await db().transaction((tx) =>
    changeBalance(tx, {
      userId: user.id,
      delta: points,
      kind: "purchase",
      paidYen: yen,
      reference: `TX-${user.userID}`,
    }),
  );
}

async function books(userId: string) {
  const [row] = await db()
    .select({
      points: users.points,
      sendPoints: users.sendPoints,
      ledger: sql<number>`(select coalesce(sum(delta), 0)::int from ${pointLedger} where user_id = ${userId} and account = 'points')`,
      lots: sql<number>`(select coalesce(sum(remaining), 0)::int from ${pointLots} where user_id = ${userId})`,
    })
    .from(users)
    .where(eq(users.id, userId));
  return must(row);
}

describe("退会 (account.withdraw)", () => {
  it("needs the password: a wrong or missing one changes nothing, in Japanese", async () => {
    const member = await api.createUser();
    const before = await snapshotTables(api, "users", "point_ledger", "point_lots");
    await expect(api.caller(member).account.withdraw({ password: "wrong-one" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: MSG.withdrawPasswordWrong,
    });
    await expect(api.caller(member).account.withdraw({ password: "" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: MSG.withdrawPasswordRequired,
    });
    expect(await snapshotTables(api, "users", "point_ledger", "point_lots")).toEqual(before);
  });

  it("forfeits purchased and free points apart through the ledger, ends the sessions and refuses the login in Japanese", async () => {
    const member = await api.createUser({ points: 100 });
    await buy(member, 500, 1000);
    const preview = await api.caller(member).account.withdrawalPreview();
    expect(preview).toEqual({ purchased: 500, free: 100, lapsed: 0, sendPoints: 20 });
    const answer = await api.caller(member).account.withdraw({ password: member.password });
    expect(answer).toEqual({ success: true, message: MSG.withdrawDone, forfeited: preview });
    expect(await books(member.id)).toEqual({ points: 0, sendPoints: 0, ledger: 0, lots: 0 });
    const forfeits = await db()
      .select({ account: pointLedger.account, delta: pointLedger.delta })
      .from(pointLedger)
      .where(and(eq(pointLedger.userId, member.id), eq(pointLedger.kind, "forfeit")));
    expect(forfeits).toEqual(
      expect.arrayContaining([
        { account: "points", delta: -600 },
        { account: "send_points", delta: -20 },
      ]),
    );
    // The old session is gone; the login says why (only once the password matched).
    await expect(api.caller(member).account.consent()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(api.caller().auth.login({ userID: member.userID, password: member.password })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: MSG.accountWithdrawn,
    });
    await expect(api.caller().auth.login({ userID: member.userID, password: "not-it" })).rejects.toMatchObject({
      code: "UNAUTHORIZED",
      message: MSG.loginFailed,
    });
  });

  it("vanishes from search and favourites; its messages show 退会したユーザー; the address registers again", async () => {
    const tag = `去${Date.now() % 100000}`;
    const reader = await api.createUser({ name: `${tag}読者`, gender: "male", points: 5000 });
    const leaver = await api.createUser({ name: `${tag}花子`, gender: "female", points: 500 });
    await api.caller(reader).members.addFavorite({ id: leaver.id });
    await api.caller(leaver).messages.send({ recipientIds: [reader.id], body: "さようなら" });
    expect((await api.caller(reader).members.search({ keyword: tag, excludeSameSex: true })).total).toBe(1);
    await api.caller(leaver).account.withdraw({ password: leaver.password });
    expect((await api.caller(reader).members.search({ keyword: tag, excludeSameSex: true })).total).toBe(0);
    expect((await api.caller(reader).members.favorites()).map((p) => p.id)).not.toContain(leaver.id);
    const inbox = await api.caller(reader).messages.list({ box: "inbox", page: 1 });
    const received = must(inbox.messages.find((m) => m.from.id === leaver.id));
    expect(received.from).toMatchObject({ name: WITHDRAWN_MEMBER_NAME, photoLink: null });
    const lines = await api.caller(reader).messages.conversations({ page: 1 });
    expect(must(lines.conversations.find((c) => c.partner.id === leaver.id)).partner.name).toBe(WITHDRAWN_MEMBER_NAME);
    // The same address joins again as a new member.
    const email = `${leaver.userID}@example.jp`;
    await api.caller().auth.join({ email, gender: "female", ...consent });
    const accounts = await db()
      .select({ id: users.id, deletedAt: users.deletedAt })
      .from(users)
      .where(eq(users.email, email));
    expect(accounts).toHaveLength(2);
    expect(accounts.filter((a) => a.deletedAt === null)).toHaveLength(1);
  });

  it("a failure mid-withdrawal changes nothing (one transaction)", async () => {
    const member = await api.createUser({ points: 100 });
    await buy(member, 500, 1000);
    const before = await snapshotTables(api, "users", "point_ledger", "point_lots", "point_lot_usages");
    // The send-points forfeit row (the last write before the account is marked) fails.
    await db().execute(sql`create or replace function fail_forfeit() returns trigger language plpgsql as $$
      begin if new.kind = 'forfeit' and new.account = 'send_points' then raise exception 'injected failure'; end if; return new; end $$`);
    await db().execute(
      sql`create trigger fail_forfeit before insert on point_ledger for each row execute function fail_forfeit()`,
    );
    try {
      await expect(api.caller(member).account.withdraw({ password: member.password })).rejects.toBeTruthy();
    } finally {
      await db().execute(sql`drop trigger fail_forfeit on point_ledger`);
    }
    expect(await snapshotTables(api, "users", "point_ledger", "point_lots", "point_lot_usages")).toEqual(before);
    expect((await books(member.id)).points).toBe(600);
  });
});

describe("restoring a withdrawn member (adminUsers.restore)", () => {
  it("lists withdrawn members with the date; a restore within the retention is audited and gives the balance back", async () => {
    const admin = await api.createUser({ role: "admin" });
    const member = await api.createUser({ points: 100 });
    await buy(member, 500, 1000);
    await api.caller(member).account.withdraw({ password: member.password });
    const listed = await api.caller(admin).adminUsers.withdrawn({ page: 1 });
    const row = must(listed.users.find((u) => u.id === member.id));
    expect(row.restorable).toBe(true);
    expect(row.withdrawnAt).toBeInstanceOf(Date);
    expect(row.retainedUntil.getFullYear()).toBe(row.withdrawnAt.getFullYear() + LEGAL.accountRetentionYears);
    // Not in the live user list.
    expect((await api.caller(admin).adminUsers.list({ search: member.userID })).users).toHaveLength(0);
    expect(await api.caller(admin).adminUsers.restore({ id: member.id })).toEqual({
      success: true,
      message: MSG.userRestored,
    });
    expect(await books(member.id)).toMatchObject({ points: 600, sendPoints: 20, ledger: 600, lots: 600 });
    const paid = await db()
      .select({ remaining: pointLots.remaining })
      .from(pointLots)
      .where(and(eq(pointLots.userId, member.id), eq(pointLots.paid, true)));
    expect(paid).toEqual([{ remaining: 500 }]);
    const [audit] = await db().select().from(adminAuditLog).where(eq(adminAuditLog.targetId, member.id));
    expect(audit).toMatchObject({ adminId: admin.id, action: "user.restore" });
    const { token } = await api.caller().auth.login({ userID: member.userID, password: member.password });
    expect(token).toBeTruthy();
    await expect(api.caller(admin).adminUsers.restore({ id: member.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: MSG.notWithdrawn,
    });
  });

  it("refuses after the retention, or when the address is a live member's again", async () => {
    const admin = await api.createUser({ role: "admin" });
    const late = await api.createUser();
    await api.caller(late).account.withdraw({ password: late.password });
    await db()
      .update(users)
      .set({ withdrawnAt: sql`now() - interval '366 days'`, deletedAt: sql`now() - interval '366 days'` })
      .where(eq(users.id, late.id));
    await expect(api.caller(admin).adminUsers.restore({ id: late.id })).rejects.toMatchObject({
      code: "CONFLICT",
      message: MSG.restoreRetentionOver,
    });
    const taken = await api.createUser();
    await api.caller(taken).account.withdraw({ password: taken.password });
    await api.caller().auth.join({ email: `${taken.userID}@example.jp`, gender: "male", ...consent });
    await expect(api.caller(admin).adminUsers.restore({ id: taken.id })).rejects.toMatchObject({
      code: "CONFLICT",
      message: MSG.restoreEmailTaken,
    });
  });
});

/** The balance set to 0 by an administrator's correction, as the user edit does. */
async function zero(member: TestUser, admin: TestUser) {
  await db().transaction(async (tx) => {
    for (const account of ["points", "send_points"] as const)
      await setBalance(tx, { userId: member.id, account, value: 0, actorId: admin.id });
  });
}

describe("a restoration gives back what that withdrawal took, once (decision 0038)", () => {
  it("withdraw, restore, spend to 0, withdraw, restore: the second restoration gives nothing", async () => {
    const admin = await api.createUser({ role: "admin" });
    const member = await api.createUser({ points: 100 });
    await buy(member, 900, 1800);
    expect((await api.caller(member).account.withdraw({ password: member.password })).forfeited).toMatchObject({
      purchased: 900,
      free: 100,
      sendPoints: 20,
    });
    await api.caller(admin).adminUsers.restore({ id: member.id });
    expect(await books(member.id)).toEqual({ points: 1000, sendPoints: 20, ledger: 1000, lots: 1000 });
    await zero(member, admin);
    // The second withdrawal forfeits nothing, so its restoration gives nothing back.
    expect((await api.caller(member).account.withdraw({ password: member.password })).forfeited).toEqual({
      purchased: 0,
      free: 0,
      lapsed: 0,
      sendPoints: 0,
    });
    await api.caller(admin).adminUsers.restore({ id: member.id });
    expect(await books(member.id)).toEqual({ points: 0, sendPoints: 0, ledger: 0, lots: 0 });
    const refunds = await db()
      .select({ account: pointLedger.account, delta: pointLedger.delta })
      .from(pointLedger)
      .where(and(eq(pointLedger.userId, member.id), eq(pointLedger.kind, "refund")));
    expect(refunds).toHaveLength(2);
    // A third cycle with a balance again: exactly that balance comes back.
    await buy(member, 300, 600);
    await api.caller(member).account.withdraw({ password: member.password });
    await api.caller(admin).adminUsers.restore({ id: member.id });
    expect(await books(member.id)).toEqual({ points: 300, sendPoints: 0, ledger: 300, lots: 300 });
    const audits = await db()
      .select({ details: adminAuditLog.details })
      .from(adminAuditLog)
      .where(and(eq(adminAuditLog.targetId, member.id), eq(adminAuditLog.action, "user.restore")));
    expect(audits.map((a) => a.details)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ points: 1000, sendPoints: 20 }),
        expect.objectContaining({ points: 0, sendPoints: 0 }),
        expect.objectContaining({ points: 300, sendPoints: 0 }),
      ]),
    );
  });

  it("the mixed case: no points but send points; only the send points come back, never an earlier forfeit", async () => {
    const admin = await api.createUser({ role: "admin" });
    const member = await api.createUser({ points: 100 });
    await api.caller(member).account.withdraw({ password: member.password });
    await api.caller(admin).adminUsers.restore({ id: member.id });
    expect(await books(member.id)).toMatchObject({ points: 100, sendPoints: 20 });
    await db().transaction((tx) =>
      setBalance(tx, { userId: member.id, account: "points", value: 0, actorId: admin.id }),
    );
    expect((await api.caller(member).account.withdraw({ password: member.password })).forfeited).toEqual({
      purchased: 0,
      free: 0,
      lapsed: 0,
      sendPoints: 20,
    });
    await api.caller(admin).adminUsers.restore({ id: member.id });
    expect(await books(member.id)).toEqual({ points: 0, sendPoints: 20, ledger: 0, lots: 0 });
  });

  it("concurrent restorations of one withdrawal give its balance back once", async () => {
    const admin = await api.createUser({ role: "admin" });
    const other = await api.createUser({ role: "admin" });
    const member = await api.createUser({ points: 100 });
    await buy(member, 500, 1000);
    await api.caller(member).account.withdraw({ password: member.password });
    const outcomes = await Promise.allSettled([
      api.caller(admin).adminUsers.restore({ id: member.id }),
      api.caller(other).adminUsers.restore({ id: member.id }),
    ]);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    expect(outcomes.find((o) => o.status === "rejected")).toMatchObject({
      reason: expect.objectContaining({ code: "NOT_FOUND", message: MSG.notWithdrawn }),
    });
    expect(await books(member.id)).toEqual({ points: 600, sendPoints: 20, ledger: 600, lots: 600 });
  });
});

describe("the retention job (fixed clock)", () => {
  it("deletes the personal data once the retention ends; ledger rows stay", async () => {
    const member = await api.createUser({ name: "消える人", birthday: "1990-01-01", address: "東京都" });
    await db().insert(idVerifications).values({ userId: member.id, status: "rejected", imagePath: "gone.jpg" });
    await api.caller(member).account.withdraw({ password: member.password });
    const [left] = await db().select({ at: users.withdrawnAt }).from(users).where(eq(users.id, member.id));
    const withdrawnAt = must(left?.at);
    const deps = { db: db(), uploadsDir: api.deps.uploadsDir };
    // One day before the end: nothing.
    const dayBefore = new Date(withdrawnAt);
    dayBefore.setUTCFullYear(dayBefore.getUTCFullYear() + LEGAL.accountRetentionYears);
    dayBefore.setUTCDate(dayBefore.getUTCDate() - 1);
    await purgeWithdrawn(deps, dayBefore);
    const [kept] = await db().select().from(users).where(eq(users.id, member.id));
    expect(kept).toMatchObject({ name: "消える人", personalDataDeletedAt: null });
    // Past the end: gone.
    const after = new Date(dayBefore.getTime() + 2 * 24 * 3600_000);
    await purgeWithdrawn(deps, after);
    const [gone] = await db().select().from(users).where(eq(users.id, member.id));
    expect(gone).toMatchObject({
      name: null,
      birthday: null,
      address: null,
      photoLink: null,
      email: `withdrawn-${member.id}@deleted.invalid`,
      personalDataDeletedAt: after,
    });
    const [image] = await db().select().from(idVerifications).where(eq(idVerifications.userId, member.id));
    expect(image?.imagePath).toBeNull();
    const ledger = await db().select().from(pointLedger).where(eq(pointLedger.userId, member.id));
    expect(ledger.length).toBeGreaterThan(0);
    await expect(api.caller().auth.login({ userID: member.userID, password: member.password })).rejects.toMatchObject({
      code: "UNAUTHORIZED",
    });
  });
});

describe("the unused-balance report and forfeited paid points (資金決済法)", () => {
  it("counts a paid lot until the withdrawal forfeits it, and again once restored", async () => {
    const admin = await api.createUser({ role: "admin" });
    const before = await unusedBalanceAt(db(), "2025-03-31");
    const after = await unusedBalanceAt(db(), "2025-09-30");
    const member = await api.createUser({ points: 0 });
    await buy(member, 500, 1000);
    const [lot] = await db()
      .select()
      .from(pointLots)
      .where(and(eq(pointLots.userId, member.id), eq(pointLots.paid, true)));
    await db()
      .update(pointLots)
      .set({ createdAt: new Date("2025-01-10T00:00:00+09:00"), expiresAt: new Date("2028-01-10T00:00:00+09:00") })
      .where(eq(pointLots.id, must(lot).id));
    await api.caller(member).account.withdraw({ password: member.password });
    // The forfeiture happened between the two base dates.
    await db()
      .update(pointLotUsages)
      .set({ createdAt: new Date("2025-06-01T00:00:00+09:00") })
      .where(eq(pointLotUsages.lotId, must(lot).id));
    expect((await unusedBalanceAt(db(), "2025-03-31")).outstandingPaidPoints).toBe(before.outstandingPaidPoints + 500);
    expect((await unusedBalanceAt(db(), "2025-03-31")).yenValue).toBe(before.yenValue + 1000);
    expect((await unusedBalanceAt(db(), "2025-09-30")).outstandingPaidPoints).toBe(after.outstandingPaidPoints);
    // Restored (its usage rows give the points back): counted again from then on.
    await api.caller(admin).adminUsers.restore({ id: member.id });
    const now = await db()
      .select({ n: sql<number>`coalesce(sum(${pointLots.remaining}), 0)::int` })
      .from(pointLots)
      .where(eq(pointLots.id, must(lot).id));
    expect(now[0]?.n).toBe(500);
  });
});
