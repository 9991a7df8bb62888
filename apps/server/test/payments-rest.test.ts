import { simulateSmartPitPayment } from "@enmusubi/api/testing";
import { onPostgres } from "@enmusubi/db/testing";
import { MSG, purchaseBelowMinimum } from "@enmusubi/shared";
import { beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config";
import { type RestUser, snapshotTables, useTestServer } from "./helpers";
import { PRODUCTION_PARTICULARS, PRODUCTION_TEST_SMS } from "./legal-env";

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
      card: { isActive: false },
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
      [{}, MSG.badRequest],
      [
        { general: { minimumPurchase: 1000 }, exchangeRate: { yenAmount: 1, pointAmount: 0 } },
        MSG.exchangeAmountInvalid,
      ],
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
      loadConfig({
        NODE_ENV: "production",
        JWT_SECRET: "x".repeat(40),
        SMARTPIT_SIMULATOR: "true",
        ...PRODUCTION_PARTICULARS,
        ...PRODUCTION_TEST_SMS,
      }),
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

describe("Decision 0018: payments a legacy client can trust", () => {
  const fresh = useTestServer();

  it("a method not configured completely is not offered, and an order for it is 400 in Japanese, writing nothing", async () => {
    const buyer = await fresh.createUser();
    const settings = await fresh.request({ method: "GET", url: "/api/purchase/settings", as: buyer });
    expect(settings.json().smartPit).toEqual({ isActive: false });
    const before = await snapshotTables(fresh, ...TABLES);
    const order = await fresh.request({
      method: "POST",
      url: "/api/purchase",
      as: buyer,
      payload: { paymentMethod: "smart_pit", amount: 1000 },
    });
    expect(order.statusCode).toBe(400);
    expect(order.json().message).toBe(MSG.paymentMethodUnavailable);
    expect(await snapshotTables(fresh, ...TABLES)).toEqual(before);
  });

  it("PUT settings accepts what GET answers (read-only fields ignored, the masked key kept)", async () => {
    const get = await server.request({ method: "GET", url: "/api/admin/payments/settings", as: admin });
    const body = get.json<Record<string, unknown> & { general?: unknown; minimumPurchase: number }>();
    const put = await server.request({
      method: "PUT",
      url: "/api/admin/payments/settings",
      as: admin,
      payload: { ...body, minimumPurchase: 1500 },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toEqual({ ...body, minimumPurchase: 1500 });
    const section = await server.request({
      method: "PUT",
      url: "/api/admin/payments/settings",
      as: admin,
      payload: { smartPit: get.json().smartPit, general: { minimumPurchase: 1000 } },
    });
    expect(section.statusCode, section.body).toBe(200);
    // The key is still the one set: a notification signed with it is accepted.
    const t = await buy(1000);
    const paid = await server.request({
      method: "POST",
      url: "/api/payments/smartpit/notify",
      ...(() => {
        const n = simulateSmartPitPayment({
          apiKey: API_KEY,
          transactionId: t.transactionId,
          paymentCode: t.smartPitDetails.paymentCode,
          amount: 1000,
        });
        return { payload: n.rawBody, headers: n.headers };
      })(),
    });
    expect(paid.statusCode).toBe(200);
  });

  it("a cancelled order's code leaves the history; paid late, it is credited (200), not refused", async () => {
    const t = await buy(2000);
    const cancel = await server.request({
      method: "POST",
      url: `/api/admin/payments/transactions/${t.transactionId}/cancel`,
      as: admin,
    });
    expect(cancel.statusCode).toBe(200);
    const history = await server.request({ method: "GET", url: "/api/purchase/history", as: member });
    const row = history.json<Array<{ _id: string; smartPitDetails: unknown }>>().find((x) => x._id === t._id);
    expect(row?.smartPitDetails).toBeNull();
    expect(history.body).not.toContain(t.smartPitDetails.paymentCode);
    const before = (await server.request({ method: "GET", url: "/api/auth/me", as: member })).json().points;
    const n = simulateSmartPitPayment({
      apiKey: API_KEY,
      transactionId: t.transactionId,
      paymentCode: t.smartPitDetails.paymentCode,
      amount: 2000,
    });
    const late = await server.request({
      method: "POST",
      url: "/api/payments/smartpit/notify",
      payload: n.rawBody,
      headers: n.headers,
    });
    expect(late.statusCode).toBe(200);
    expect(late.json()).toEqual({ received: true, transactionId: t.transactionId, status: "paid" });
    const after = (await server.request({ method: "GET", url: "/api/auth/me", as: member })).json().points;
    expect(after - before).toBe(1000);
  });

  it("the confirm answer carries confirmedBy", async () => {
    const t = await buy(1000);
    const ok = await server.request({
      method: "POST",
      url: `/api/admin/payments/transactions/${t.transactionId}/confirm`,
      as: admin,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().transaction.confirmedBy).toEqual({ userID: admin.userID, name: expect.anything() });
  });

  it("an overflowing rate or credit answers 400/409 with a message, never 500, writing nothing", async () => {
    const { paymentSettings, users } = await import("@enmusubi/db");
    const { eq } = await import("drizzle-orm");
    const db = server.database.db;
    await db.update(paymentSettings).set({ exchangeYenAmount: 1, exchangePointAmount: 100_000 });
    const before = await snapshotTables(server, ...TABLES);
    const order = await server.request({
      method: "POST",
      url: "/api/purchase",
      as: other,
      payload: { paymentMethod: "smart_pit", amount: 100_000 },
    });
    expect(order.statusCode).toBe(400);
    expect(order.json().message).toBe(MSG.orderPointsTooLarge);
    expect(await snapshotTables(server, ...TABLES)).toEqual(before);
    await db.update(paymentSettings).set({ exchangeYenAmount: 1000, exchangePointAmount: 500 });
    const rich = await server.createUser();
    const t = await buy(1000, rich);
    await db.update(users).set({ points: 2_147_483_600 }).where(eq(users.id, rich.id));
    const untouched = await snapshotTables(server, ...TABLES);
    const confirm = await server.request({
      method: "POST",
      url: `/api/admin/payments/transactions/${t.transactionId}/confirm`,
      as: admin,
    });
    expect(confirm.statusCode).toBe(409);
    expect(confirm.json().message).toBe(MSG.creditWouldOverflow);
    expect(await snapshotTables(server, ...TABLES)).toEqual(untouched);
  });

  it("the REST files call procedures only: no database import, no CSV of its own, no service call", async () => {
    const { readFileSync } = await import("node:fs");
    for (const file of ["payments.ts", "payment-shapes.ts"]) {
      const source = readFileSync(new URL(`../src/rest/${file}`, import.meta.url), "utf8");
      expect(source).not.toContain("@enmusubi/db");
      expect(source).not.toMatch(/overThreshold/);
      // Types of the procedures' answers only (the simulator's service call is plugins/smartpit-simulator.ts).
      expect(source).not.toMatch(/import \{[^}]*\} from "@enmusubi\/api"/);
    }
  });
});

describe.runIf(onPostgres)("concurrent settings saves (PostgreSQL)", () => {
  it("saves of different sections and fields sent at once all persist", async () => {
    const put = (payload: object) =>
      server.request({ method: "PUT", url: "/api/admin/payments/settings", as: admin, payload });
    const answers = await Promise.all([
      put({ general: { minimumPurchase: 1200 } }),
      put({ general: { maximumPurchase: 80_000 } }),
      put({ bankTransfer: { bankName: "並行銀行" } }),
      put({ exchangeRate: { yenAmount: 1000, pointAmount: 550 } }),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
    const s = (await server.request({ method: "GET", url: "/api/admin/payments/settings", as: admin })).json();
    expect(s).toMatchObject({
      minimumPurchase: 1200,
      maximumPurchase: 80_000,
      bankTransfer: { bankName: "並行銀行" },
      exchangeRate: { pointAmount: 550 },
    });
    await put({ general: { minimumPurchase: 1000, maximumPurchase: 100_000 } });
    await put({ exchangeRate: { yenAmount: 1000, pointAmount: 500 } });
  });
});
