import { adminAuditLog, pointLedger, pointLots, purchaseTransactions, users } from "@enmusubi/db";
import { onPostgres } from "@enmusubi/db/testing";
import { MSG, purchaseAboveMaximum, purchaseBelowMinimum } from "@enmusubi/shared";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createContextInner } from "../src/context";
import { simulateSmartPitPayment } from "../src/payments/providers/smart-pit-simulator";
import { PURCHASE_RATE_LIMIT } from "../src/payments/router";
import { pointsFor } from "../src/payments/settings";
import { handleSmartPitNotification } from "../src/payments/smart-pit-notification";
import { failExpiredSmartPit } from "../src/payments/transactions";
import { createCaller } from "../src/root";
import { createDatabaseRateLimiter } from "../src/security/rate-limit";
import { snapshotTables, type TestUser, useTestApi } from "./helpers";

/** The value, or a failed test when it is missing. */
function must<T>(value: T | null | undefined): T {
  if (value === null || value === undefined) throw new Error("expected a value");
  return value;
}

const api = useTestApi();
const API_KEY = "sk_test_VERY-SECRET-KEY-9876";
const SMARTPIT_ID = "SPID-445566";
let admin: TestUser;

beforeAll(async () => {
  admin = await api.createUser({ role: "admin" });
  await api.caller(admin).adminPayments.updateSmartPit({ smartPitId: SMARTPIT_ID, apiKey: API_KEY, isActive: true });
});

const balance = async (id: string) =>
  (await api.database.db.select({ points: users.points }).from(users).where(eq(users.id, id)))[0]?.points;

const TABLES = ["purchase_transactions", "point_ledger", "point_lots", "users", "payment_settings", "admin_audit_log"];

describe("purchase (member)", () => {
  it("computes the points on the server from the active rate, ignoring what the client sends", async () => {
    const member = await api.createUser();
    const tx = await api.caller(member).purchase.create({ amount: 3001, paymentMethod: "smart_pit", points: 999_999 });
    expect(tx).toMatchObject({ amount: 3001, points: 1500, status: "pending", paymentMethod: "smart_pit" });
    expect(tx.smartPit?.paymentCode).toMatch(/^\d{14}$/);
    expect(tx.smartPit?.barcodeValue).toContain(tx.smartPit?.paymentCode);
    expect(tx.bank).toBeNull();
    expect(await api.caller(member).purchase.quote({ amount: 3001 })).toEqual({ amount: 3001, points: 1500 });
    expect(pointsFor(10, { yenAmount: 3, pointAmount: 1 })).toBe(3);
    expect(pointsFor(9, { yenAmount: 3, pointAmount: 1 })).toBe(3);
    expect(await balance(member.id)).toBe(100); // nothing credited until paid
  });

  it("refuses amounts outside the limits or not a whole positive number, changing nothing", async () => {
    const member = await api.createUser();
    const before = await snapshotTables(api, ...TABLES);
    const caller = api.caller(member);
    await expect(caller.purchase.create({ amount: 999, paymentMethod: "smart_pit" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: purchaseBelowMinimum(1000),
    });
    await expect(caller.purchase.create({ amount: 100_001, paymentMethod: "smart_pit" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: purchaseAboveMaximum(100_000),
    });
    for (const amount of [0, -1000, 1000.5, Number.NaN, Number.POSITIVE_INFINITY, "1000" as unknown as number]) {
      await expect(caller.purchase.create({ amount, paymentMethod: "smart_pit" })).rejects.toMatchObject({
        code: "BAD_REQUEST",
        message: MSG.amountInvalid,
      });
    }
    await expect(caller.purchase.create({ amount: 1000, paymentMethod: "cash" as "smart_pit" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: MSG.paymentMethodInvalid,
    });
    // Bank transfer is off by default.
    await expect(caller.purchase.create({ amount: 1000, paymentMethod: "bank_transfer" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: MSG.paymentMethodUnavailable,
    });
    expect(await snapshotTables(api, ...TABLES)).toEqual(before);
  });

  it("never answers a member with the SmartPit API key or id", async () => {
    const member = await api.createUser();
    const caller = api.caller(member);
    await api.caller(admin).adminPayments.updateBank({
      bankName: "縁結び銀行",
      bankBranchName: "本店",
      bankAccountType: "普通",
      bankAccountNumber: "1234567",
      bankAccountName: "エンムスビ（カ",
      isActive: true,
    });
    const answers = [
      await caller.purchase.settings(),
      await caller.purchase.quote({ amount: 1000 }),
      await caller.purchase.create({ amount: 1000, paymentMethod: "smart_pit" }),
      await caller.purchase.create({ amount: 2000, paymentMethod: "bank_transfer" }),
      await caller.purchase.history({ page: 1 }),
      await api.caller(null).legal.info(),
      await api.caller(admin).adminPayments.getSettings(),
    ];
    const json = JSON.stringify(answers);
    expect(json).not.toContain(API_KEY);
    expect(json).not.toContain("SECRET");
    expect(JSON.stringify(answers.slice(0, 6))).not.toContain(SMARTPIT_ID);
    const bankTx = answers[3] as unknown as { bank: { transferName: string; bankName: string }; transactionId: string };
    expect(bankTx.bank).toMatchObject({ bankName: "縁結び銀行", transferName: bankTx.transactionId });
    expect(answers[0]).toMatchObject({
      exchange: { yenAmount: 1000, pointAmount: 500, isActive: true },
      minimumPurchase: 1000,
      maximumPurchase: 100000,
      methods: { smartPit: true, bankTransfer: true, card: false },
    });
    await api.caller(admin).adminPayments.updateBank({
      bankName: "縁結び銀行",
      bankBranchName: "本店",
      bankAccountType: "普通",
      bankAccountNumber: "1234567",
      bankAccountName: "エンムスビ（カ",
      isActive: false,
    });
  });

  it("history lists only the member's own transactions; another's is NOT_FOUND", async () => {
    const alice = await api.createUser();
    const bob = await api.createUser();
    const mine = await api.caller(alice).purchase.create({ amount: 1000, paymentMethod: "smart_pit" });
    await api.caller(bob).purchase.create({ amount: 5000, paymentMethod: "smart_pit" });
    const history = await api.caller(alice).purchase.history({ page: 1 });
    expect(history.transactions.map((t) => t.id)).toEqual([mine.id]);
    expect(history.pagination).toEqual({ currentPage: 1, totalPages: 1, total: 1 });
    await expect(api.caller(bob).purchase.get({ id: mine.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(api.caller(bob).purchase.get({ id: mine.transactionId })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await api.caller(alice).purchase.get({ id: mine.transactionId })).id).toBe(mine.id);
  });

  it("a member may place 20 orders an hour; the next is TOO_MANY_REQUESTS and creates nothing", async () => {
    const member = await api.createUser();
    const limited = createCaller(
      createContextInner({ ...api.deps, limiter: createDatabaseRateLimiter(api.database.db) }, member.session),
    );
    for (let i = 0; i < PURCHASE_RATE_LIMIT.max; i += 1) {
      await limited.purchase.create({ amount: 1000, paymentMethod: "smart_pit" });
    }
    const before = await snapshotTables(api, "purchase_transactions");
    await expect(limited.purchase.create({ amount: 1000, paymentMethod: "smart_pit" })).rejects.toMatchObject({
      code: "TOO_MANY_REQUESTS",
      message: MSG.tooManyRequests,
    });
    expect(await snapshotTables(api, "purchase_transactions")).toEqual(before);
  });

  it("roles: anonymous UNAUTHORIZED, an administrator cannot buy, a member cannot use admin procedures", async () => {
    const member = await api.createUser();
    await expect(api.caller(null).purchase.settings()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(api.caller(admin).purchase.create({ amount: 1000, paymentMethod: "smart_pit" })).rejects.toMatchObject(
      { code: "FORBIDDEN" },
    );
    const m = api.caller(member);
    const before = await snapshotTables(api, ...TABLES);
    for (const call of [
      () => m.adminPayments.list({ page: 1 }),
      () => m.adminPayments.getSettings(),
      () => m.adminPayments.confirm({ id: "TX-NONE" }),
      () => m.adminPayments.cancel({ id: "TX-NONE" }),
      () => m.adminPayments.sales({ granularity: "day" }),
      () => m.adminPayments.updateExchange({ yenAmount: 1, pointAmount: 1000, isActive: true }),
      () => m.adminPayments.updateGeneral({ minimumPurchase: 100, maximumPurchase: 1000, bankTransferBalance: 0 }),
      () => m.adminPayments.unusedBalanceReport({}),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: "FORBIDDEN" });
    }
    expect(await snapshotTables(api, ...TABLES)).toEqual(before);
  });
});

describe("adminPayments", () => {
  it("confirm credits once as a paid lot, records who confirmed; the second confirm is a 409 with nothing credited", async () => {
    const member = await api.createUser();
    const tx = await api.caller(member).purchase.create({ amount: 2000, paymentMethod: "smart_pit" });
    const paid = await api.caller(admin).adminPayments.confirm({ id: tx.id });
    expect(paid).toMatchObject({ status: "paid", confirmedVia: "admin" });
    expect(await balance(member.id)).toBe(1100);
    await expect(api.caller(admin).adminPayments.confirm({ id: tx.transactionId })).rejects.toMatchObject({
      code: "CONFLICT",
      message: MSG.transactionAlreadyConfirmed,
    });
    await expect(api.caller(admin).adminPayments.cancel({ id: tx.id })).rejects.toMatchObject({ code: "CONFLICT" });
    expect(await balance(member.id)).toBe(1100);
    const lots = await api.database.db
      .select()
      .from(pointLots)
      .where(and(eq(pointLots.userId, member.id), eq(pointLots.paid, true)));
    expect(lots.map((l) => [l.amount, l.yenAmount])).toEqual([[1000, 2000]]);
    const ledger = await api.database.db
      .select()
      .from(pointLedger)
      .where(and(eq(pointLedger.userId, member.id), eq(pointLedger.kind, "purchase")));
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ delta: 1000, actorId: admin.id, reference: tx.transactionId });
    const list = await api.caller(admin).adminPayments.list({ page: 1, status: "paid" });
    const row = list.transactions.find((t) => t.id === tx.id);
    expect(row?.confirmedBy).toEqual({ userID: admin.userID, name: expect.any(String) });
    expect(row?.user).toMatchObject({ id: member.id, userID: member.userID });
  });

  it("cancel works on pending rows only; a cancelled row cannot be confirmed", async () => {
    const member = await api.createUser();
    const tx = await api.caller(member).purchase.create({ amount: 1000, paymentMethod: "smart_pit" });
    expect(await api.caller(admin).adminPayments.cancel({ id: tx.id })).toMatchObject({ status: "cancelled" });
    await expect(api.caller(admin).adminPayments.confirm({ id: tx.id })).rejects.toMatchObject({
      code: "CONFLICT",
      message: MSG.transactionNotPending,
    });
    await expect(api.caller(admin).adminPayments.cancel({ id: tx.id })).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(api.caller(admin).adminPayments.confirm({ id: "TX00000000NOPE" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await balance(member.id)).toBe(100);
    const audits = await api.database.db
      .select({ action: adminAuditLog.action })
      .from(adminAuditLog)
      .where(eq(adminAuditLog.targetId, tx.id));
    expect(audits.map((a) => a.action)).toEqual(["payment.cancel"]);
  });

  it("lists with filters, 20 a page, and totals over the whole filter", async () => {
    const member = await api.createUser();
    for (let i = 0; i < 21; i += 1) {
      await api.caller(member).purchase.create({ amount: 1000 + i, paymentMethod: "smart_pit" });
    }
    await api.database.db
      .update(purchaseTransactions)
      .set({ createdAt: new Date("2024-01-15T03:00:00Z") })
      .where(eq(purchaseTransactions.userId, member.id));
    const first = await api
      .caller(admin)
      .adminPayments.list({ page: 1, startDate: "2024-01-15", endDate: "2024-01-15" });
    expect(first.transactions).toHaveLength(20);
    expect(first.pagination).toEqual({ currentPage: 1, totalPages: 2, total: 21 });
    expect(first.totals).toEqual({ count: 21, amount: 21 * 1000 + 210, points: 21 * 500 + 100 });
    const second = await api
      .caller(admin)
      .adminPayments.list({ page: 2, startDate: "2024-01-15", endDate: "2024-01-15" });
    expect(second.transactions).toHaveLength(1);
    const none = await api.caller(admin).adminPayments.list({ page: 1, startDate: "2024-01-16", method: "smart_pit" });
    expect(none.transactions.every((t) => t.user.id !== member.id)).toBe(true);
    const bank = await api.caller(admin).adminPayments.list({ page: 1, method: "bank_transfer", status: "pending" });
    expect(bank.transactions.every((t) => t.paymentMethod === "bank_transfer" && t.status === "pending")).toBe(true);
    await expect(
      api.caller(admin).adminPayments.list({ page: 1, startDate: "2024-02-01", endDate: "2024-01-01" }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", message: MSG.dateRangeInvalid });
  });

  it("totals stay equal to the transactions' own sums through create, confirm, cancel, expiry and a move across a JST midnight", async () => {
    const member = await api.createUser();
    const made = [];
    for (const amount of [1000, 2000, 3000, 4000, 5000]) {
      made.push(await api.caller(member).purchase.create({ amount, paymentMethod: "smart_pit" }));
    }
    const [a, b, c, d, e] = made.map(must);
    // Bank transfer is off in the test settings: two rows change method in the database instead.
    await api.database.db
      .update(purchaseTransactions)
      .set({ paymentMethod: "bank_transfer" })
      .where(sql`${purchaseTransactions.id} in (${must(b).id}, ${must(d).id})`);
    await api.caller(admin).adminPayments.confirm({ id: must(a).id });
    await api.caller(admin).adminPayments.cancel({ id: must(b).id });
    await api.database.db
      .update(purchaseTransactions)
      .set({ smartPitExpiresAt: sql`now() - interval '1 minute'` })
      .where(eq(purchaseTransactions.id, must(c).id));
    await failExpiredSmartPit(api.database.db);
    // 2024-03-09 23:59 and 2024-03-10 00:00 in Japan: two different days of the filter.
    await api.database.db
      .update(purchaseTransactions)
      .set({ createdAt: new Date("2024-03-09T14:59:00Z") })
      .where(eq(purchaseTransactions.id, must(d).id));
    await api.database.db
      .update(purchaseTransactions)
      .set({ createdAt: new Date("2024-03-09T15:00:00Z") })
      .where(eq(purchaseTransactions.id, must(e).id));
    const filters = [
      {},
      { status: "paid" as const },
      { status: "pending" as const, method: "smart_pit" as const },
      { status: "failed" as const },
      { method: "bank_transfer" as const },
      { startDate: "2024-03-09", endDate: "2024-03-09" },
      { startDate: "2024-03-10", endDate: "2024-03-10" },
      { startDate: "2024-03-10" },
      { endDate: "2024-03-09", method: "bank_transfer" as const },
    ];
    for (const filter of filters) {
      const where = [sql`true`];
      if (filter.status) where.push(sql`status = ${filter.status}`);
      if (filter.method) where.push(sql`payment_method = ${filter.method}`);
      if (filter.startDate) where.push(sql`created_at >= ${`${filter.startDate}T00:00:00+09:00`}::timestamptz`);
      if (filter.endDate)
        where.push(sql`created_at < ${`${filter.endDate}T00:00:00+09:00`}::timestamptz + interval '1 day'`);
      const result = (await api.database.db.execute(
        sql`select count(*)::int as count, coalesce(sum(amount), 0)::int as amount, coalesce(sum(points), 0)::int as points
            from purchase_transactions where ${sql.join(where, sql` and `)}`,
      )) as unknown;
      const [expected] = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{
        count: number;
        amount: number;
        points: number;
      }>;
      const listed = await api.caller(admin).adminPayments.list({ page: 1, ...filter });
      expect({ filter, totals: listed.totals }).toEqual({ filter, totals: expected });
      expect(listed.pagination.total).toBe(expected?.count);
    }
    const night = await api
      .caller(admin)
      .adminPayments.list({ page: 1, startDate: "2024-03-10", endDate: "2024-03-10" });
    expect(night.transactions.map((t) => t.id)).toContain(must(e).id);
    expect(night.transactions.map((t) => t.id)).not.toContain(must(d).id);
  });

  it("sales: paid only, by Japanese day and month", async () => {
    const member = await api.createUser();
    const ids: string[] = [];
    for (const amount of [1000, 3000, 5000, 7000]) {
      ids.push((await api.caller(member).purchase.create({ amount, paymentMethod: "smart_pit" })).id);
    }
    for (const id of ids.slice(0, 3)) await api.caller(admin).adminPayments.confirm({ id });
    const at = (id: string, iso: string) =>
      api.database.db
        .update(purchaseTransactions)
        .set({ confirmedAt: new Date(iso) })
        .where(eq(purchaseTransactions.id, id));
    await at(must(ids[0]), "2023-05-31T16:00:00Z"); // 2023-06-01 01:00 JST
    await at(must(ids[1]), "2023-06-01T10:00:00Z"); // 2023-06-01 19:00 JST
    await at(must(ids[2]), "2023-06-30T15:30:00Z"); // 2023-07-01 00:30 JST
    const days = await api
      .caller(admin)
      .adminPayments.sales({ granularity: "day", from: "2023-05-01", to: "2023-07-31" });
    expect(days).toEqual([
      { period: "2023-06-01", count: 2, amount: 4000, points: 2000 },
      { period: "2023-07-01", count: 1, amount: 5000, points: 2500 },
    ]);
    const months = await api
      .caller(admin)
      .adminPayments.sales({ granularity: "month", from: "2023-01-01", to: "2023-12-31" });
    expect(months).toEqual([
      { period: "2023-06", count: 2, amount: 4000, points: 2000 },
      { period: "2023-07", count: 1, amount: 5000, points: 2500 },
    ]);
  });

  it("settings: each section saved on its own with the §5 minimums, audited before → after, the key masked", async () => {
    const a = api.caller(admin);
    const before = await snapshotTables(api, "payment_settings", "admin_audit_log");
    const refused: Array<[() => Promise<unknown>, string]> = [
      [
        () => a.adminPayments.updateExchange({ yenAmount: 0, pointAmount: 500, isActive: true }),
        MSG.exchangeAmountInvalid,
      ],
      [
        () => a.adminPayments.updateGeneral({ minimumPurchase: 99, maximumPurchase: 100000, bankTransferBalance: 0 }),
        MSG.minimumPurchaseInvalid,
      ],
      [
        () => a.adminPayments.updateGeneral({ minimumPurchase: 1000, maximumPurchase: 999, bankTransferBalance: 0 }),
        MSG.maximumPurchaseInvalid,
      ],
      [
        () => a.adminPayments.updateGeneral({ minimumPurchase: 5000, maximumPurchase: 4000, bankTransferBalance: 0 }),
        MSG.purchaseLimitsOrder,
      ],
      [
        () =>
          a.adminPayments.updateGeneral({ minimumPurchase: 1000, maximumPurchase: 100000, bankTransferBalance: -1 }),
        MSG.bankBalanceInvalid,
      ],
      [
        () =>
          a.adminPayments.updateBank({
            bankName: "",
            bankBranchName: "",
            bankAccountType: "普通",
            bankAccountNumber: "",
            bankAccountName: "",
            isActive: true,
          }),
        MSG.bankDetailsRequired,
      ],
    ];
    for (const [call, message] of refused) await expect(call()).rejects.toMatchObject({ code: "BAD_REQUEST", message });
    expect(await snapshotTables(api, "payment_settings", "admin_audit_log")).toEqual(before);

    const saved = await a.adminPayments.updateExchange({ yenAmount: 1000, pointAmount: 600, isActive: true });
    expect(saved.exchange).toMatchObject({ yenAmount: 1000, pointAmount: 600, displayRate: "0.6000" });
    expect(saved.general).toEqual({ minimumPurchase: 1000, maximumPurchase: 100000, bankTransferBalance: 0 });
    const [audit] = await api.database.db
      .select({ details: adminAuditLog.details })
      .from(adminAuditLog)
      .where(eq(adminAuditLog.action, "payment_settings.exchange"))
      .orderBy(sql`${adminAuditLog.createdAt} desc`)
      .limit(1);
    expect(audit?.details).toMatchObject({
      before: { yenAmount: 1000, pointAmount: 500 },
      after: { yenAmount: 1000, pointAmount: 600 },
    });
    // An empty key keeps the stored one; the answer shows only its last 4 characters.
    const sp = await a.adminPayments.updateSmartPit({ smartPitId: SMARTPIT_ID, apiKey: "", isActive: true });
    expect(sp.smartPit).toMatchObject({ apiKeySet: true, smartPitId: SMARTPIT_ID });
    expect(sp.smartPit.apiKeyMasked.endsWith("9876")).toBe(true);
    expect(JSON.stringify(await a.adminPayments.getSettings())).not.toContain(API_KEY);
    const member = await api.createUser();
    expect((await api.caller(member).purchase.quote({ amount: 1000 })).points).toBe(600);
    await a.adminPayments.updateExchange({ yenAmount: 1000, pointAmount: 500, isActive: true });
  });
});

describe("SmartPit code validity", () => {
  it("an order whose code has expired becomes failed and cannot be confirmed by hand; a late store payment reinstates it", async () => {
    const member = await api.createUser();
    const tx = await api.caller(member).purchase.create({ amount: 1000, paymentMethod: "smart_pit" });
    const fresh = await api.caller(member).purchase.create({ amount: 1000, paymentMethod: "smart_pit" });
    expect(await failExpiredSmartPit(api.database.db)).toBe(0);
    await api.database.db
      .update(purchaseTransactions)
      .set({ smartPitExpiresAt: sql`now() - interval '1 minute'` })
      .where(eq(purchaseTransactions.id, tx.id));
    expect(await failExpiredSmartPit(api.database.db)).toBe(1);
    expect((await api.caller(member).purchase.get({ id: tx.id })).status).toBe("failed");
    expect((await api.caller(member).purchase.get({ id: fresh.id })).status).toBe("pending");
    const n = simulateSmartPitPayment({
      apiKey: API_KEY,
      transactionId: tx.transactionId,
      paymentCode: must(tx.smartPit).paymentCode,
      amount: 1000,
    });
    await expect(api.caller(admin).adminPayments.confirm({ id: tx.id })).rejects.toMatchObject({
      code: "CONFLICT",
      message: MSG.transactionNotPending,
    });
    expect(await balance(member.id)).toBe(100);
    // The money is never dropped (decision 0018): paid late, the order is reinstated and credited once.
    expect(await handleSmartPitNotification(api.database.db, n)).toMatchObject({ status: "paid" });
    expect(await balance(member.id)).toBe(600);
  });
});

describe("SmartPit notification", () => {
  async function pendingSmartPit() {
    const member = await api.createUser();
    const tx = await api.caller(member).purchase.create({ amount: 4000, paymentMethod: "smart_pit" });
    return { member, tx };
  }
  const notify = (rawBody: string, headers: Record<string, string>) =>
    handleSmartPitNotification(api.database.db, { rawBody, headers });

  it("a valid one confirms like an administrator would (confirmedBy none, via smartpit); its replay is refused", async () => {
    const { member, tx } = await pendingSmartPit();
    const n = simulateSmartPitPayment({
      apiKey: API_KEY,
      transactionId: tx.transactionId,
      paymentCode: must(tx.smartPit).paymentCode,
      amount: 4000,
    });
    expect(await notify(n.rawBody, n.headers)).toMatchObject({ status: "paid", confirmedVia: "smartpit" });
    expect(await balance(member.id)).toBe(2100);
    await expect(notify(n.rawBody, n.headers)).rejects.toMatchObject({
      code: "CONFLICT",
      message: MSG.notificationReplayed,
    });
    expect(await balance(member.id)).toBe(2100);
    const [row] = await api.database.db.select().from(purchaseTransactions).where(eq(purchaseTransactions.id, tx.id));
    expect(row).toMatchObject({ confirmedById: null, confirmedVia: "smartpit", status: "paid" });
  });

  it("forged, stale, unknown or wrong-amount notifications change nothing", async () => {
    const { member, tx } = await pendingSmartPit();
    const base = { transactionId: tx.transactionId, paymentCode: must(tx.smartPit).paymentCode, amount: 4000 };
    const before = await snapshotTables(api, ...TABLES);
    const forged = simulateSmartPitPayment({ ...base, apiKey: "not-the-key" });
    await expect(notify(forged.rawBody, forged.headers)).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    const good = simulateSmartPitPayment({ ...base, apiKey: API_KEY });
    const tampered = good.rawBody.replace("4000", "40000");
    await expect(notify(tampered, good.headers)).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    const stale = simulateSmartPitPayment({
      ...base,
      apiKey: API_KEY,
      timestamp: Math.floor(Date.now() / 1000) - 3600,
    });
    await expect(notify(stale.rawBody, stale.headers)).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(notify(good.rawBody, {})).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    const unknown = simulateSmartPitPayment({ ...base, apiKey: API_KEY, transactionId: "TX20990101ZZZZZZZZ" });
    await expect(notify(unknown.rawBody, unknown.headers)).rejects.toMatchObject({ code: "NOT_FOUND" });
    const wrongCode = simulateSmartPitPayment({ ...base, apiKey: API_KEY, paymentCode: "00000000000000" });
    await expect(notify(wrongCode.rawBody, wrongCode.headers)).rejects.toMatchObject({ code: "NOT_FOUND" });
    const wrongAmount = simulateSmartPitPayment({ ...base, apiKey: API_KEY, amount: 400 });
    await expect(notify(wrongAmount.rawBody, wrongAmount.headers)).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: MSG.notificationAmountMismatch,
    });
    expect(await snapshotTables(api, ...TABLES)).toEqual(before);
    expect(await balance(member.id)).toBe(100);
  });
});

describe.runIf(onPostgres)("confirm under concurrency (PostgreSQL)", () => {
  it("10 concurrent confirms credit once; the other nine are CONFLICT", async () => {
    const member = await api.createUser();
    const tx = await api.caller(member).purchase.create({ amount: 10000, paymentMethod: "smart_pit" });
    const n = simulateSmartPitPayment({
      apiKey: API_KEY,
      transactionId: tx.transactionId,
      paymentCode: must(tx.smartPit).paymentCode,
      amount: 10000,
    });
    const results = await Promise.allSettled([
      ...Array.from({ length: 9 }, () => api.caller(admin).adminPayments.confirm({ id: tx.id })),
      handleSmartPitNotification(api.database.db, { rawBody: n.rawBody, headers: n.headers }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results) {
      if (r.status === "rejected") expect(r.reason).toMatchObject({ code: "CONFLICT" });
    }
    expect(await balance(member.id)).toBe(5100);
    const rows = await api.database.db
      .select()
      .from(pointLedger)
      .where(and(eq(pointLedger.userId, member.id), eq(pointLedger.kind, "purchase")));
    expect(rows).toHaveLength(1);
  });
});
