import { configureSmartPitForSimulator, SIMULATOR_SMARTPIT_ID } from "@enmusubi/api";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/config";
import { prepareSmartPit } from "../src/database";
import { snapshotTables, type TestServer, useTestServer } from "./helpers";
import { PRODUCTION_PARTICULARS, PRODUCTION_TEST_SMS } from "./legal-env";

/**
 * SMARTPIT_SIMULATOR (decision 0039): the development server configures SmartPit for the simulator
 * when it has no configuration, so a member can buy at once; without the simulator nothing is
 * configured; an administrator's settings are never replaced.
 */
const simulator = useTestServer({ env: { SMARTPIT_SIMULATOR: "true" } });
const plain = useTestServer();

const smartPitRow = async (server: TestServer) => {
  const result = await server.database.db.execute(
    sql`select smart_pit_id as id, smart_pit_api_key as key, smart_pit_is_active as active from payment_settings`,
  );
  const rows = Array.isArray(result) ? [...result] : (result as { rows: unknown[] }).rows;
  return rows[0] as { id: string; key: string; active: boolean };
};

const silent = { info: () => {}, warn: () => {} } as never;

describe("SmartPit with the development simulator", () => {
  it("a member orders with SmartPit and pays through the simulator, no administrator having configured anything", async () => {
    const buyer = await simulator.createUser();
    const settings = await simulator.request({ method: "GET", url: "/api/purchase/settings", as: buyer });
    expect(settings.json().smartPit).toEqual({ isActive: true });
    const order = await simulator.request({
      method: "POST",
      url: "/api/purchase",
      as: buyer,
      payload: { paymentMethod: "smart_pit", amount: 1000 },
    });
    expect(order.statusCode).toBe(201);
    const { transactionId, smartPitDetails } = order.json<{
      transactionId: string;
      smartPitDetails: { paymentCode: string };
    }>();
    expect(smartPitDetails.paymentCode).toMatch(/^\d{14}$/);
    const paid = await simulator.app.inject({ method: "POST", url: "/dev/smartpit/pay", payload: { transactionId } });
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toMatchObject({ transactionId, status: "paid" });
    const me = await simulator.request({ method: "GET", url: "/api/auth/me", as: buyer });
    expect(me.json().points).toBe(100 + 500);
  });

  it("the administrator sees the simulator's id and a key that is set, never the key itself", async () => {
    const admin = await simulator.createUser({ role: "admin" });
    const res = await simulator.request({ method: "GET", url: "/api/admin/payments/settings", as: admin });
    expect(res.statusCode).toBe(200);
    const row = await smartPitRow(simulator);
    expect(row).toMatchObject({ id: SIMULATOR_SMARTPIT_ID, active: true });
    expect(row.key).toMatch(/^sim_[\w-]{32}$/);
    expect(res.body).toContain(SIMULATOR_SMARTPIT_ID);
    expect(res.body).not.toContain(row.key);
  });

  it("an administrator's SmartPit settings are never replaced, and several workers configure it once", async () => {
    const admin = await simulator.createUser({ role: "admin" });
    const saved = await simulator.request({
      method: "PUT",
      url: "/api/admin/payments/settings",
      as: admin,
      payload: { smartPit: { smartPitId: "SP-REAL-01", apiKey: "real-key-000111", isActive: false } },
    });
    expect(saved.statusCode).toBe(200);
    const before = await snapshotTables(simulator, "payment_settings");
    expect(await configureSmartPitForSimulator(simulator.database.db)).toBe(false);
    await prepareSmartPit(simulator.database.db, simulator.config, silent);
    expect(await snapshotTables(simulator, "payment_settings")).toEqual(before);

    // Unconfigured again: two workers starting at once configure it once.
    await simulator.database.db.execute(sql`update payment_settings set smart_pit_id = '', smart_pit_api_key = ''`);
    const answers = await Promise.all([
      configureSmartPitForSimulator(simulator.database.db),
      configureSmartPitForSimulator(simulator.database.db),
    ]);
    expect(answers.filter(Boolean)).toHaveLength(1);
    // The administrator's switch (off) is kept.
    expect(await smartPitRow(simulator)).toMatchObject({ id: SIMULATOR_SMARTPIT_ID, active: false });
  });
});

describe("SmartPit without the simulator", () => {
  it("nothing is configured: SmartPit is not offered and an order for it is refused, writing nothing", async () => {
    expect(await smartPitRow(plain)).toMatchObject({ id: "", key: "" });
    const buyer = await plain.createUser();
    const settings = await plain.request({ method: "GET", url: "/api/purchase/settings", as: buyer });
    expect(settings.json().smartPit).toEqual({ isActive: false });
    const before = await snapshotTables(plain, "payment_settings", "purchase_transactions");
    const order = await plain.request({
      method: "POST",
      url: "/api/purchase",
      as: buyer,
      payload: { paymentMethod: "smart_pit", amount: 1000 },
    });
    expect(order.statusCode).toBe(400);
    expect(await snapshotTables(plain, "payment_settings", "purchase_transactions")).toEqual(before);
  });

  it("in production the simulator is refused before anything is configured", async () => {
    const production = {
      ...loadConfig({
        NODE_ENV: "production",
        JWT_SECRET: "x".repeat(40),
        ...PRODUCTION_PARTICULARS,
        ...PRODUCTION_TEST_SMS,
      }),
      smartPitSimulator: true,
    };
    const before = await snapshotTables(plain, "payment_settings");
    await expect(prepareSmartPit(plain.database.db, production, silent)).rejects.toThrow(/SMARTPIT_SIMULATOR/);
    expect(await snapshotTables(plain, "payment_settings")).toEqual(before);
  });
});
