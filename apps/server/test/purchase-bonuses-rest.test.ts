import { createCaller, createContextInner } from "@enmusubi/api";
import { MSG } from "@enmusubi/shared";
import { beforeAll, describe, expect, it } from "vitest";
import { type RestUser, snapshotTables, useTestServer } from "./helpers";

/* GET /api/purchase/bonus-quote (decision 0047): the quote a third-party client reads equals the credit. */

const server = useTestServer();
let admin: RestUser;

beforeAll(async () => {
  admin = await server.createUser({ role: "admin" });
  const res = await server.request({
    method: "PUT",
    url: "/api/admin/payments/settings",
    as: admin,
    payload: { smartPit: { smartPitId: "SP-BONUS", apiKey: "sk_rest_bonus_0001", isActive: true } },
  });
  expect(res.statusCode).toBe(200);
  // The administrators' bonus screen calls tRPC; the rules are set the same way here.
  await createCaller(createContextInner(server.app.deps, admin.session)).adminPayments.saveBonusRules({
    firstPurchase: { fixedPoints: 300 },
    tiers: [{ minAmount: 5000, ratePercent: 10 }],
  });
});

describe("GET /api/purchase/bonus-quote", () => {
  it("answers the bonus the order is then credited, in the documented shape", async () => {
    const member = await server.createUser();
    const quote = await server.request({
      method: "GET",
      url: "/api/purchase/bonus-quote?amount=5000&paymentMethod=smart_pit",
      as: member,
    });
    expect(quote.statusCode).toBe(200);
    expect(quote.json()).toEqual({
      amount: 5000,
      paymentMethod: "smart_pit",
      points: 2500,
      bonusPoints: 550,
      totalPoints: 3050,
      items: [
        { kind: "first_purchase", label: "初回購入ボーナス", points: 300, endsAt: null },
        { kind: "tier", label: "金額別ボーナス（5,000円以上）", points: 250, endsAt: null },
      ],
      firstPurchase: true,
      bonusValidityDays: 180,
    });
    const order = await server.request({
      method: "POST",
      url: "/api/purchase",
      as: member,
      payload: { paymentMethod: "smart_pit", amount: 5000 },
    });
    expect(order.statusCode).toBe(201);
    const confirmed = await server.request({
      method: "POST",
      url: `/api/admin/payments/transactions/${order.json().transactionId}/confirm`,
      as: admin,
    });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().transaction).toMatchObject({ status: "paid", points: 2500, bonusPoints: 550 });
    const history = await server.request({ method: "GET", url: "/api/purchase/history", as: member });
    expect(history.json()[0]).toMatchObject({ bonusPoints: 550 });
  });

  it("refuses bad input with a Japanese message and changes nothing; anonymous is 401", async () => {
    const member = await server.createUser();
    const before = await snapshotTables(server, "purchase_transactions", "point_ledger", "purchase_bonus_rules");
    for (const [query, message] of [
      ["amount=0&paymentMethod=smart_pit", MSG.amountInvalid],
      ["amount=1e5&paymentMethod=smart_pit", MSG.amountInvalid],
      ["amount=5000&paymentMethod=cash", MSG.paymentMethodInvalid],
      ["paymentMethod=smart_pit", MSG.amountInvalid],
    ] as const) {
      const res = await server.request({ method: "GET", url: `/api/purchase/bonus-quote?${query}`, as: member });
      expect({ query, status: res.statusCode, body: res.json() }).toEqual({ query, status: 400, body: { message } });
    }
    const anonymous = await server.request({
      method: "GET",
      url: "/api/purchase/bonus-quote?amount=5000&paymentMethod=smart_pit",
    });
    expect(anonymous.statusCode).toBe(401);
    expect(await snapshotTables(server, "purchase_transactions", "point_ledger", "purchase_bonus_rules")).toEqual(
      before,
    );
  });
});
