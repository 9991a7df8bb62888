import { simulateSmartPitPayment } from "@enmusubi/api/testing";
import { MSG, purchaseBelowMinimum } from "@enmusubi/shared";
import { beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config";
import { type RestUser, snapshotTables, useTestServer } from "./helpers";

const server = useTestServer();
/** A second server with the development SmartPit simulator on. */
const devServer = useTestServer({ env: { SMARTPIT_SIMULATOR: "true" } });
const API_KEY = "sk_rest_SUPER-SECRET-0042";
let admin: RestUser;
let member: RestUser;
let other: RestUser;

beforeAll(async () => {
  admin = await server.createUser({ role: "admin" });
  member = await server.createUser();
  other = await server.createUser();
  const res = await server.request({
    method: "PUT",
    url: "/api/admin/payments/settings",
    as: admin,
    payload: { smartPit: { smartPitId: "SP-000777", apiKey: API_KEY, isActive: true } },
  });
  expect(res.statusCode).toBe(200);
});

const TABLES = ["purchase_transactions", "point_ledger", "point_lots", "users", "payment_settings"];

async function buy(amount: number, as = member) {
  const res = await server.request({
    method: "POST",
    url: "/api/purchase",
    as,
    payload: { paymentMethod: "smart_pit", amount, points: 1 },
  });
  expect(res.statusCode).toBe(201);
  return res.json<{ _id: string; transactionId: string; points: number; smartPitDetails: { paymentCode: string } }>();
}

describe("purchase REST rows", () => {
  it("GET /api/purchase/settings: rate, limits, methods; no SmartPit id or key", async () => {
    const res = await server.request({ method: "GET", url: "/api/purchase/settings", as: member });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      exchangeRate: { yenAmount: 1000, pointAmount: 500, isActive: true },
      limits: { minimum: 1000, maximum: 100000 },
      bankTransfer: null,
      smartPit: { isActive: true },
    });
    expect(res.body).not.toContain("SECRET");
    expect(res.body).not.toContain("SP-000777");
  });

  it("POST /api/purchase computes the points on the server (digit strings accepted) and refuses out-of-range amounts", async () => {
    const t = await buy(5000);
    expect(t).toMatchObject({ amount: 5000, points: 2500, status: "pending", paymentMethod: "smart_pit" });
    expect(t.smartPitDetails.paymentCode).toMatch(/^\d{14}$/);
    const before = await snapshotTables(server, ...TABLES);
    const low = await server.request({
      method: "POST",
      url: "/api/purchase",
      as: member,
      payload: { paymentMethod: "smart_pit", amount: "999", points: 499 },
    });
    expect(low.statusCode).toBe(400);
    expect(low.json().message).toBe(purchaseBelowMinimum(1000));
    const bad = await server.request({
      method: "POST",
      url: "/api/purchase",
      as: member,
      payload: { paymentMethod: "smart_pit", amount: "abc" },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(MSG.amountInvalid);
    expect(await snapshotTables(server, ...TABLES)).toEqual(before);
  });

  it("GET /api/purchase/history lists only the caller's own transactions", async () => {
    const mine = await buy(1000);
    await buy(2000, other);
    const res = await server.request({ method: "GET", url: "/api/purchase/history", as: member });
    expect(res.statusCode).toBe(200);
    const ids = res.json<Array<{ _id: string }>>().map((t) => t._id);
    expect(ids).toContain(mine._id);
    const others = await server.request({ method: "GET", url: "/api/purchase/history", as: other });
    expect(others.json<Array<{ _id: string }>>().map((t) => t._id)).not.toContain(mine._id);
    expect(Number(res.headers["x-total-count"])).toBe(ids.length);
  });
});

describe("admin payments REST rows", () => {
  it("lists with filters and a summary; confirm credits once (second is 409); cancel only pending", async () => {
    const t = await buy(3000);
    const list = await server.request({
      method: "GET",
      url: "/api/admin/payments/transactions?status=pending&paymentMethod=smart_pit&limit=100",
      as: admin,
    });
    expect(list.statusCode).toBe(200);
    const body = list.json<{
      transactions: Array<{ _id: string; user: { userID: string } }>;
      summary: { count: number };
    }>();
    expect(body.transactions.find((x) => x._id === t._id)?.user.userID).toBe(member.userID);
    expect(body.summary.count).toBe(body.transactions.length);

    const ok = await server.request({
      method: "POST",
      url: `/api/admin/payments/transactions/${t.transactionId}/confirm`,
      as: admin,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().transaction).toMatchObject({ status: "paid", confirmedVia: "admin" });
    const again = await server.request({
      method: "POST",
      url: `/api/admin/payments/transactions/${t.transactionId}/confirm`,
      as: admin,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(MSG.transactionAlreadyConfirmed);
    const cancelPaid = await server.request({
      method: "POST",
      url: `/api/admin/payments/transactions/${t._id}/cancel`,
      as: admin,
    });
    expect(cancelPaid.statusCode).toBe(409);
    const pending = await buy(1000);
    const cancelled = await server.request({
      method: "POST",
      url: `/api/admin/payments/transactions/${pending._id}/cancel`,
      as: admin,
    });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().transaction.status).toBe("cancelled");
    const missing = await server.request({
      method: "POST",
      url: "/api/admin/payments/transactions/TX-NONE/confirm",
      as: admin,
    });
    expect(missing.statusCode).toBe(404);
    const asMember = await server.request({
      method: "POST",
      url: `/api/admin/payments/transactions/${pending._id}/confirm`,
      as: member,
    });
    expect(asMember.statusCode).toBe(403);
  });

  it("GET/PUT settings: one section per request, minimums, the key masked", async () => {
    const get = await server.request({ method: "GET", url: "/api/admin/payments/settings", as: admin });
    expect(get.statusCode).toBe(200);
    expect(get.body).not.toContain(API_KEY);
    expect(get.json().smartPit.apiKey.endsWith("0042")).toBe(true);
    const before = await snapshotTables(server, "payment_settings", "admin_audit_log");
    for (const [payload, message] of [
      [{ general: { minimumPurchase: 50 } }, MSG.minimumPurchaseInvalid],
      [{ general: { maximumPurchase: 500 } }, MSG.maximumPurchaseInvalid],
      [{ exchangeRate: { yenAmount: 0, pointAmount: 1 } }, MSG.exchangeAmountInvalid],
      [{ general: { bankTransferBalance: -5 } }, MSG.bankBalanceInvalid],
      [{ general: { minimumPurchase: 1000 }, exchangeRate: { yenAmount: 1, pointAmount: 1 } }, MSG.badRequest],
    ] as const) {
      const res = await server.request({ method: "PUT", url: "/api/admin/payments/settings", as: admin, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toBe(message);
    }
    expect(await snapshotTables(server, "payment_settings", "admin_audit_log")).toEqual(before);
    const saved = await server.request({
      method: "PUT",
      url: "/api/admin/payments/settings",
      as: admin,
      payload: { general: { minimumPurchase: 2000 } },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ minimumPurchase: 2000, maximumPurchase: 100000 });
    await server.request({
      method: "PUT",
      url: "/api/admin/payments/settings",
      as: admin,
      payload: { general: { minimumPurchase: 1000 } },
    });
  });

  it("the unused-balance report downloads as CSV with a BOM", async () => {
    const res = await server.request({
      method: "GET",
      url: "/api/admin/payments/unused-balance-report.csv",
      as: admin,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(res.body).toContain("基準日,");
    const denied = await server.request({
      method: "GET",
      url: "/api/admin/payments/unused-balance-report.csv",
      as: member,
    });
    expect(denied.statusCode).toBe(403);
  });
});

describe("POST /api/payments/smartpit/notify", () => {
  const send = (n: { rawBody: string; headers: Record<string, string> }) =>
    server.request({ method: "POST", url: "/api/payments/smartpit/notify", payload: n.rawBody, headers: n.headers });

  it("valid → paid and credited once; replay → 409; forged → 401; unknown → 404; wrong amount → 400", async () => {
    const t = await buy(4000);
    const base = { transactionId: t.transactionId, paymentCode: t.smartPitDetails.paymentCode, amount: 4000 };
    const before = await snapshotTables(server, ...TABLES);
    const forged = await send(simulateSmartPitPayment({ ...base, apiKey: "guess" }));
    expect(forged.statusCode).toBe(401);
    expect(forged.json().message).toBe(MSG.notificationRejected);
    const unknown = await send(simulateSmartPitPayment({ ...base, apiKey: API_KEY, transactionId: "TX20990101NOPE" }));
    expect(unknown.statusCode).toBe(404);
    const wrong = await send(simulateSmartPitPayment({ ...base, apiKey: API_KEY, amount: 40 }));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(MSG.notificationAmountMismatch);
    // Same JSON re-serialised with other spacing: the signature is over the exact bytes.
    const good = simulateSmartPitPayment({ ...base, apiKey: API_KEY });
    const respaced = await send({ rawBody: JSON.stringify(JSON.parse(good.rawBody), null, 1), headers: good.headers });
    expect(respaced.statusCode).toBe(401);
    expect(await snapshotTables(server, ...TABLES)).toEqual(before);

    const ok = await send(good);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ received: true, transactionId: t.transactionId, status: "paid" });
    const replay = await send(good);
    expect(replay.statusCode).toBe(409);
    expect(replay.json().message).toBe(MSG.notificationReplayed);
    const me = await server.request({ method: "GET", url: "/api/auth/me", as: member });
    const history = await server.request({ method: "GET", url: "/api/purchase/history", as: member });
    const row = history
      .json<Array<{ _id: string; status: string; confirmedVia: string }>>()
      .find((x) => x._id === t._id);
    expect(row).toMatchObject({ status: "paid", confirmedVia: "smartpit" });
    expect(me.json().points).toBe(100 + 1500 + 2000);
  });
});

describe("operator settings and the SmartPit simulator", () => {
  it("operator particulars come from configuration, with marked placeholders when unset", async () => {
    const config = loadConfig({ NODE_ENV: "test", JWT_SECRET: "x".repeat(40), OPERATOR_NAME: "株式会社テスト" });
    expect(config.operator.name).toBe("株式会社テスト");
    expect(config.operator.datingBusinessNumber).toBe("（未設定：DATING_BUSINESS_NUMBER）");
    const info = await server.app.inject({ method: "GET", url: "/trpc/legal.info" });
    expect(info.statusCode).toBe(200);
    expect(info.body).toContain("（未設定：OPERATOR_NAME）");
    expect(info.body).not.toContain("SECRET");
  });

  it("the simulator is never on in production and is not served unless asked for", async () => {
    // Asked for in production, the server refuses to start (smartpit-simulator-production.test.ts).
    expect(() =>
      loadConfig({ NODE_ENV: "production", JWT_SECRET: "x".repeat(40), SMARTPIT_SIMULATOR: "true" }),
    ).toThrow(/SMARTPIT_SIMULATOR/);
    const off = await server.app.inject({ method: "POST", url: "/dev/smartpit/pay", payload: { transactionId: "x" } });
    expect(off.statusCode).toBe(404);
  });

  it("POST /dev/smartpit/pay pays a code through the signed notification route", async () => {
    const admin2 = await devServer.createUser({ role: "admin" });
    const buyer = await devServer.createUser();
    await devServer.request({
      method: "PUT",
      url: "/api/admin/payments/settings",
      as: admin2,
      payload: { smartPit: { smartPitId: "SP-1", apiKey: "dev-key-123456", isActive: true } },
    });
    const order = await devServer.request({
      method: "POST",
      url: "/api/purchase",
      as: buyer,
      payload: { paymentMethod: "smart_pit", amount: 1000 },
    });
    const { transactionId } = order.json<{ transactionId: string }>();
    const paid = await devServer.app.inject({ method: "POST", url: "/dev/smartpit/pay", payload: { transactionId } });
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toMatchObject({ transactionId, status: "paid" });
    const me = await devServer.request({ method: "GET", url: "/api/auth/me", as: buyer });
    expect(me.json().points).toBe(600);
  });
});
