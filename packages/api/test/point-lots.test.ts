import { readFileSync } from "node:fs";
import { pointLedger, pointLots, pointLotUsages, prepaidActions, users } from "@enmusubi/db";
import { onPostgres, waitForLockWaiters } from "@enmusubi/db/testing";
import { insufficientPoints } from "@enmusubi/shared";
import { and, asc, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { AppError } from "../src/errors";
import { chargeBatch } from "../src/points/batch";
import { chargeAction, payForAction } from "../src/points/charge";
import { expireLots } from "../src/points/expiry";
import { type ChargeResult, changeBalance, setBalance } from "../src/points/ledger";
import { FREE_POINT_VALIDITY_DAYS, unspentLots } from "../src/points/lots";
import { prepayAction, refundExpiredPrepaid } from "../src/points/prepaid";
import { snapshotTables, useTestApi } from "./helpers";

/** The value, or a failed test when it is missing. */
function must<T>(value: T | null | undefined): T {
  if (value === null || value === undefined) throw new Error("expected a value");
  return value;
}

const api = useTestApi();
const db = () => api.database.db;

/** Balance, ledger sum and unspent lot remainders of the `points` account: always equal. */
async function books(userId: string) {
  const [user] = await db().select({ points: users.points }).from(users).where(eq(users.id, userId));
  const [ledger] = await db()
    .select({ total: sql<number>`coalesce(sum(${pointLedger.delta}), 0)::int` })
    .from(pointLedger)
    .where(and(eq(pointLedger.userId, userId), eq(pointLedger.account, "points")));
  const [lots] = await db()
    .select({ total: sql<number>`coalesce(sum(${pointLots.remaining}), 0)::int` })
    .from(pointLots)
    .where(eq(pointLots.userId, userId));
  return { balance: user?.points, ledger: ledger?.total, lots: lots?.total };
}

const same = (n: number) => ({ balance: n, ledger: n, lots: n });

async function lotsOf(userId: string) {
  return db()
    .select()
    .from(pointLots)
    .where(eq(pointLots.userId, userId))
    .orderBy(asc(pointLots.createdAt), asc(pointLots.id));
}

async function backdateExpiry(lotId: string, interval: string) {
  await db()
    .update(pointLots)
    .set({ expiresAt: sql`now() + ${sql.raw(`interval '${interval}'`)}` })
    .where(eq(pointLots.id, lotId));
}

describe("point lots", () => {
  it("every credit is a lot: opening balance free for 180 days, a purchase paid for 3 years with its price", async () => {
    const member = await api.createUser({ points: 100 });
    await db().transaction((tx) =>
      changeBalance(tx, { userId: member.id, delta: 500, kind: "purchase", paidYen: 1000, reference: "TXTEST" }),
    );
    const lots = await lotsOf(member.id);
    expect(lots.map((l) => [l.source, l.paid, l.amount, l.remaining, l.yenAmount])).toEqual([
      ["initial", false, 100, 100, 0],
      ["purchase", true, 500, 500, 1000],
    ]);
    const days = (d: Date) => Math.round((d.getTime() - Date.now()) / 86_400_000);
    expect(days(must(lots[0]).expiresAt)).toBe(FREE_POINT_VALIDITY_DAYS);
    expect(days(must(lots[1]).expiresAt)).toBeGreaterThanOrEqual(365 * 3);
    expect(days(must(lots[1]).expiresAt)).toBeLessThanOrEqual(366 * 3);
    expect(await books(member.id)).toEqual(same(600));
  });

  it("spending takes the earliest-expiring lots first, in the charge's transaction", async () => {
    const member = await api.createUser({ points: 0 });
    const credit = (delta: number, paidYen?: number) =>
      db().transaction((tx) =>
        changeBalance(tx, { userId: member.id, delta, kind: paidYen ? "purchase" : "initial", paidYen }),
      );
    await credit(30, 60); // expires in 3 years
    await credit(20); // 180 days
    await credit(40, 80);
    const [late, soon, middle] = await lotsOf(member.id);
    await backdateExpiry(must(soon).id, "10 days");
    await backdateExpiry(must(middle).id, "20 days");
    // profile_view costs 15: 15 from `soon` (20 → 5); then 15 more: 5 from `soon`, 10 from `middle`.
    await db().transaction((tx) => chargeAction(tx, { userId: member.id, actionName: "profile_view" }));
    await db().transaction((tx) => chargeAction(tx, { userId: member.id, actionName: "profile_view" }));
    const after = new Map((await lotsOf(member.id)).map((l) => [l.id, l.remaining]));
    expect([after.get(must(soon).id), after.get(must(middle).id), after.get(must(late).id)]).toEqual([0, 30, 30]);
    expect(await books(member.id)).toEqual(same(60));
    const usages = await db()
      .select({ lotId: pointLotUsages.lotId, amount: pointLotUsages.amount })
      .from(pointLotUsages)
      .innerJoin(pointLots, eq(pointLots.id, pointLotUsages.lotId))
      .where(eq(pointLots.userId, member.id));
    expect(usages.reduce((s, u) => s + u.amount, 0)).toBe(30);
  });

  it("a charge refused for lack of points takes nothing from any lot", async () => {
    const member = await api.createUser({ points: 10 });
    const before = await lotsOf(member.id);
    await expect(
      db().transaction((tx) => chargeAction(tx, { userId: member.id, actionName: "profile_view" })),
    ).rejects.toMatchObject({ code: "PAYMENT_REQUIRED" });
    expect(await lotsOf(member.id)).toEqual(before);
    expect(await books(member.id)).toEqual(same(10));
  });

  it("the expiry job takes the unspent remainder once: one `expire` row per member per run, never below 0", async () => {
    const member = await api.createUser({ points: 100 });
    await db().transaction((tx) => changeBalance(tx, { userId: member.id, delta: 50, kind: "admin_adjust" }));
    await db().transaction((tx) =>
      changeBalance(tx, { userId: member.id, delta: 500, kind: "purchase", paidYen: 1000 }),
    );
    const [opening, grant] = await lotsOf(member.id);
    // 15 spent from the opening lot (earliest), then both free lots expire.
    await db().transaction((tx) => chargeAction(tx, { userId: member.id, actionName: "profile_view" }));
    await backdateExpiry(must(opening).id, "-1 day");
    await backdateExpiry(must(grant).id, "-2 hours");
    const run = await expireLots(db());
    expect(run.failed).toEqual([]);
    const rows = await db()
      .select({ delta: pointLedger.delta, balanceAfter: pointLedger.balanceAfter })
      .from(pointLedger)
      .where(and(eq(pointLedger.userId, member.id), eq(pointLedger.kind, "expire")));
    expect(rows).toEqual([{ delta: -(85 + 50), balanceAfter: 500 }]);
    expect(await books(member.id)).toEqual(same(500));
    const again = await expireLots(db());
    expect(again.failed).toEqual([]);
    const rowsAfter = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(pointLedger)
      .where(and(eq(pointLedger.userId, member.id), eq(pointLedger.kind, "expire")));
    expect(rowsAfter[0]?.n).toBe(1);
    expect((await unspentLots(db(), member.id)).map((l) => l.source)).toEqual(["purchase"]);
  });

  it("a mixed history keeps balance = ledger sum = unspent lots", async () => {
    const member = await api.createUser({ points: 100 });
    const admin = await api.createUser({ role: "admin" });
    expect(await books(member.id)).toEqual(same(100));
    await db().transaction((tx) =>
      setBalance(tx, { userId: member.id, account: "points", value: 180, actorId: admin.id }),
    );
    expect(await books(member.id)).toEqual(same(180));
    await db().transaction((tx) =>
      changeBalance(tx, { userId: member.id, delta: 500, kind: "purchase", paidYen: 1000 }),
    );
    await db().transaction((tx) => chargeAction(tx, { userId: member.id, actionName: "send_message", quantity: 2 }));
    expect(await books(member.id)).toEqual(same(584));
    await prepayAction(db(), { userId: member.id, actionName: "profile_view", quantity: 2 });
    expect(await books(member.id)).toEqual(same(554));
    await db()
      .update(prepaidActions)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(eq(prepaidActions.userId, member.id));
    expect((await refundExpiredPrepaid(db())).failed).toEqual([]);
    expect(await books(member.id)).toEqual(same(584));
    await db().transaction((tx) =>
      setBalance(tx, { userId: member.id, account: "points", value: 300, actorId: admin.id }),
    );
    expect(await books(member.id)).toEqual(same(300));
    const [first] = await lotsOf(member.id);
    await backdateExpiry(must(first).id, "-1 minute");
    await expireLots(db());
    const final = await books(member.id);
    expect(final.balance).toBe(final.ledger);
    expect(final.balance).toBe(final.lots);
    // send_points is an allowance with no lots; its ledger still adds up on its own.
    await db().transaction((tx) =>
      changeBalance(tx, { userId: member.id, account: "send_points", delta: -5, kind: "charge" }),
    );
    expect(await books(member.id)).toEqual(final);
  });

  it("a prepaid refund goes back to the lots the prepayment took from (a paid lot stays paid)", async () => {
    const member = await api.createUser({ points: 0 });
    await db().transaction((tx) =>
      changeBalance(tx, { userId: member.id, delta: 100, kind: "purchase", paidYen: 200 }),
    );
    await prepayAction(db(), { userId: member.id, actionName: "profile_view" });
    expect((await lotsOf(member.id))[0]?.remaining).toBe(85);
    await db()
      .update(prepaidActions)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(eq(prepaidActions.userId, member.id));
    await refundExpiredPrepaid(db());
    const lots = await lotsOf(member.id);
    expect(lots.map((l) => [l.paid, l.remaining])).toEqual([[true, 100]]);
    expect(await books(member.id)).toEqual(same(100));
  });
});

/** Every ledger row of kind charge / prepaid_charge that took points from a lot already past its expiry then. */
async function chargesFromLapsedLots(userIds: string[]) {
  return db()
    .select({ ledgerId: pointLedger.id })
    .from(pointLotUsages)
    .innerJoin(pointLedger, eq(pointLedger.id, pointLotUsages.ledgerId))
    .innerJoin(pointLots, eq(pointLots.id, pointLotUsages.lotId))
    .where(
      and(
        sql`${pointLedger.kind} in ('charge', 'prepaid_charge')`,
        sql`${pointLots.expiresAt} <= ${pointLedger.createdAt}`,
        sql`${pointLedger.userId} in (${sql.join(
          userIds.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`,
      ),
    );
}

const LOT_TABLES = [
  "users",
  "point_ledger",
  "point_lots",
  "point_lot_usages",
  "prepaid_actions",
  "profile_views",
  "footprints",
];

describe("a lapsed lot cannot be spent before the expiry job books it (decision 0008)", () => {
  it("a member whose only lot expired a minute ago cannot pay: 402 quoting 0 spendable points, nothing written", async () => {
    const member = await api.createUser({ points: 100 });
    const other = await api.createUser({ points: 0 });
    const [only] = await lotsOf(member.id);
    await backdateExpiry(must(only).id, "-1 minute");
    const before = await snapshotTables(api, ...LOT_TABLES);
    // Through the paid procedure (profile view, 15 pt) …
    await expect(api.caller(member).members.viewProfile({ id: other.id })).rejects.toMatchObject({
      code: "PAYMENT_REQUIRED",
      message: insufficientPoints(15, 0),
    });
    // … the service alone, the legacy deduct-points call and a batch charge.
    await expect(
      db().transaction((tx) => chargeAction(tx, { userId: member.id, actionName: "profile_view" })),
    ).rejects.toMatchObject({ code: "PAYMENT_REQUIRED", message: insufficientPoints(15, 0) });
    await expect(prepayAction(db(), { userId: member.id, actionName: "profile_view" })).rejects.toMatchObject({
      code: "PAYMENT_REQUIRED",
      message: insufficientPoints(15, 0),
    });
    const batch = await db().transaction((tx) => chargeBatch(tx, "send_message", [{ userId: member.id, quantity: 1 }]));
    expect(batch[0]).toMatchObject({ code: "PAYMENT_REQUIRED", message: insufficientPoints(48, 0) });
    expect(await snapshotTables(api, ...LOT_TABLES)).toEqual(before);
    expect(await books(member.id)).toEqual(same(100));
  });

  it("a member with a lapsed lot and a valid one pays from the valid one; the lapsed one is booked as expired", async () => {
    const member = await api.createUser({ points: 100 });
    await db().transaction((tx) => changeBalance(tx, { userId: member.id, delta: 40, kind: "purchase", paidYen: 80 }));
    const [opening, bought] = await lotsOf(member.id);
    await backdateExpiry(must(opening).id, "-1 minute");
    // 40 valid points: the 48-point send is refused, quoting 40 (not the 140 of the balance) …
    await expect(
      db().transaction((tx) => chargeAction(tx, { userId: member.id, actionName: "send_message" })),
    ).rejects.toMatchObject({ code: "PAYMENT_REQUIRED", message: insufficientPoints(48, 40) });
    // … a 15-point view is paid from the bought lot alone.
    const result = await db().transaction((tx) => chargeAction(tx, { userId: member.id, actionName: "profile_view" }));
    expect(result).toMatchObject({ required: 15, available: 40, remainingPoints: 25 });
    const after = new Map((await lotsOf(member.id)).map((l) => [l.id, l.remaining]));
    expect([after.get(must(opening).id), after.get(must(bought).id)]).toEqual([0, 25]);
    expect(await books(member.id)).toEqual(same(25));
    expect(await chargesFromLapsedLots([member.id])).toEqual([]);
    const kinds = await db()
      .select({ kind: pointLedger.kind, delta: pointLedger.delta })
      .from(pointLedger)
      .where(eq(pointLedger.userId, member.id))
      .orderBy(asc(pointLedger.createdAt), asc(pointLedger.balanceAfter));
    expect(
      kinds
        .slice(-2)
        .map((k) => [k.kind, k.delta])
        .sort(),
    ).toEqual([
      ["charge", -15],
      ["expire", -100],
    ]);
  });

  it("the legacy deduct-points call and a batch charge pay from valid lots too", async () => {
    const prepaying = await api.createUser({ points: 100 });
    const batched = await api.createUser({ points: 100 });
    for (const member of [prepaying, batched]) {
      await db().transaction((tx) =>
        changeBalance(tx, { userId: member.id, delta: 60, kind: "purchase", paidYen: 120 }),
      );
      const [opening] = await lotsOf(member.id);
      await backdateExpiry(must(opening).id, "-1 minute");
    }
    expect(await prepayAction(db(), { userId: prepaying.id, actionName: "profile_view" })).toMatchObject({
      available: 60,
      remainingPoints: 45,
    });
    const results = await db().transaction((tx) =>
      chargeBatch(tx, "send_message", [
        { userId: batched.id, quantity: 1 },
        { userId: batched.id, quantity: 1 },
      ]),
    );
    expect(results[0]).toMatchObject({ required: 48, available: 60, remainingPoints: 12 });
    expect(results[1]).toMatchObject({ code: "PAYMENT_REQUIRED", message: insufficientPoints(48, 12) });
    expect(await books(prepaying.id)).toEqual(same(45));
    expect(await books(batched.id)).toEqual(same(12));
    expect(await chargesFromLapsedLots([prepaying.id, batched.id])).toEqual([]);
  });
});

describe("migration 0016: balances from before lots", () => {
  it("turns each existing balance into one free lot expiring 3 years later, so the books agree", async () => {
    const legacy = await api.createUser({ points: 0 });
    const migration = readFileSync(new URL("../../../drizzle/0016_point_lots_opening.sql", import.meta.url), "utf8");
    const rollback = new Error("rollback");
    await expect(
      db().transaction(async (tx) => {
        // A balance written before lots existed: in the users row and its ledger, with no lot.
        await tx.update(users).set({ points: 250 }).where(eq(users.id, legacy.id));
        await tx
          .insert(pointLedger)
          .values({ userId: legacy.id, kind: "initial", delta: 250, balanceAfter: 250, note: "legacy" });
        // As before the migration: no lots at all (rolled back below).
        await tx.delete(pointLotUsages).where(sql`true`);
        await tx.delete(pointLots).where(sql`true`);
        await tx.execute(sql.raw(migration));
        const lots = await tx.select().from(pointLots).where(eq(pointLots.userId, legacy.id));
        expect(lots.map((l) => [l.source, l.paid, l.amount, l.remaining, l.yenAmount])).toEqual([
          ["initial", false, 250, 250, 0],
        ]);
        const years = (must(lots[0]).expiresAt.getTime() - Date.now()) / (365.25 * 86_400_000);
        expect(years).toBeGreaterThan(2.99);
        expect(years).toBeLessThan(3.01);
        // Spending works on the migrated lot.
        await chargeAction(tx, { userId: legacy.id, actionName: "profile_view" });
        const [left] = await tx.select().from(pointLots).where(eq(pointLots.userId, legacy.id));
        expect(left?.remaining).toBe(235);
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    expect(await books(legacy.id)).toEqual(same(0));
  });
});

describe.runIf(onPostgres)("point lots under concurrency (PostgreSQL)", () => {
  it("20 concurrent charges and an expiry run keep balance = ledger = lots", async () => {
    const member = await api.createUser({ points: 100 });
    await db().transaction((tx) =>
      changeBalance(tx, { userId: member.id, delta: 500, kind: "purchase", paidYen: 1000 }),
    );
    const [opening] = await lotsOf(member.id);
    await backdateExpiry(must(opening).id, "-1 minute");
    const charges = Array.from({ length: 20 }, () =>
      db()
        .transaction((tx) => chargeAction(tx, { userId: member.id, actionName: "profile_view" }))
        .then(
          () => "ok",
          () => "refused",
        ),
    );
    const [results] = await Promise.all([Promise.all(charges), expireLots(db()), expireLots(db())]);
    const b = await books(member.id);
    expect(b.balance).toBe(b.ledger);
    expect(b.balance).toBe(b.lots);
    expect(results.filter((r) => r === "ok").length).toBeGreaterThan(0);
  });

  it("a unit prepaid while a charge waits for the member's lock is used by that charge, not paid again", async () => {
    const member = await api.createUser({ points: 100 });
    let charged: Promise<unknown> | undefined;
    await db().transaction(async (tx) => {
      // What prepayAction does, held open: the member's row locked, the points taken, the unit stored.
      await tx.select().from(users).where(eq(users.id, member.id)).for("no key update");
      await changeBalance(tx, {
        userId: member.id,
        delta: -15,
        kind: "prepaid_charge",
        actionName: "profile_view",
        quantity: 1,
      });
      await tx.insert(prepaidActions).values({
        userId: member.id,
        actionName: "profile_view",
        remaining: 1,
        unitCost: 15,
        expiresAt: sql`now() + interval '30 minutes'`,
      });
      // Through the charging door, which locks the member before the charge reads anything.
      charged = payForAction(db(), { userId: member.id, action: "profile_view" }, (_tx, charge) => charge());
      // The action's first statement is waiting for the lock when this commits.
      await waitForLockWaiters(api.database);
    });
    expect(await charged).toMatchObject({ required: 15, remainingPoints: 85 });
    expect(await books(member.id)).toEqual(same(85));
    const rows = await db().select().from(pointLedger).where(eq(pointLedger.userId, member.id));
    expect(rows.filter((r) => r.kind === "charge")).toEqual([]);
    const [unit] = await db().select().from(prepaidActions).where(eq(prepaidActions.userId, member.id));
    expect(unit?.remaining).toBe(0);
  });

  it("the expiry job running while members spend: balance = ledger = unspent lots for every account, no charge from a lapsed lot", async () => {
    const members = await Promise.all(Array.from({ length: 8 }, () => api.createUser({ points: 100 })));
    for (const [i, member] of members.entries()) {
      await db().transaction((tx) =>
        changeBalance(tx, { userId: member.id, delta: 30 + i * 10, kind: "purchase", paidYen: 100 }),
      );
      const [opening] = await lotsOf(member.id);
      await backdateExpiry(must(opening).id, "-1 minute");
    }
    // What each spend took from the balance: 15, or 0 when the action used a unit prepaid by the
    // member's earlier deduct-points call (the legacy pair: prepay, then the action consumes it).
    const taken = (r: ChargeResult) => r.available - r.remainingPoints;
    const refused = (error: { code?: string }) => {
      if (error.code !== "PAYMENT_REQUIRED") throw error;
      return "refused" as const;
    };
    const spend = (member: (typeof members)[number], n: number): Promise<number | "refused"> =>
      n % 3 === 0
        ? db()
            .transaction((tx) => chargeBatch(tx, "profile_view", [{ userId: member.id, quantity: 1 }]))
            .then(([r]) => (r instanceof AppError ? refused(r) : taken(r as ChargeResult)))
        : (n % 3 === 1
            ? payForAction(db(), { userId: member.id, action: "profile_view" }, (_tx, charge) => charge())
            : prepayAction(db(), { userId: member.id, actionName: "profile_view" })
          ).then(taken, refused);
    const work = members.map((member) => Promise.all(Array.from({ length: 6 }, (_, n) => spend(member, n))));
    const [results] = await Promise.all([Promise.all(work), expireLots(db()), expireLots(db()), expireLots(db())]);
    await expireLots(db());
    // No charge was paid from a lapsed lot, and the books add up for every account.
    expect(await chargesFromLapsedLots(members.map((m) => m.id))).toEqual([]);
    for (const [i, member] of members.entries()) {
      const b = await books(member.id);
      expect(b.balance).toBe(b.ledger);
      expect(b.balance).toBe(b.lots);
      // Exactly the bought points minus what the accepted spends took (the lapsed opening lot
      // never paid); a refusal only when fewer than 15 spendable points were left, and the balance
      // only falls, so after any refusal it ends under 15.
      const spends = results[i] ?? [];
      const paid = spends.reduce<number>((sum, r) => sum + (r === "refused" ? 0 : r), 0);
      expect(b.balance).toBe(30 + i * 10 - paid);
      if (spends.includes("refused")) expect(b.balance).toBeLessThan(15);
    }
    expect(results.flat().filter((r) => r !== "refused").length).toBeGreaterThan(0);
  }, 60_000);
});
