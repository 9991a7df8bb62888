import {
  adminAuditLog,
  pointLedger,
  pointLots,
  purchaseBonusGrants,
  purchaseBonusRules,
  purchaseTransactions,
  users,
} from "@enmusubi/db";
import { onPostgres } from "@enmusubi/db/testing";
import { FREE_POINT_VALIDITY_DAYS, MSG } from "@enmusubi/shared";
import { and, asc, eq, sql } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { simulateSmartPitPayment } from "../src/payments/providers/smart-pit-simulator";
import { handleSmartPitNotification } from "../src/payments/smart-pit-notification";
import { snapshotTables, type TestUser, useTestApi } from "./helpers";

/*
 * Purchase bonuses (decision 0047): first purchase, amount tiers and campaigns booked as free lots
 * in the confirming transaction; the order's time decides; administrators cannot change the past.
 */

const api = useTestApi();
const db = () => api.database.db;
const API_KEY = "sk_test_BONUS-KEY-1234";
let admin: TestUser;

const DAY_MS = 86_400_000;
const BONUS_TABLES = [
  "purchase_transactions",
  "point_ledger",
  "point_lots",
  "point_lot_usages",
  "users",
  "purchase_bonus_grants",
  "purchase_bonus_rules",
  "admin_audit_log",
];

beforeAll(async () => {
  admin = await api.createUser({ role: "admin" });
  await api.caller(admin).adminPayments.updateSmartPit({ smartPitId: "SPID-1", apiKey: API_KEY, isActive: true });
  await api.caller(admin).adminPayments.updateBank({
    bankName: "縁結び銀行",
    bankBranchName: "本店",
    bankAccountType: "普通",
    bankAccountNumber: "1234567",
    bankAccountName: "エンムスビ（カ",
    isActive: true,
  });
});

/** Each test starts with no bonus rule at all (tests delete what they made, grants first). */
beforeEach(async () => {
  await db().delete(purchaseBonusGrants);
  await db().delete(purchaseBonusRules);
});

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

/** A campaign's start and end: an hour from now for an hour, so it can be created (never in the past). */
function laterPeriod(fromNowMs = 3_600_000, lengthMs = 3_600_000) {
  const startsAt = new Date(Date.now() + fromNowMs);
  return { startsAt, endsAt: new Date(startsAt.getTime() + lengthMs) };
}

/** The order as if placed at `at` (what a member placing it then would have): its time is what counts. */
async function placedAt(id: string, at: Date) {
  await db().update(purchaseTransactions).set({ createdAt: at }).where(eq(purchaseTransactions.id, id));
}

async function bonusLedger(userId: string) {
  return db()
    .select()
    .from(pointLedger)
    .where(and(eq(pointLedger.userId, userId), eq(pointLedger.kind, "purchase_bonus")))
    .orderBy(asc(pointLedger.createdAt), asc(pointLedger.balanceAfter));
}

describe("bonuses credited with the purchase", () => {
  it("first purchase, amount tier and campaign: each a free lot of its own expiring in 180 days, the books equal", async () => {
    const a = api.caller(admin);
    await a.adminPayments.saveBonusRules({
      firstPurchase: { fixedPoints: 300 },
      tiers: [
        { minAmount: 5000, ratePercent: 10 },
        { minAmount: 10000, ratePercent: 20 },
      ],
    });
    const period = laterPeriod();
    await a.adminPayments.createCampaign({
      name: "春の購入キャンペーン",
      paymentMethod: "smart_pit",
      ...period,
      fixedPoints: 1000,
    });
    const member = await api.createUser();
    const order = await api.caller(member).purchase.create({ amount: 5000, paymentMethod: "smart_pit" });
    await placedAt(order.id, new Date(period.startsAt.getTime() + 60_000));
    const paid = await a.adminPayments.confirm({ id: order.id });
    // 2,500 pt bought; +300 first purchase, +250 (10 % of the 5,000 円 tier), +1,000 campaign.
    expect(paid).toMatchObject({ status: "paid", points: 2500, bonusPoints: 1550 });
    expect(await books(member.id)).toEqual(same(100 + 2500 + 1550));
    const ledger = await bonusLedger(member.id);
    expect(ledger.map((l) => [l.delta, l.note, l.reference])).toEqual([
      [300, "初回購入ボーナス", order.transactionId],
      [250, "金額別ボーナス（5,000円以上）", order.transactionId],
      [1000, "春の購入キャンペーン", order.transactionId],
    ]);
    const lots = await db()
      .select()
      .from(pointLots)
      .where(and(eq(pointLots.userId, member.id), eq(pointLots.source, "purchase_bonus")));
    expect(lots).toHaveLength(3);
    const [purchaseLot] = await db()
      .select()
      .from(pointLots)
      .where(and(eq(pointLots.userId, member.id), eq(pointLots.source, "purchase")));
    for (const lot of lots) {
      expect(lot).toMatchObject({ paid: false, yenAmount: 0 });
      expect(lot.ledgerId).toBeOneOf(ledger.map((l) => l.id));
      // 180 days from the credit (the purchase's own lot, credited in the same transaction, is 3 years).
      const days = (lot.expiresAt.getTime() - lot.createdAt.getTime()) / DAY_MS;
      expect(days).toBe(FREE_POINT_VALIDITY_DAYS);
      // Same transaction: the same now().
      expect(lot.createdAt.getTime()).toBe(purchaseLot?.createdAt.getTime());
    }
    expect(purchaseLot).toMatchObject({ paid: true, amount: 2500, yenAmount: 5000 });
    const grants = await db().select().from(purchaseBonusGrants).where(eq(purchaseBonusGrants.userId, member.id));
    expect(grants.map((g) => [g.kind, g.points]).sort()).toEqual([
      ["campaign", 1000],
      ["first_purchase", 300],
      ["tier", 250],
    ]);
    // The history shows it.
    const history = await api.caller(member).purchase.history({ page: 1 });
    expect(history.transactions[0]).toMatchObject({ id: order.id, bonusPoints: 1550 });

    // A second purchase is not the first: the tier only (the campaign is for orders placed in its period).
    const second = await api.caller(member).purchase.create({ amount: 10000, paymentMethod: "bank_transfer" });
    expect(await a.adminPayments.confirm({ id: second.id })).toMatchObject({ points: 5000, bonusPoints: 1000 });
    expect(await books(member.id)).toEqual(same(100 + 2500 + 1550 + 5000 + 1000));
  });

  it("the quote equals what is credited, for SmartPit's notification and an administrator's confirmation", async () => {
    const a = api.caller(admin);
    await a.adminPayments.saveBonusRules({
      firstPurchase: { ratePercent: 50 },
      tiers: [{ minAmount: 3000, fixedPoints: 120 }],
    });
    for (const method of ["smart_pit", "bank_transfer"] as const) {
      const member = await api.createUser();
      const m = api.caller(member);
      const quote = await m.purchase.bonusQuote({ amount: 3001, paymentMethod: method });
      expect(quote).toMatchObject({
        amount: 3001,
        points: 1500,
        bonusPoints: 870,
        totalPoints: 2370,
        firstPurchase: true,
        bonusValidityDays: FREE_POINT_VALIDITY_DAYS,
      });
      expect(quote.items.map((i) => [i.kind, i.points])).toEqual([
        ["first_purchase", 750],
        ["tier", 120],
      ]);
      const order = await m.purchase.create({ amount: 3001, paymentMethod: method });
      let credited: number;
      if (method === "smart_pit") {
        const n = simulateSmartPitPayment({
          apiKey: API_KEY,
          transactionId: order.transactionId,
          paymentCode: order.smartPit?.paymentCode ?? "",
          amount: 3001,
        });
        credited = (await handleSmartPitNotification(db(), n)).bonusPoints;
      } else {
        credited = (await a.adminPayments.confirm({ id: order.id })).bonusPoints;
      }
      expect(credited).toBe(quote.bonusPoints);
      const ledger = await bonusLedger(member.id);
      expect(ledger.map((l) => [l.note, l.delta])).toEqual(quote.items.map((i) => [i.label, i.points]));
      expect(await books(member.id)).toEqual(same(100 + quote.totalPoints));
      // After it, the quote no longer offers the first-purchase bonus.
      const again = await m.purchase.bonusQuote({ amount: 3001, paymentMethod: method });
      expect(again).toMatchObject({ firstPurchase: false, bonusPoints: 120 });
    }
  });

  it("without rules there is no bonus, and no ledger row of the kind", async () => {
    const member = await api.createUser();
    const order = await api.caller(member).purchase.create({ amount: 1000, paymentMethod: "smart_pit" });
    expect(await api.caller(member).purchase.bonusQuote({ amount: 1000, paymentMethod: "smart_pit" })).toMatchObject({
      bonusPoints: 0,
      items: [],
    });
    expect(await api.caller(admin).adminPayments.confirm({ id: order.id })).toMatchObject({ bonusPoints: 0 });
    expect(await bonusLedger(member.id)).toEqual([]);
    expect(await books(member.id)).toEqual(same(600));
  });

  it("a failure while booking the bonus rolls back the purchase's credit too", async () => {
    await api.caller(admin).adminPayments.saveBonusRules({ firstPurchase: { fixedPoints: 500 }, tiers: [] });
    const member = await api.createUser();
    const order = await api.caller(member).purchase.create({ amount: 2000, paymentMethod: "smart_pit" });
    // The bonus's grant cannot be written: the confirmation fails after the purchase was credited in it.
    await db().execute(
      sql.raw(`create or replace function refuse_bonus_grant() returns trigger language plpgsql as $$
        begin raise exception 'bonus booking failed (test)'; end $$`),
    );
    await db().execute(
      sql.raw(`create trigger refuse_bonus_grant before insert on purchase_bonus_grants
        for each row execute function refuse_bonus_grant()`),
    );
    try {
      const before = await snapshotTables(api, ...BONUS_TABLES);
      await expect(api.caller(admin).adminPayments.confirm({ id: order.id })).rejects.toMatchObject({
        code: "INTERNAL_SERVER_ERROR",
      });
      const n = simulateSmartPitPayment({
        apiKey: API_KEY,
        transactionId: order.transactionId,
        paymentCode: order.smartPit?.paymentCode ?? "",
        amount: 2000,
      });
      await expect(handleSmartPitNotification(db(), n)).rejects.toThrow();
      // Nothing of the purchase either: still pending, no purchase row in the ledger, no lot (SmartPit's
      // nonce went with the rollback, so its retry is accepted once the fault is gone).
      const after = (await snapshotTables(api, ...BONUS_TABLES)) as Record<string, unknown>;
      expect(after).toEqual(before);
      expect(await books(member.id)).toEqual(same(100));
      const [row] = await db().select().from(purchaseTransactions).where(eq(purchaseTransactions.id, order.id));
      expect(row?.status).toBe("pending");
    } finally {
      await db().execute(sql.raw("drop trigger refuse_bonus_grant on purchase_bonus_grants"));
      await db().execute(sql.raw("drop function refuse_bonus_grant()"));
    }
    // Once the fault is gone the same confirmation credits both.
    expect(await api.caller(admin).adminPayments.confirm({ id: order.id })).toMatchObject({ bonusPoints: 500 });
    expect(await books(member.id)).toEqual(same(100 + 1000 + 500));
  });
});

describe("which time counts: the order's", () => {
  it("a campaign applies to orders placed from its start (included) until its end (excluded), whenever they are paid", async () => {
    const period = laterPeriod();
    await api.caller(admin).adminPayments.createCampaign({
      name: "週末キャンペーン",
      paymentMethod: null,
      ...period,
      ratePercent: 20,
    });
    const { startsAt, endsAt } = period;
    const cases: Array<[string, Date, number]> = [
      ["a millisecond before the start", new Date(startsAt.getTime() - 1), 0],
      ["exactly at the start", startsAt, 100],
      ["during, paid after the end", new Date(endsAt.getTime() - 1), 100],
      ["exactly at the end", endsAt, 0],
      ["after the end", new Date(endsAt.getTime() + 1000), 0],
    ];
    for (const [label, at, bonus] of cases) {
      const member = await api.createUser();
      const order = await api.caller(member).purchase.create({ amount: 1000, paymentMethod: "bank_transfer" });
      await placedAt(order.id, at);
      // Confirmed now, i.e. whenever: before the campaign's start in real time, or (the third) after its
      // end as far as the order is concerned. The order's time decides.
      const paid = await api.caller(admin).adminPayments.confirm({ id: order.id });
      expect({ label, bonus: paid.bonusPoints }).toEqual({ label, bonus });
      expect(await books(member.id)).toEqual(same(100 + 500 + bonus));
    }
  });

  it("a campaign limited to a method does not apply to another method", async () => {
    const period = laterPeriod();
    await api.caller(admin).adminPayments.createCampaign({
      name: "コンビニ払いキャンペーン",
      paymentMethod: "smart_pit",
      ...period,
      fixedPoints: 200,
    });
    const results: number[] = [];
    for (const method of ["smart_pit", "bank_transfer"] as const) {
      const member = await api.createUser();
      const order = await api.caller(member).purchase.create({ amount: 1000, paymentMethod: method });
      await placedAt(order.id, period.startsAt);
      results.push((await api.caller(admin).adminPayments.confirm({ id: order.id })).bonusPoints);
    }
    expect(results).toEqual([200, 0]);
  });

  it("tiers saved after an order was placed do not change its bonus; orders placed after get the new ones", async () => {
    const a = api.caller(admin);
    await a.adminPayments.saveBonusRules({ firstPurchase: null, tiers: [{ minAmount: 1000, fixedPoints: 50 }] });
    const member = await api.createUser();
    const early = await api.caller(member).purchase.create({ amount: 1000, paymentMethod: "bank_transfer" });
    await a.adminPayments.saveBonusRules({ firstPurchase: null, tiers: [{ minAmount: 1000, fixedPoints: 70 }] });
    const late = await api.caller(member).purchase.create({ amount: 1000, paymentMethod: "bank_transfer" });
    expect((await a.adminPayments.confirm({ id: late.id })).bonusPoints).toBe(70);
    expect((await a.adminPayments.confirm({ id: early.id })).bonusPoints).toBe(50);
    await a.adminPayments.saveBonusRules({ firstPurchase: null, tiers: [] });
    const none = await api.caller(member).purchase.create({ amount: 1000, paymentMethod: "bank_transfer" });
    expect((await a.adminPayments.confirm({ id: none.id })).bonusPoints).toBe(0);
    expect(await books(member.id)).toEqual(same(100 + 1500 + 120));
  });

  it("the first-purchase bonus goes to the first order paid, not the first placed", async () => {
    await api.caller(admin).adminPayments.saveBonusRules({ firstPurchase: { fixedPoints: 400 }, tiers: [] });
    const member = await api.createUser();
    const m = api.caller(member);
    const first = await m.purchase.create({ amount: 1000, paymentMethod: "bank_transfer" });
    const second = await m.purchase.create({ amount: 2000, paymentMethod: "bank_transfer" });
    expect((await api.caller(admin).adminPayments.confirm({ id: second.id })).bonusPoints).toBe(400);
    expect((await api.caller(admin).adminPayments.confirm({ id: first.id })).bonusPoints).toBe(0);
  });
});

describe("administrators' changes", () => {
  it("are refused with a Japanese message when retroactive, overlapping or malformed, the database unchanged", async () => {
    const a = api.caller(admin);
    const period = laterPeriod();
    await a.adminPayments.createCampaign({ name: "既存", paymentMethod: "smart_pit", ...period, ratePercent: 10 });
    const before = await snapshotTables(api, ...BONUS_TABLES);
    const refusals: Array<[() => Promise<unknown>, string]> = [
      [
        () =>
          a.adminPayments.createCampaign({
            name: "過去開始",
            paymentMethod: null,
            startsAt: new Date(Date.now() - 60_000),
            endsAt: new Date(Date.now() + 3_600_000),
            ratePercent: 10,
          }),
        MSG.campaignStartInPast,
      ],
      [
        () =>
          a.adminPayments.createCampaign({
            name: "逆転",
            paymentMethod: null,
            startsAt: period.endsAt,
            endsAt: period.startsAt,
            ratePercent: 10,
          }),
        MSG.campaignEndBeforeStart,
      ],
      [
        () =>
          a.adminPayments.createCampaign({
            name: "同時刻",
            paymentMethod: null,
            startsAt: period.startsAt,
            endsAt: period.startsAt,
            ratePercent: 10,
          }),
        MSG.campaignEndBeforeStart,
      ],
      [
        () =>
          a.adminPayments.createCampaign({
            name: "重複（同じ方法）",
            paymentMethod: "smart_pit",
            startsAt: new Date(period.endsAt.getTime() - 1),
            endsAt: new Date(period.endsAt.getTime() + 3_600_000),
            fixedPoints: 10,
          }),
        MSG.campaignOverlaps,
      ],
      [
        () =>
          a.adminPayments.createCampaign({
            name: "重複（すべての方法）",
            paymentMethod: null,
            startsAt: new Date(period.startsAt.getTime() + 60_000),
            endsAt: new Date(period.startsAt.getTime() + 120_000),
            fixedPoints: 10,
          }),
        MSG.campaignOverlaps,
      ],
      [
        () =>
          a.adminPayments.createCampaign({
            name: "両方",
            paymentMethod: null,
            ...laterPeriod(10 * 3_600_000),
            ratePercent: 10,
            fixedPoints: 10,
          }),
        MSG.bonusValueRequired,
      ],
      [
        () =>
          a.adminPayments.createCampaign({
            name: " ",
            paymentMethod: null,
            ...laterPeriod(10 * 3_600_000),
            ratePercent: 10,
          }),
        MSG.campaignNameRequired,
      ],
      [
        () =>
          a.adminPayments.createCampaign({
            name: "率が大きすぎる",
            paymentMethod: null,
            ...laterPeriod(10 * 3_600_000),
            ratePercent: 101,
          }),
        MSG.bonusRateInvalid,
      ],
      [
        () =>
          a.adminPayments.createCampaign({
            name: "日付",
            paymentMethod: null,
            startsAt: "2025-02-31T10:00" as unknown as Date,
            endsAt: laterPeriod().endsAt,
            ratePercent: 10,
          }),
        MSG.campaignStartInvalid,
      ],
      [
        () =>
          a.adminPayments.saveBonusRules({
            firstPurchase: null,
            tiers: [
              { minAmount: 5000, ratePercent: 10 },
              { minAmount: 5000, ratePercent: 20 },
            ],
          }),
        MSG.bonusTiersDuplicate,
      ],
      [() => a.adminPayments.saveBonusRules({ firstPurchase: {}, tiers: [] }), MSG.bonusValueRequired],
      [
        () => a.adminPayments.saveBonusRules({ firstPurchase: null, tiers: [{ minAmount: 0, fixedPoints: 5 }] }),
        MSG.bonusTierAmountInvalid,
      ],
    ];
    for (const [call, message] of refusals) {
      await expect(call()).rejects.toMatchObject({ code: "BAD_REQUEST", message });
    }
    expect(await snapshotTables(api, ...BONUS_TABLES)).toEqual(before);
  });

  it("accepts campaigns of other methods or periods that only touch; withdraws a scheduled one, ends a running one now, refuses an ended one", async () => {
    const a = api.caller(admin);
    const period = laterPeriod();
    await a.adminPayments.createCampaign({ name: "A", paymentMethod: "smart_pit", ...period, ratePercent: 10 });
    await a.adminPayments.createCampaign({ name: "B", paymentMethod: "bank_transfer", ...period, ratePercent: 10 });
    const next = { startsAt: period.endsAt, endsAt: new Date(period.endsAt.getTime() + 3_600_000) };
    const view = await a.adminPayments.createCampaign({ name: "C", paymentMethod: null, ...next, fixedPoints: 10 });
    // Newest start first (A and B start together).
    expect(view.campaigns[0]?.name).toBe("C");
    expect(view.campaigns.map((c) => [c.name, c.state]).sort()).toEqual([
      ["A", "scheduled"],
      ["B", "scheduled"],
      ["C", "scheduled"],
    ]);
    const c = view.campaigns.find((x) => x.name === "C");
    const afterWithdraw = await a.adminPayments.endCampaign({ id: c?.id ?? "" });
    expect(afterWithdraw.campaigns.map((x) => x.name).sort()).toEqual(["A", "B"]);

    // A running campaign (moved to have started: orders were placed under it) ends now, and keeps its row.
    const running = afterWithdraw.campaigns.find((x) => x.name === "A");
    await db()
      .update(purchaseBonusRules)
      .set({ startsAt: new Date(Date.now() - 3_600_000) })
      .where(eq(purchaseBonusRules.id, running?.id ?? ""));
    const ended = await a.adminPayments.endCampaign({ id: running?.id ?? "" });
    const endedA = ended.campaigns.find((x) => x.name === "A");
    expect(endedA?.state).toBe("ended");
    expect(Math.abs((endedA?.endsAt.getTime() ?? 0) - Date.now())).toBeLessThan(60_000);
    const before = await snapshotTables(api, ...BONUS_TABLES);
    await expect(a.adminPayments.endCampaign({ id: running?.id ?? "" })).rejects.toMatchObject({
      code: "CONFLICT",
      message: MSG.campaignAlreadyEnded,
    });
    await expect(a.adminPayments.endCampaign({ id: "00000000-0000-4000-8000-000000000000" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await snapshotTables(api, ...BONUS_TABLES)).toEqual(before);

    const audit = await db()
      .select({ action: adminAuditLog.action })
      .from(adminAuditLog)
      .where(sql`${adminAuditLog.action} like 'purchase_bonus.%'`);
    expect(audit.map((r) => r.action)).toEqual(
      expect.arrayContaining([
        "purchase_bonus.campaign_create",
        "purchase_bonus.campaign_withdraw",
        "purchase_bonus.campaign_end",
      ]),
    );
  });

  it("saving rules is audited before → after; members and the public cannot call the admin procedures", async () => {
    const a = api.caller(admin);
    await a.adminPayments.saveBonusRules({
      firstPurchase: { fixedPoints: 100 },
      tiers: [{ minAmount: 3000, ratePercent: 5 }],
    });
    const view = await a.adminPayments.saveBonusRules({
      firstPurchase: null,
      tiers: [{ minAmount: 5000, ratePercent: 7 }],
    });
    expect(view).toMatchObject({
      firstPurchase: null,
      tiers: [{ minAmount: 5000, ratePercent: 7, fixedPoints: null }],
    });
    expect(view.methods.map((m) => m.method)).toEqual(["bank_transfer", "smart_pit", "card"]);
    const [last] = await db()
      .select()
      .from(adminAuditLog)
      .where(eq(adminAuditLog.action, "purchase_bonus.rules_save"))
      .orderBy(sql`${adminAuditLog.createdAt} desc`)
      .limit(1);
    expect(last?.details).toEqual({
      before: {
        firstPurchase: { ratePercent: null, fixedPoints: 100 },
        tiers: [{ minAmount: 3000, ratePercent: 5, fixedPoints: null }],
      },
      after: { firstPurchase: null, tiers: [{ minAmount: 5000, ratePercent: 7, fixedPoints: null }] },
    });
    const member = await api.createUser();
    await expect(api.caller(member).adminPayments.bonusRules()).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      api.caller(null).purchase.bonusQuote({ amount: 1000, paymentMethod: "smart_pit" }),
    ).rejects.toMatchObject({
      code: "UNAUTHORIZED",
    });
  });

  it("legal.info states the rules in force and the announced campaigns, from the same rows", async () => {
    const a = api.caller(admin);
    await a.adminPayments.saveBonusRules({
      firstPurchase: { fixedPoints: 300 },
      tiers: [{ minAmount: 5000, ratePercent: 10 }],
    });
    const period = laterPeriod();
    await a.adminPayments.createCampaign({ name: "夏", paymentMethod: "smart_pit", ...period, fixedPoints: 100 });
    const info = await api.caller(null).legal.info();
    expect(info.bonuses).toMatchObject({
      firstPurchase: { kind: "first_purchase", fixedPoints: 300 },
      tiers: [{ minAmount: 5000, ratePercent: 10 }],
      campaigns: [
        { name: "夏", paymentMethod: "smart_pit", fixedPoints: 100, startsAt: period.startsAt, endsAt: period.endsAt },
      ],
      validityDays: FREE_POINT_VALIDITY_DAYS,
    });
    expect(JSON.stringify(info.bonuses)).not.toContain(admin.id);
  });
});

describe.runIf(onPostgres)("the first-purchase bonus under concurrency (PostgreSQL)", () => {
  it("of 6 orders of one member confirmed at once, by administrators and SmartPit, exactly one gets it", async () => {
    await api.caller(admin).adminPayments.saveBonusRules({ firstPurchase: { fixedPoints: 777 }, tiers: [] });
    const member = await api.createUser();
    const m = api.caller(member);
    const orders = [];
    for (let i = 0; i < 6; i++) orders.push(await m.purchase.create({ amount: 1000, paymentMethod: "smart_pit" }));
    const results = await Promise.allSettled(
      orders.map((o, i) =>
        i % 2 === 0
          ? api.caller(admin).adminPayments.confirm({ id: o.id })
          : handleSmartPitNotification(
              db(),
              simulateSmartPitPayment({
                apiKey: API_KEY,
                transactionId: o.transactionId,
                paymentCode: o.smartPit?.paymentCode ?? "",
                amount: 1000,
              }),
            ),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(6).fill("fulfilled"));
    const grants = await db().select().from(purchaseBonusGrants).where(eq(purchaseBonusGrants.userId, member.id));
    expect(grants.map((g) => [g.kind, g.points])).toEqual([["first_purchase", 777]]);
    expect(await books(member.id)).toEqual(same(100 + 6 * 500 + 777));
    const bonusOrders = await db()
      .select({ id: purchaseTransactions.id })
      .from(purchaseTransactions)
      .where(and(eq(purchaseTransactions.userId, member.id), sql`${purchaseTransactions.bonusPoints} > 0`));
    expect(bonusOrders).toEqual([{ id: grants[0]?.purchaseTransactionId }]);
  });
});
