import {
  idVerifications,
  paymentNotifications,
  pointLedger,
  pointLots,
  purchaseTransactions,
  users,
} from "@enmusubi/db";
import { onPostgres } from "@enmusubi/db/testing";
import { MSG } from "@enmusubi/shared";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { handleCardNotification } from "../src/payments/card-notification";
import { CARD_HEADERS, verifyCardRequest } from "../src/payments/providers/card";
import { simulateCardNotification } from "../src/payments/providers/card-simulator";
import { failExpiredCardOrders } from "../src/payments/transactions";
import { setBalance } from "../src/points/ledger";
import { snapshotTables, type TestUser, useTestApi } from "./helpers";

/*
 * Card payment, credited at once (decision 0046): the processor's signed notification credits the
 * order through the one purchase-credit path, once; declines, cancelled orders and duplicates are
 * handled as SmartPit's are (decision 0018); a refund takes the points back through the ledger when
 * they are still there, and is listed for the administrators otherwise; a first card payment may
 * count as the age check.
 */

const api = useTestApi();
const SECRET = "card_secret_TEST-0123456789";
const PAYMENT_URL = "https://pay.example-card.jp/checkout";
const MONEY = ["purchase_transactions", "point_ledger", "point_lots", "point_lot_usages", "users", "id_verifications"];

const db = () => api.database.db;
const balance = async (id: string) =>
  (await db().select({ p: users.points }).from(users).where(eq(users.id, id)))[0]?.p;
const ledgerSum = async (id: string) =>
  Number(
    (
      await db()
        .select({ s: sql<string>`coalesce(sum(${pointLedger.delta}), 0)` })
        .from(pointLedger)
        .where(and(eq(pointLedger.userId, id), eq(pointLedger.account, "points")))
    )[0]?.s,
  );
const lotsSum = async (id: string) =>
  Number(
    (
      await db()
        .select({ s: sql<string>`coalesce(sum(${pointLots.remaining}), 0)` })
        .from(pointLots)
        .where(eq(pointLots.userId, id))
    )[0]?.s,
  );
/** balance = ledger sum = lots, the books of decision 0008. */
async function booksAgree(id: string): Promise<number> {
  const b = await balance(id);
  expect(await ledgerSum(id)).toBe(b);
  expect(await lotsSum(id)).toBe(b);
  return b ?? 0;
}
const kinds = async (id: string, kind: "purchase" | "purchase_reversal") =>
  db()
    .select()
    .from(pointLedger)
    .where(and(eq(pointLedger.userId, id), eq(pointLedger.kind, kind)));
const notificationsFor = (ref: string) =>
  db().select().from(paymentNotifications).where(eq(paymentNotifications.transactionRef, ref));
const order = async (id: string) =>
  (await db().select().from(purchaseTransactions).where(eq(purchaseTransactions.id, id)))[0];

function notify(
  tx: { transactionId: string; amount: number },
  event: "payment.captured" | "payment.failed" | "refund.completed" = "payment.captured",
  options: { nonce?: string; secret?: string; onCredited?: (userId: string) => void } = {},
) {
  const n = simulateCardNotification({
    secret: options.secret ?? SECRET,
    event,
    transactionId: tx.transactionId,
    amount: tx.amount,
    nonce: options.nonce,
  });
  return handleCardNotification(db(), { ...n, onCredited: options.onCredited });
}

let admin: TestUser;

async function configureCard(extra: { ageVerification?: boolean } = {}) {
  return api.caller(admin).adminPayments.updateCard({
    merchantId: "M-000123",
    secret: SECRET,
    paymentUrl: PAYMENT_URL,
    isActive: true,
    ageVerification: extra.ageVerification ?? false,
  });
}

describe("the card is offered only when configured completely", () => {
  it("off and unconfigured at first, it is not offered, and an order is refused, writing nothing", async () => {
    admin = await api.createUser({ role: "admin" });
    const member = await api.createUser();
    const settings = await api.caller(admin).adminPayments.getSettings();
    expect(settings.card).toMatchObject({
      isActive: false,
      usable: false,
      missing: ["加盟店ID", "シークレットキー", "決済ページURL"],
    });
    expect((await api.caller(member).purchase.settings()).methods.card).toBe(false);
    expect((await api.caller(null).legal.info()).methods.card).toBe(false);
    const before = await snapshotTables(api, ...MONEY);
    await expect(api.caller(member).purchase.create({ amount: 1000, paymentMethod: "card" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: MSG.paymentMethodUnavailable,
    });
    expect(await snapshotTables(api, ...MONEY)).toEqual(before);
  });

  it("a page that is not an http(s) URL, or switching on without a secret, is refused with a message, changing nothing", async () => {
    const before = await snapshotTables(api, "payment_settings", "admin_audit_log");
    await expect(
      api.caller(admin).adminPayments.saveSettings({ card: { paymentUrl: "javascript:alert(1)" } }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", message: MSG.cardUrlInvalid });
    await expect(
      api.caller(admin).adminPayments.updateCard({
        merchantId: "M-1",
        paymentUrl: PAYMENT_URL,
        isActive: true,
        ageVerification: false,
      }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", message: MSG.cardSettingsRequired });
    expect(await snapshotTables(api, "payment_settings", "admin_audit_log")).toEqual(before);
  });

  it("once complete it is offered to members and on the legal pages; the secret is never answered", async () => {
    const saved = await configureCard();
    expect(saved.card).toMatchObject({ usable: true, missing: [], secretSet: true, merchantId: "M-000123" });
    expect(JSON.stringify(saved)).not.toContain(SECRET);
    expect(saved.card.secretMasked.endsWith(SECRET.slice(-4))).toBe(true);
    const member = await api.createUser();
    expect((await api.caller(member).purchase.settings()).methods.card).toBe(true);
    expect((await api.caller(null).legal.info()).methods.card).toBe(true);
    // The mask sent back keeps the secret.
    await api.caller(admin).adminPayments.saveSettings({ card: { secret: saved.card.secretMasked } });
    expect((await api.caller(admin).adminPayments.getSettings()).card.secretMasked).toBe(saved.card.secretMasked);
  });
});

describe("a card order", () => {
  it("answers the processor's page with the order's id and amount in a request signed with the secret", async () => {
    const member = await api.createUser();
    const tx = await api.caller(member).purchase.create({ amount: 3000, paymentMethod: "card" });
    expect(tx).toMatchObject({ status: "pending", paymentMethod: "card", amount: 3000, points: 1500, smartPit: null });
    const url = new URL(tx.card?.checkoutUrl ?? "");
    expect(`${url.origin}${url.pathname}`).toBe(PAYMENT_URL);
    const params = Object.fromEntries(url.searchParams);
    expect(params).toMatchObject({ merchant_id: "M-000123", order_id: tx.transactionId, amount: "3000" });
    expect(params.return_url).toBe(`http://localhost:3000/user/point-purchase?order=${tx.transactionId}`);
    expect(params.notify_url).toBe("http://localhost:3000/api/payments/card/notify");
    expect(verifyCardRequest(SECRET, params, new Date())).not.toBeNull();
    // Another amount, or another secret, does not verify.
    expect(verifyCardRequest(SECRET, { ...params, amount: "1" }, new Date())).toBeNull();
    expect(verifyCardRequest("other-secret", params, new Date())).toBeNull();
  });

  it("is credited at once by the processor's notification, once; the member's stream is told", async () => {
    const member = await api.createUser({ points: 0 });
    const tx = await api.caller(member).purchase.create({ amount: 2000, paymentMethod: "card" });
    const told: string[] = [];
    const paid = await notify(tx, "payment.captured", { nonce: "n-paid-1", onCredited: (u) => told.push(u) });
    expect(paid).toMatchObject({ status: "paid", confirmedVia: "card", card: null });
    expect(told).toEqual([member.id]);
    expect(await booksAgree(member.id)).toBe(1000);
    expect(await kinds(member.id, "purchase")).toHaveLength(1);
    expect((await order(tx.id))?.cardProcessorRef).toBe(`SIMPAY-${tx.transactionId}`);
    // The same call again (its nonce), and a new one for the paid order: duplicates, nothing credited.
    await expect(notify(tx, "payment.captured", { nonce: "n-paid-1" })).rejects.toMatchObject({
      code: "CONFLICT",
      message: MSG.notificationReplayed,
    });
    await expect(notify(tx, "payment.captured")).rejects.toMatchObject({
      code: "CONFLICT",
      message: MSG.transactionAlreadyConfirmed,
    });
    expect(await booksAgree(member.id)).toBe(1000);
    expect((await notificationsFor(tx.transactionId)).map((n) => n.outcome).sort()).toEqual([
      "credited",
      "duplicate",
      "duplicate",
    ]);
    const result = await api.caller(member).purchase.cardResult({ id: tx.transactionId });
    expect(result).toMatchObject({ status: "paid", points: 1000, bonusPoints: 0, balance: 1000 });
  });

  it("a forged or stale notification is refused (401) and stored without the signature; nothing is credited", async () => {
    const member = await api.createUser({ points: 0 });
    const tx = await api.caller(member).purchase.create({ amount: 1000, paymentMethod: "card" });
    const before = await snapshotTables(api, ...MONEY);
    await expect(notify(tx, "payment.captured", { secret: "not-the-secret" })).rejects.toMatchObject({
      code: "UNAUTHORIZED",
      message: MSG.notificationRejected,
    });
    const stale = simulateCardNotification({
      secret: SECRET,
      event: "payment.captured",
      transactionId: tx.transactionId,
      amount: tx.amount,
      timestamp: Math.floor(Date.now() / 1000) - 3600,
    });
    await expect(handleCardNotification(db(), stale)).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    const unsigned = { ...stale, headers: { "content-type": "application/json" } };
    await expect(handleCardNotification(db(), unsigned)).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    expect(await snapshotTables(api, ...MONEY)).toEqual(before);
    const stored = await notificationsFor(tx.transactionId);
    expect(stored.map((n) => [n.outcome, n.summary.verdict]).sort()).toEqual([
      ["refused_signature", "forged"],
      ["refused_signature", "forged"],
      ["refused_signature", "stale"],
    ]);
    expect(JSON.stringify(stored)).not.toContain(stale.headers[CARD_HEADERS.signature] as string);
  });

  it("an unknown order, another method's order or a wrong amount is refused and stored; nothing is credited", async () => {
    const member = await api.createUser({ points: 0 });
    await api.caller(admin).adminPayments.updateSmartPit({ smartPitId: "SP-1", apiKey: "sp-key-1", isActive: true });
    const store = await api.caller(member).purchase.create({ amount: 1000, paymentMethod: "smart_pit" });
    const tx = await api.caller(member).purchase.create({ amount: 1000, paymentMethod: "card" });
    const before = await snapshotTables(api, ...MONEY);
    await expect(notify({ transactionId: "TX-NOPE", amount: 1000 })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(notify(store)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(notify({ ...tx, amount: 999 })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: MSG.notificationAmountMismatch,
    });
    expect(await snapshotTables(api, ...MONEY)).toEqual(before);
    expect((await notificationsFor(tx.transactionId)).map((n) => n.outcome)).toEqual(["refused_amount"]);
    expect((await notificationsFor("TX-NOPE")).map((n) => n.outcome)).toEqual(["refused_unknown"]);
  });

  it("a declined payment ends the order failed; money arriving later is reinstated and credited once", async () => {
    const member = await api.createUser({ points: 0 });
    const tx = await api.caller(member).purchase.create({ amount: 1000, paymentMethod: "card" });
    expect(await notify(tx, "payment.failed")).toMatchObject({ status: "failed" });
    expect(await booksAgree(member.id)).toBe(0);
    const late = await notify(tx, "payment.captured");
    expect(late).toMatchObject({ status: "paid", confirmedVia: "card" });
    expect(late.reinstatedAt).not.toBeNull();
    expect(await booksAgree(member.id)).toBe(500);
    expect((await notificationsFor(tx.transactionId)).map((n) => n.outcome).sort()).toEqual(["declined", "reinstated"]);
  });

  it("a cancelled order's late notification is handled as SmartPit's: reinstated for a live member, listed for one who left", async () => {
    const member = await api.createUser({ points: 0 });
    const tx = await api.caller(member).purchase.create({ amount: 1000, paymentMethod: "card" });
    await api.caller(admin).adminPayments.cancel({ id: tx.id });
    expect(await notify(tx)).toMatchObject({ status: "paid" });
    expect(await booksAgree(member.id)).toBe(500);
    expect((await notificationsFor(tx.transactionId))[0]?.outcome).toBe("reinstated");

    const leaver = await api.createUser({ points: 0 });
    const gone = await api.caller(leaver).purchase.create({ amount: 1000, paymentMethod: "card" });
    await api.caller(admin).adminPayments.cancel({ id: gone.id });
    await db().update(users).set({ deletedAt: new Date() }).where(eq(users.id, leaver.id));
    expect(await notify(gone)).toMatchObject({ status: "cancelled" });
    expect(await booksAgree(leaver.id)).toBe(0);
    expect((await notificationsFor(gone.transactionId))[0]).toMatchObject({
      outcome: "unsettled",
      reason: "account_closed",
    });
  });

  it("an order left on the payment page ends failed after its validity; its late payment is reinstated", async () => {
    const member = await api.createUser({ points: 0 });
    const tx = await api.caller(member).purchase.create({ amount: 1000, paymentMethod: "card" });
    await db()
      .update(purchaseTransactions)
      .set({ createdAt: sql`now() - interval '2 hours'` })
      .where(eq(purchaseTransactions.id, tx.id));
    expect(await failExpiredCardOrders(db())).toBeGreaterThanOrEqual(1);
    expect((await order(tx.id))?.status).toBe("failed");
    expect(await notify(tx)).toMatchObject({ status: "paid" });
    expect(await booksAgree(member.id)).toBe(500);
  });

  it("the result page's answer is the member's own: another member's order is NOT_FOUND", async () => {
    const member = await api.createUser();
    const other = await api.createUser();
    const tx = await api.caller(member).purchase.create({ amount: 1000, paymentMethod: "card" });
    expect(await api.caller(member).purchase.cardResult({ id: tx.id })).toMatchObject({ status: "pending" });
    await expect(api.caller(other).purchase.cardResult({ id: tx.transactionId })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });
});

describe("a refund by the processor", () => {
  it("takes the points back through the ledger, from the purchase's own lot, when they are still there", async () => {
    // 100 free points (an earlier lot, spent first) and 500 bought by card.
    const member = await api.createUser({ points: 100 });
    const tx = await api.caller(member).purchase.create({ amount: 1000, paymentMethod: "card" });
    await notify(tx);
    // 50 points spent: taken from the free lot, which expires sooner; the card purchase's lot is whole.
    await db().transaction((t) =>
      setBalance(t, { userId: member.id, account: "points", value: 550, actorId: admin.id }),
    );
    const told: string[] = [];
    const refunded = await notify(tx, "refund.completed", { onCredited: (u) => told.push(u) });
    expect(refunded).toMatchObject({ status: "refunded" });
    expect(refunded.refundedAt).not.toBeNull();
    expect(told).toEqual([member.id]);
    expect(await booksAgree(member.id)).toBe(50);
    const [reversal] = await kinds(member.id, "purchase_reversal");
    expect(reversal).toMatchObject({ delta: -500, balanceAfter: 50, reference: tx.transactionId });
    const [lot] = await db()
      .select({ remaining: pointLots.remaining, paid: pointLots.paid })
      .from(pointLots)
      .innerJoin(pointLedger, eq(pointLedger.id, pointLots.ledgerId))
      .where(and(eq(pointLedger.kind, "purchase"), eq(pointLedger.reference, tx.transactionId)));
    expect(lot).toEqual({ remaining: 0, paid: true });
    // The processor sends it again: a duplicate, nothing taken twice.
    await expect(notify(tx, "refund.completed")).rejects.toMatchObject({ code: "CONFLICT" });
    expect(await booksAgree(member.id)).toBe(50);
    expect((await notificationsFor(tx.transactionId)).map((n) => n.outcome).sort()).toEqual([
      "credited",
      "duplicate",
      "reversed",
    ]);
  });

  it("takes back the purchase bonus booked with the purchase too (its free lot), and lists the refund when the bonus was spent", async () => {
    await api.caller(admin).adminPayments.saveBonusRules({ firstPurchase: { fixedPoints: 300 }, tiers: [] });
    try {
      const member = await api.createUser({ points: 0 });
      const tx = await api.caller(member).purchase.create({ amount: 1000, paymentMethod: "card" });
      await notify(tx);
      expect(await booksAgree(member.id)).toBe(800);
      // The result page shows the bonus credited with the purchase.
      expect(await api.caller(member).purchase.cardResult({ id: tx.transactionId })).toMatchObject({
        status: "paid",
        points: 500,
        bonusPoints: 300,
        balance: 800,
      });
      expect(await notify(tx, "refund.completed")).toMatchObject({ status: "refunded" });
      expect(await booksAgree(member.id)).toBe(0);
      const [reversal] = await kinds(member.id, "purchase_reversal");
      expect(reversal).toMatchObject({ delta: -800, balanceAfter: 0, reference: tx.transactionId });

      // Another member spends part of the bonus (the free lot, which expires first): the refund is listed.
      const spender = await api.createUser({ points: 0 });
      const bought = await api.caller(spender).purchase.create({ amount: 1000, paymentMethod: "card" });
      await notify(bought);
      await db().transaction((t) =>
        setBalance(t, { userId: spender.id, account: "points", value: 790, actorId: admin.id }),
      );
      const before = await snapshotTables(api, ...MONEY);
      expect(await notify(bought, "refund.completed")).toMatchObject({ status: "paid" });
      expect(await snapshotTables(api, ...MONEY)).toEqual(before);
      expect(await booksAgree(spender.id)).toBe(790);
    } finally {
      await api.caller(admin).adminPayments.saveBonusRules({ firstPurchase: null, tiers: [] });
    }
  });

  it("when the points were spent, lists the refund for the administrators and takes nothing: no balance goes negative", async () => {
    const member = await api.createUser({ points: 0 });
    const tx = await api.caller(member).purchase.create({ amount: 1000, paymentMethod: "card" });
    await notify(tx);
    await db().transaction((t) =>
      setBalance(t, { userId: member.id, account: "points", value: 100, actorId: admin.id }),
    );
    const before = await snapshotTables(api, "point_ledger", "point_lots", "users");
    expect(await notify(tx, "refund.completed")).toMatchObject({ status: "paid" });
    expect(await snapshotTables(api, "point_ledger", "point_lots", "users")).toEqual(before);
    expect(await booksAgree(member.id)).toBe(100);
    const open = await api.caller(admin).adminPayments.notifications({ page: 1, view: "open" });
    const listed = open.notifications.find((n) => n.transactionRef === tx.transactionId);
    expect(listed).toMatchObject({ provider: "card", outcome: "unsettled", reason: "points_spent" });
    // Sent again: listed once.
    await expect(notify(tx, "refund.completed")).rejects.toMatchObject({ code: "CONFLICT" });
    const again = await api.caller(admin).adminPayments.notifications({ page: 1, view: "open" });
    expect(again.notifications.filter((n) => n.transactionRef === tx.transactionId)).toHaveLength(1);
    // The administrators settle it.
    await api.caller(admin).adminPayments.resolveNotification({ id: listed?.id ?? "", resolution: "settled" });
  });

  it("of an order never paid is refused (409) and changes nothing", async () => {
    const member = await api.createUser({ points: 0 });
    const tx = await api.caller(member).purchase.create({ amount: 1000, paymentMethod: "card" });
    const before = await snapshotTables(api, ...MONEY);
    await expect(notify(tx, "refund.completed")).rejects.toMatchObject({
      code: "CONFLICT",
      message: MSG.cardRefundNotPaid,
    });
    expect(await snapshotTables(api, ...MONEY)).toEqual(before);
  });
});

describe("a card payment as the age check (出会い系サイト規制法施行規則)", () => {
  it("off: a card payment verifies nobody", async () => {
    const member = await api.createUser({ verificationStatus: "unverified" });
    const tx = await api.caller(member).purchase.create({ amount: 1000, paymentMethod: "card" });
    await notify(tx);
    expect((await db().select().from(users).where(eq(users.id, member.id)))[0]?.verificationStatus).toBe("unverified");
  });

  it("on: the member's first completed card payment marks the account verified, recorded in the history", async () => {
    await configureCard({ ageVerification: true });
    const member = await api.createUser({ verificationStatus: "unverified" });
    const tx = await api.caller(member).purchase.create({ amount: 1000, paymentMethod: "card" });
    expect((await api.caller(member).verification.status()).status).toBe("unverified");
    await notify(tx, "payment.failed");
    expect((await api.caller(member).verification.status()).status).toBe("unverified");
    const second = await api.caller(member).purchase.create({ amount: 1000, paymentMethod: "card" });
    await notify(second);
    const status = await api.caller(member).verification.status();
    expect(status.status).toBe("verified");
    expect(status.verifiedAt).not.toBeNull();
    const history = await db().select().from(idVerifications).where(eq(idVerifications.userId, member.id));
    expect(history).toEqual([
      expect.objectContaining({
        status: "approved",
        method: "card_payment",
        purchaseTransactionId: second.id,
        reviewedBy: null,
        imagePath: null,
      }),
    ]);
    // A later card payment adds nothing to the history.
    await notify(await api.caller(member).purchase.create({ amount: 1000, paymentMethod: "card" }));
    expect(await db().select().from(idVerifications).where(eq(idVerifications.userId, member.id))).toHaveLength(1);
    await configureCard({ ageVerification: false });
  });
});

describe.runIf(onPostgres)("concurrent notifications (PostgreSQL)", () => {
  it("20 duplicate and concurrent notifications of one payment credit it exactly once", async () => {
    for (let round = 0; round < 3; round += 1) {
      const member = await api.createUser({ points: 0 });
      const tx = await api.caller(member).purchase.create({ amount: 1000, paymentMethod: "card" });
      // Ten carry the same nonce (one call retried), ten their own (the processor sending again).
      const calls = Array.from({ length: 20 }, (_, i) =>
        notify(tx, "payment.captured", { nonce: i < 10 ? `same-${round}` : undefined }),
      );
      const results = await Promise.allSettled(calls);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      for (const r of results) {
        if (r.status === "rejected") expect(r.reason).toMatchObject({ code: "CONFLICT" });
      }
      expect(await booksAgree(member.id)).toBe(500);
      expect(await kinds(member.id, "purchase")).toHaveLength(1);
      const stored = await notificationsFor(tx.transactionId);
      expect(stored).toHaveLength(20);
      expect(stored.filter((n) => n.outcome === "credited")).toHaveLength(1);
      expect(stored.filter((n) => n.outcome === "duplicate")).toHaveLength(19);
    }
  });

  it("a refund racing spending and other refunds takes the points back at most once, never below zero", async () => {
    for (let round = 0; round < 4; round += 1) {
      const member = await api.createUser({ points: 0 });
      const tx = await api.caller(member).purchase.create({ amount: 1000, paymentMethod: "card" });
      await notify(tx);
      const spend = db().transaction((t) =>
        setBalance(t, { userId: member.id, account: "points", value: 200, actorId: admin.id }),
      );
      const refunds = Array.from({ length: 5 }, () => notify(tx, "refund.completed"));
      await Promise.allSettled([spend, ...refunds]);
      const b = await booksAgree(member.id);
      expect(b).toBeGreaterThanOrEqual(0);
      const reversals = await kinds(member.id, "purchase_reversal");
      expect(reversals.length).toBeLessThanOrEqual(1);
      const stored = (await notificationsFor(tx.transactionId)).filter((n) => n.outcome !== "credited");
      const moved = stored.filter((n) => n.outcome === "reversed" || n.outcome === "unsettled");
      // Exactly one refund did something: reversed (before the spending) or listed (after it).
      expect(moved).toHaveLength(1);
      expect(reversals.length).toBe(moved[0]?.outcome === "reversed" ? 1 : 0);
    }
  });
});
