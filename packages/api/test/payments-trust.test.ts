import {
  adminAuditLog,
  paymentNotifications,
  paymentSettings,
  pointLedger,
  purchaseTransactions,
  users,
} from "@enmusubi/db";
import { onPostgres } from "@enmusubi/db/testing";
import { MSG, POINT_BALANCE_CEILING } from "@enmusubi/shared";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { pruneRefusedNotifications } from "../src/payments/notifications";
import { simulateSmartPitPayment } from "../src/payments/providers/smart-pit-simulator";
import { handleSmartPitNotification } from "../src/payments/smart-pit-notification";
import { failExpiredSmartPit } from "../src/payments/transactions";
import { snapshotTables, type TestUser, useTestApi } from "./helpers";

/*
 * Payments a client can trust (decision 0018): a payment is never dropped, a method is offered only when it can
 * work, no balance overflows, settings save as patches under the row lock, the confirm answer says
 * who confirmed.
 */

const api = useTestApi();
const API_KEY = "sk_trust_SECRET-KEY-1234";
const TABLES = ["purchase_transactions", "point_ledger", "point_lots", "users", "payment_settings", "admin_audit_log"];

function must<T>(value: T | null | undefined): T {
  if (value === null || value === undefined) throw new Error("expected a value");
  return value;
}

const balance = async (id: string) =>
  (await api.database.db.select({ points: users.points }).from(users).where(eq(users.id, id)))[0]?.points;
const ledgerSum = async (id: string) =>
  Number(
    (
      await api.database.db
        .select({ sum: sql<string>`coalesce(sum(${pointLedger.delta}), 0)` })
        .from(pointLedger)
        .where(and(eq(pointLedger.userId, id), eq(pointLedger.account, "points")))
    )[0]?.sum,
  );
const purchaseRows = (userId: string) =>
  api.database.db
    .select()
    .from(pointLedger)
    .where(and(eq(pointLedger.userId, userId), eq(pointLedger.kind, "purchase")));
const notificationsFor = (transactionRef: string) =>
  api.database.db.select().from(paymentNotifications).where(eq(paymentNotifications.transactionRef, transactionRef));

async function pay(tx: { transactionId: string; amount: number; smartPit: { paymentCode: string } | null }) {
  const n = simulateSmartPitPayment({
    apiKey: API_KEY,
    transactionId: tx.transactionId,
    paymentCode: must(tx.smartPit).paymentCode,
    amount: tx.amount,
  });
  return handleSmartPitNotification(api.database.db, n);
}

let admin: TestUser;

describe("a payment method is offered only when configured completely", () => {
  it("SmartPit switched on without id and key is not offered, and an order for it is refused, writing nothing", async () => {
    admin = await api.createUser({ role: "admin" });
    const member = await api.createUser();
    const settings = await api.caller(admin).adminPayments.getSettings();
    expect(settings.smartPit).toMatchObject({ isActive: true, usable: false, missing: ["SmartPit ID", "APIキー"] });
    expect(settings.bank).toMatchObject({ usable: false });
    expect((await api.caller(member).purchase.settings()).methods).toEqual({
      smartPit: false,
      bankTransfer: false,
      card: false,
    });
    expect((await api.caller(null).legal.info()).methods).toEqual({
      smartPit: false,
      bankTransfer: false,
      card: false,
    });
    const before = await snapshotTables(api, ...TABLES);
    await expect(
      api.caller(member).purchase.create({ amount: 1000, paymentMethod: "smart_pit" }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", message: MSG.paymentMethodUnavailable });
    expect(await snapshotTables(api, ...TABLES)).toEqual(before);

    // A bank switched on in the database with a field missing (an older row) is not offered either.
    await api.database.db
      .update(paymentSettings)
      .set({
        bankIsActive: true,
        bankName: "縁結び銀行",
        bankBranchName: "本店",
        bankAccountNumber: "",
        bankAccountName: "エンムスビ",
      })
      .where(eq(paymentSettings.id, 1));
    expect((await api.caller(member).purchase.settings()).methods.bankTransfer).toBe(false);
    expect((await api.caller(member).purchase.settings()).bank).toBeNull();
    expect((await api.caller(admin).adminPayments.getSettings()).bank).toMatchObject({
      isActive: true,
      usable: false,
      missing: ["口座番号"],
    });
    await expect(
      api.caller(member).purchase.create({ amount: 1000, paymentMethod: "bank_transfer" }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", message: MSG.paymentMethodUnavailable });
    await api.database.db.update(paymentSettings).set({ bankIsActive: false }).where(eq(paymentSettings.id, 1));

    await api.caller(admin).adminPayments.updateSmartPit({ smartPitId: "SP-1", apiKey: API_KEY, isActive: true });
    expect((await api.caller(admin).adminPayments.getSettings()).smartPit).toMatchObject({ usable: true, missing: [] });
    expect((await api.caller(member).purchase.settings()).methods.smartPit).toBe(true);
    expect(
      (await api.caller(member).purchase.create({ amount: 1000, paymentMethod: "smart_pit" })).smartPit,
    ).not.toBeNull();
  });
});

describe("a cancelled or expired SmartPit order", () => {
  it("cancelling withdraws the payment code and barcode from the member's answers", async () => {
    const member = await api.createUser();
    const tx = await api.caller(member).purchase.create({ amount: 1000, paymentMethod: "smart_pit" });
    await api.caller(admin).adminPayments.cancel({ id: tx.id });
    const history = await api.caller(member).purchase.history({ page: 1 });
    expect(history.transactions.find((t) => t.id === tx.id)).toMatchObject({ status: "cancelled", smartPit: null });
    expect(await api.caller(member).purchase.get({ id: tx.id })).toMatchObject({ smartPit: null });
    expect(JSON.stringify(history)).not.toContain(must(tx.smartPit).paymentCode);
  });

  it("money arriving after cancel is credited once (the order reinstated as paid) and the notification stored", async () => {
    const member = await api.createUser();
    const tx = await api.caller(member).purchase.create({ amount: 2000, paymentMethod: "smart_pit" });
    await api.caller(admin).adminPayments.cancel({ id: tx.id });
    const answer = await pay(tx);
    expect(answer).toMatchObject({ status: "paid", confirmedVia: "smartpit" });
    expect(await balance(member.id)).toBe(1100);
    expect(await purchaseRows(member.id)).toHaveLength(1);
    const [row] = await api.database.db.select().from(purchaseTransactions).where(eq(purchaseTransactions.id, tx.id));
    expect(row?.reinstatedAt).toBeInstanceOf(Date);
    expect(row?.cancelledAt).toBeInstanceOf(Date);
    const stored = await notificationsFor(tx.transactionId);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ outcome: "reinstated", amount: 2000, purchaseTransactionId: tx.id });
    expect(JSON.stringify(stored)).not.toContain(API_KEY);
    // Paid again (a second notification for the same order): a duplicate, stored, nothing credited.
    await expect(pay(tx)).rejects.toMatchObject({ code: "CONFLICT" });
    expect(await balance(member.id)).toBe(1100);
    expect((await notificationsFor(tx.transactionId)).map((n) => n.outcome).sort()).toEqual([
      "duplicate",
      "reinstated",
    ]);
    expect(await ledgerSum(member.id)).toBe(await balance(member.id));
  });

  it("money for an expired order of a member who has left is listed to settle; an administrator marks it refunded, audited", async () => {
    const member = await api.createUser();
    const tx = await api.caller(member).purchase.create({ amount: 3000, paymentMethod: "smart_pit" });
    await api.database.db
      .update(purchaseTransactions)
      .set({ smartPitExpiresAt: sql`now() - interval '1 minute'` })
      .where(eq(purchaseTransactions.id, tx.id));
    await failExpiredSmartPit(api.database.db);
    await api.database.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, member.id));
    const answer = await pay(tx);
    expect(answer.status).toBe("failed");
    expect(await balance(member.id)).toBe(100);
    const [stored] = await notificationsFor(tx.transactionId);
    expect(stored).toMatchObject({ outcome: "unsettled", reason: "account_closed", resolution: null });

    const open = await api.caller(admin).adminPayments.notifications({ page: 1, view: "open" });
    const listed = open.notifications.find((n) => n.id === stored?.id);
    expect(listed).toMatchObject({
      outcome: "unsettled",
      reason: "account_closed",
      amount: 3000,
      transaction: { transactionId: tx.transactionId, status: "failed", user: { userID: member.userID } },
    });
    const member2 = await api.createUser();
    await expect(
      api.caller(member2).adminPayments.resolveNotification({ id: must(stored).id, resolution: "refunded" }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    const resolved = await api
      .caller(admin)
      .adminPayments.resolveNotification({ id: must(stored).id, resolution: "refunded", note: "口座へ返金済み" });
    expect(resolved).toMatchObject({
      resolution: "refunded",
      resolutionNote: "口座へ返金済み",
      resolvedBy: { userID: admin.userID },
    });
    const before = await snapshotTables(api, "payment_notifications", "admin_audit_log");
    await expect(
      api.caller(admin).adminPayments.resolveNotification({ id: must(stored).id, resolution: "settled" }),
    ).rejects.toMatchObject({ code: "CONFLICT", message: MSG.notificationAlreadyResolved });
    expect(await snapshotTables(api, "payment_notifications", "admin_audit_log")).toEqual(before);
    const audits = await api.database.db
      .select()
      .from(adminAuditLog)
      .where(eq(adminAuditLog.action, "payment.notification_resolve"));
    expect(audits.at(-1)).toMatchObject({ adminId: admin.id, targetId: stored?.id });
    const after = await api.caller(admin).adminPayments.notifications({ page: 1, view: "open" });
    expect(after.notifications.map((n) => n.id)).not.toContain(stored?.id);
    await api.database.db.update(users).set({ deletedAt: null }).where(eq(users.id, member.id));
  });

  it("forged notifications from one client are stored up to its allowance, then refused without a record", async () => {
    const { createDatabaseRateLimiter, RATE_LIMITS } = await import("../src/security/rate-limit");
    const { createCaller } = await import("../src/root");
    const { createContextInner } = await import("../src/context");
    const caller = createCaller(
      createContextInner({ ...api.deps, limiter: createDatabaseRateLimiter(api.database.db) }, null, "198.51.100.9"),
    );
    const member = await api.createUser();
    const tx = await api.caller(member).purchase.create({ amount: 1000, paymentMethod: "smart_pit" });
    const forged = () =>
      simulateSmartPitPayment({
        apiKey: "guess",
        transactionId: tx.transactionId,
        paymentCode: must(tx.smartPit).paymentCode,
        amount: 1000,
      });
    const max = RATE_LIMITS.forgedNotificationsPerIp.max;
    for (let i = 0; i < max + 5; i++) {
      await expect(caller.purchase.smartPitNotify(forged())).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    }
    expect(await notificationsFor(tx.transactionId)).toHaveLength(max);
    // A signed payment from the same client is never limited.
    await expect(
      caller.purchase.smartPitNotify(
        simulateSmartPitPayment({
          apiKey: API_KEY,
          transactionId: tx.transactionId,
          paymentCode: must(tx.smartPit).paymentCode,
          amount: 1000,
        }),
      ),
    ).resolves.toMatchObject({ status: "paid" });
    expect((await notificationsFor(tx.transactionId)).filter((n) => n.outcome === "credited")).toHaveLength(1);
  });

  it("every notification is stored with its outcome, forged and unknown ones too, without the signature", async () => {
    const member = await api.createUser();
    const tx = await api.caller(member).purchase.create({ amount: 4000, paymentMethod: "smart_pit" });
    const base = { transactionId: tx.transactionId, paymentCode: must(tx.smartPit).paymentCode, amount: 4000 };
    const forged = simulateSmartPitPayment({ ...base, apiKey: "guess" });
    await expect(handleSmartPitNotification(api.database.db, forged)).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    const wrong = simulateSmartPitPayment({ ...base, apiKey: API_KEY, amount: 40 });
    await expect(handleSmartPitNotification(api.database.db, wrong)).rejects.toMatchObject({ code: "BAD_REQUEST" });
    const unknown = simulateSmartPitPayment({ ...base, apiKey: API_KEY, paymentCode: "00000000000000" });
    await expect(handleSmartPitNotification(api.database.db, unknown)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await pay(tx);
    // Text PostgreSQL cannot store (NUL, a lone surrogate) in a forged call is recorded, not a 500.
    const odd = `{"transactionId":"NUL\\u0000\\ud800","paidAt":"\\u0000"}`;
    await expect(
      handleSmartPitNotification(api.database.db, { rawBody: odd, headers: { "x-smartpit-nonce": "\u0000\ud800" } }),
    ).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    expect(await notificationsFor("NUL\uFFFD\uFFFD")).toMatchObject([{ outcome: "refused_signature" }]);
    const stored = await notificationsFor(tx.transactionId);
    expect(stored.map((n) => n.outcome).sort()).toEqual([
      "credited",
      "refused_amount",
      "refused_signature",
      "refused_unknown",
    ]);
    const json = JSON.stringify(stored);
    expect(json).not.toContain(forged.headers["x-smartpit-signature"]);
    expect(json).not.toContain(API_KEY);
    expect(await balance(member.id)).toBe(2100);

    // After 90 days the records of refusals go; the record of the money stays.
    await api.database.db
      .update(paymentNotifications)
      .set({ receivedAt: sql`now() - interval '91 days'` })
      .where(eq(paymentNotifications.transactionRef, tx.transactionId));
    expect(await pruneRefusedNotifications(api.database.db)).toBeGreaterThanOrEqual(3);
    expect((await notificationsFor(tx.transactionId)).map((n) => n.outcome)).toEqual(["credited"]);
  });
});

describe("points never overflow", () => {
  it("settings whose largest order would buy more than 100,000,000 points are refused, changing nothing", async () => {
    const a = api.caller(admin);
    let before = await snapshotTables(api, "payment_settings", "admin_audit_log");
    await expect(
      a.adminPayments.updateExchange({ yenAmount: 1, pointAmount: 100_000, isActive: true }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", message: MSG.exchangeBoundExceeded });
    expect(await snapshotTables(api, "payment_settings", "admin_audit_log")).toEqual(before);
    // 100,000,000 yen at 1,000 yen = 500 points buys 50,000,000 points: within the bound.
    await a.adminPayments.updateGeneral({
      minimumPurchase: 1000,
      maximumPurchase: 100_000_000,
      bankTransferBalance: 0,
    });
    before = await snapshotTables(api, "payment_settings", "admin_audit_log");
    await expect(
      a.adminPayments.updateExchange({ yenAmount: 1, pointAmount: 2, isActive: true }),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: MSG.exchangeBoundExceeded,
    });
    await expect(a.adminPayments.saveSettings({ exchange: { yenAmount: 1 } })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: MSG.exchangeBoundExceeded,
    });
    expect(await snapshotTables(api, "payment_settings", "admin_audit_log")).toEqual(before);
    await a.adminPayments.updateGeneral({ minimumPurchase: 1000, maximumPurchase: 100_000, bankTransferBalance: 0 });
  });

  it("an order under a stored rate of 1 yen = 100,000 points is refused (400), not a 500, writing nothing", async () => {
    const member = await api.createUser();
    await api.database.db
      .update(paymentSettings)
      .set({ exchangeYenAmount: 1, exchangePointAmount: 100_000 })
      .where(eq(paymentSettings.id, 1));
    const before = await snapshotTables(api, ...TABLES);
    await expect(
      api.caller(member).purchase.create({ amount: 100_000, paymentMethod: "smart_pit" }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", message: MSG.orderPointsTooLarge });
    expect(await snapshotTables(api, ...TABLES)).toEqual(before);
    await api.database.db
      .update(paymentSettings)
      .set({ exchangeYenAmount: 1000, exchangePointAmount: 500 })
      .where(eq(paymentSettings.id, 1));
  });

  it("an order that would take balance plus pending orders past the ceiling is refused when placed", async () => {
    const member = await api.createUser();
    await api.database.db
      .update(users)
      .set({ points: POINT_BALANCE_CEILING - 1000 })
      .where(eq(users.id, member.id));
    const c = api.caller(member);
    await c.purchase.create({ amount: 1000, paymentMethod: "smart_pit" });
    await c.purchase.create({ amount: 1000, paymentMethod: "smart_pit" }); // exactly at the ceiling
    const before = await snapshotTables(api, ...TABLES);
    await expect(c.purchase.create({ amount: 1000, paymentMethod: "smart_pit" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: MSG.pointCeilingExceeded,
    });
    expect(await snapshotTables(api, ...TABLES)).toEqual(before);
  });

  it("a confirmation past 2,147,483,647 is refused with a message (409), not a 500; SmartPit's money for it is listed", async () => {
    const member = await api.createUser();
    const first = await api.caller(member).purchase.create({ amount: 1000, paymentMethod: "smart_pit" });
    const second = await api.caller(member).purchase.create({ amount: 2000, paymentMethod: "smart_pit" });
    await api.database.db.update(users).set({ points: 2_147_483_600 }).where(eq(users.id, member.id));
    const before = await snapshotTables(api, ...TABLES);
    await expect(api.caller(admin).adminPayments.confirm({ id: first.id })).rejects.toMatchObject({
      code: "CONFLICT",
      message: MSG.creditWouldOverflow,
    });
    expect(await snapshotTables(api, ...TABLES)).toEqual(before);
    const answer = await pay(second);
    expect(answer.status).toBe("failed");
    expect(await balance(member.id)).toBe(2_147_483_600);
    const [stored] = await notificationsFor(second.transactionId);
    expect(stored).toMatchObject({ outcome: "unsettled", reason: "overflow" });
    // The order can no longer be confirmed by hand: its money is the listed one.
    await expect(api.caller(admin).adminPayments.confirm({ id: second.id })).rejects.toMatchObject({
      code: "CONFLICT",
    });
  });
});

describe("settings and the confirm answer", () => {
  it("a patch keeps every field it does not name; the API key's mask sent back keeps the key", async () => {
    const a = api.caller(admin);
    const start = await a.adminPayments.getSettings();
    const saved = await a.adminPayments.saveSettings({
      general: { minimumPurchase: 2000 },
      smartPit: { apiKey: start.smartPit.apiKeyMasked, smartPitId: "SP-2" },
    });
    expect(saved.general).toEqual({ ...start.general, minimumPurchase: 2000 });
    expect(saved.smartPit).toMatchObject({ smartPitId: "SP-2", apiKeyMasked: start.smartPit.apiKeyMasked });
    const [row] = await api.database.db.select().from(paymentSettings);
    expect(row?.smartPitApiKey).toBe(API_KEY);
    await a.adminPayments.saveSettings({ general: { minimumPurchase: 1000 }, smartPit: { smartPitId: "SP-1" } });
  });

  it("the confirm answer carries confirmedBy", async () => {
    const member = await api.createUser();
    const tx = await api.caller(member).purchase.create({ amount: 1000, paymentMethod: "smart_pit" });
    const paid = await api.caller(admin).adminPayments.confirm({ id: tx.id });
    expect(paid.confirmedBy).toEqual({ userID: admin.userID, name: expect.anything() });
  });

  it("the unused-balance CSV comes from one procedure", async () => {
    const csv = await api.caller(admin).adminPayments.unusedBalanceCsv({});
    expect(csv.startsWith("\uFEFF基準日,")).toBe(true);
  });
});

describe.runIf(onPostgres)("cancel racing a store payment (PostgreSQL)", () => {
  it("ends in one consistent state: paid and credited once, or cancelled with the money listed; never lost or doubled", async () => {
    const outcomes = new Set<string>();
    for (let round = 0; round < 12; round += 1) {
      const member = await api.createUser();
      const closed = round % 2 === 1;
      const tx = await api.caller(member).purchase.create({ amount: 1000, paymentMethod: "smart_pit" });
      if (closed) await api.database.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, member.id));
      const [cancel, notify] = await Promise.allSettled([
        api.caller(admin).adminPayments.cancel({ id: tx.id }),
        pay(tx),
      ]);
      const [row] = await api.database.db.select().from(purchaseTransactions).where(eq(purchaseTransactions.id, tx.id));
      const stored = await notificationsFor(tx.transactionId);
      expect(stored).toHaveLength(1);
      const credits = await purchaseRows(member.id);
      outcomes.add(`${row?.status}/${stored[0]?.outcome}`);
      expect(notify.status).toBe("fulfilled");
      if (row?.status === "paid") {
        expect(credits).toHaveLength(1);
        expect(["credited", "reinstated"]).toContain(stored[0]?.outcome);
      } else {
        expect(row?.status).toBe("cancelled");
        expect(cancel.status).toBe("fulfilled");
        expect(credits).toHaveLength(0);
        expect(stored[0]).toMatchObject({ outcome: "unsettled", reason: "account_closed" });
      }
      expect(await ledgerSum(member.id)).toBe(await balance(member.id));
    }
    expect(outcomes.size).toBeGreaterThan(0);
  });

  it("concurrent patches of different sections and fields all persist", async () => {
    const a = api.caller(admin);
    await Promise.all([
      a.adminPayments.saveSettings({ general: { minimumPurchase: 1500 } }),
      a.adminPayments.saveSettings({ general: { maximumPurchase: 90_000 } }),
      a.adminPayments.saveSettings({ smartPit: { smartPitId: "SP-9" } }),
      a.adminPayments.saveSettings({ exchange: { pointAmount: 600 } }),
    ]);
    const s = await a.adminPayments.getSettings();
    expect(s.general).toMatchObject({ minimumPurchase: 1500, maximumPurchase: 90_000 });
    expect(s.smartPit.smartPitId).toBe("SP-9");
    expect(s.exchange.pointAmount).toBe(600);
  });
});
