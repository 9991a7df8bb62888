import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { paymentNotifications, paymentSettings, users } from "@enmusubi/db";
import { MSG } from "@enmusubi/shared";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app";
import { loadConfig } from "../src/config";
import { type RestUser, snapshotTables, useTestServer } from "./helpers";
import { PRODUCTION_PARTICULARS, PRODUCTION_TEST_SMS } from "./legal-env";

/*
 * The card payment's REST rows and the development simulator (decision 0046): an order answers the
 * processor's page; the simulator's page takes a test card and sends the signed notification; the
 * result row shows the balance; the notification row refuses bad signatures, storing them.
 */

/** A server with the card simulator on: it configures the card at start (merchant id, secret, its own page). */
const server = useTestServer({ env: { CARD_SIMULATOR: "true" } });
let member: RestUser;

const MONEY = ["purchase_transactions", "point_ledger", "point_lots", "users"];

beforeAll(async () => {
  member = await server.createUser({ points: 0 });
});

async function order(amount = 3000) {
  const res = await server.request({ method: "POST", url: "/api/purchase/card", as: member, payload: { amount } });
  expect(res.statusCode).toBe(201);
  return res.json<{ _id: string; transactionId: string; points: number; cardDetails: { checkoutUrl: string } }>();
}

/** What the member's browser does on the simulator's page: opens it, then posts its form with `card`. */
async function payOnPage(checkoutUrl: string, card: string, action = "pay") {
  const url = new URL(checkoutUrl);
  const page = await server.app.inject({ method: "GET", url: `${url.pathname}${url.search}` });
  expect(page.statusCode).toBe(200);
  expect(page.headers["content-type"]).toContain("text/html");
  const form = new URLSearchParams(url.searchParams);
  form.set("card_number", card);
  form.set("action", action);
  return server.app.inject({
    method: "POST",
    url: url.pathname,
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: form.toString(),
  });
}

const balance = async () =>
  (await server.database.db.select({ p: users.points }).from(users).where(eq(users.id, member.id)))[0]?.p;

describe("card payment over REST, through the simulator", () => {
  it("the simulator configured the card at start: members are offered it", async () => {
    const res = await server.request({ method: "GET", url: "/api/purchase/settings", as: member });
    expect(res.json()).toMatchObject({ card: { isActive: true } });
    expect(res.body).not.toContain("SIMULATOR-CARD");
  });

  it("POST /api/purchase/card answers the processor's page; paying with 4111 1111 1111 1111 credits at once and returns the member", async () => {
    const t = await order(3000);
    expect(t).toMatchObject({ points: 1500 });
    expect(t.cardDetails.checkoutUrl).toContain("/dev/card/checkout?");
    const back = await payOnPage(t.cardDetails.checkoutUrl, "4111 1111 1111 1111");
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toContain(`/user/point-purchase?order=${t.transactionId}&result=success`);
    expect(await balance()).toBe(1500);
    const result = await server.request({
      method: "GET",
      url: `/api/purchase/card/${t.transactionId}/result`,
      as: member,
    });
    expect(result.statusCode).toBe(200);
    expect(result.json()).toMatchObject({
      transactionId: t.transactionId,
      status: "paid",
      points: 1500,
      balance: 1500,
    });
  });

  it("a declined card (4000 0000 0000 0002) ends the order failed; nothing is credited", async () => {
    const t = await order(1000);
    const back = await payOnPage(t.cardDetails.checkoutUrl, "4000000000000002");
    expect(back.headers.location).toContain("result=failure");
    const result = await server.request({ method: "GET", url: `/api/purchase/card/${t._id}/result`, as: member });
    expect(result.json()).toMatchObject({ status: "failed", balance: 1500 });
  });

  it("another card number is refused on the page with a message; a tampered request is refused; nothing changes", async () => {
    const t = await order(1000);
    const before = await snapshotTables(server, ...MONEY, "payment_notifications");
    const other = await payOnPage(t.cardDetails.checkoutUrl, "5555 5555 5555 4444");
    expect(other.statusCode).toBe(400);
    expect(other.body).toContain("テスト用のカード番号を入力してください。");
    const url = new URL(t.cardDetails.checkoutUrl);
    url.searchParams.set("amount", "1");
    const tampered = await server.app.inject({ method: "GET", url: `${url.pathname}${url.search}` });
    expect(tampered.statusCode).toBe(400);
    expect(await snapshotTables(server, ...MONEY, "payment_notifications")).toEqual(before);
  });

  it("POST /api/payments/card/notify refuses a bad signature (401), stores it, credits nothing", async () => {
    const t = await order(1000);
    const before = await snapshotTables(server, ...MONEY);
    const res = await server.request({
      method: "POST",
      url: "/api/payments/card/notify",
      headers: {
        "content-type": "application/json",
        "x-card-signature": "0".repeat(64),
        "x-card-timestamp": String(Math.floor(Date.now() / 1000)),
        "x-card-nonce": "forged-1",
      },
      payload: JSON.stringify({
        event: "payment.captured",
        transactionId: t.transactionId,
        paymentId: "P-1",
        amount: 1000,
      }),
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe(MSG.notificationRejected);
    expect(await snapshotTables(server, ...MONEY)).toEqual(before);
    const stored = await server.database.db
      .select()
      .from(paymentNotifications)
      .where(eq(paymentNotifications.transactionRef, t.transactionId));
    expect(stored).toEqual([expect.objectContaining({ provider: "card", outcome: "refused_signature" })]);
  });

  it("POST /dev/card/refund takes the purchase's points back through the ledger", async () => {
    const t = await order(2000);
    await payOnPage(t.cardDetails.checkoutUrl, "4111111111111111");
    expect(await balance()).toBe(2500);
    const refund = await server.app.inject({
      method: "POST",
      url: "/dev/card/refund",
      payload: { transactionId: t.transactionId },
    });
    expect(refund.statusCode).toBe(200);
    expect(refund.json()).toMatchObject({ status: "refunded" });
    expect(await balance()).toBe(1500);
  });

  it("another member's result is 404", async () => {
    const t = await order(1000);
    const other = await server.createUser();
    const res = await server.request({ method: "GET", url: `/api/purchase/card/${t.transactionId}/result`, as: other });
    expect(res.statusCode).toBe(404);
  });

  it("the admin settings answer the card with its secret masked; a PUT of the card section saves it", async () => {
    const admin = await server.createUser({ role: "admin" });
    const get = await server.request({ method: "GET", url: "/api/admin/payments/settings", as: admin });
    const [row] = await server.database.db.select().from(paymentSettings);
    expect(get.json().card).toMatchObject({ merchantId: "SIMULATOR-CARD-0001", secretSet: true, isActive: true });
    expect(get.body).not.toContain(row?.cardSecret as string);
    const put = await server.request({
      method: "PUT",
      url: "/api/admin/payments/settings",
      as: admin,
      payload: { card: { ageVerification: true } },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json().card).toMatchObject({ ageVerification: true, merchantId: "SIMULATOR-CARD-0001" });
  });
});

describe("the card simulator in production", () => {
  const base = () => ({
    ...PRODUCTION_PARTICULARS,
    ...PRODUCTION_TEST_SMS,
    JWT_SECRET: "x".repeat(40),
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "enmusubi-card-simulator-test-")),
    LOG_LEVEL: "silent",
  });

  for (const value of ["true", "1"]) {
    it(`CARD_SIMULATOR=${value} with NODE_ENV=production refuses to load the configuration`, () => {
      expect(() => loadConfig({ ...base(), NODE_ENV: "production", CARD_SIMULATOR: value })).toThrow(
        /CARD_SIMULATOR.*production/s,
      );
    });
  }

  it("production without it starts as before; development serves it when asked", () => {
    expect(loadConfig({ ...base(), NODE_ENV: "production" }).cardSimulator).toBe(false);
    expect(loadConfig({ ...base(), NODE_ENV: "development", CARD_SIMULATOR: "true" }).cardSimulator).toBe(true);
  });

  it("a configuration made by hand with it on in production is refused by buildApp before anything opens", async () => {
    const config = { ...loadConfig({ ...base(), NODE_ENV: "production" }), cardSimulator: true };
    await expect(buildApp(config, { logger: false })).rejects.toThrow(/CARD_SIMULATOR.*production/s);
  });
});
