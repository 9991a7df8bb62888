import { type ApiDeps, createCaller, createContextInner, type Session } from "@enmusubi/api";
import { createTestAccount } from "@enmusubi/api/testing";
import { createDatabase, type Database, pointCosts } from "@enmusubi/db";
import { onPostgres, openTestDatabase } from "@enmusubi/db/testing";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { listenReferenceChanges } from "../src/reference-events";
import { testPasswords } from "./helpers";

const silent = { warn() {} } as never;

// Two connections to one database stand for two worker processes (or two instances).
describe.runIf(onPostgres)("reference lists kept in memory across processes (PostgreSQL)", () => {
  let one: Database;
  let two: Database;
  beforeAll(async () => {
    one = await openTestDatabase(inject("dbTemplate"));
    two = await createDatabase({ url: one.url as string, max: 2 });
    await listenReferenceChanges(two, silent);
  });
  afterAll(async () => {
    await two?.close();
    await one?.close();
  });

  const callerOf = (database: Database, session: Session | null = null) =>
    createCaller(createContextInner({ db: database.db } as ApiDeps, session));
  const costIn = async (database: Database) =>
    (await callerOf(database).reference.pointCosts.list()).find((r) => r.actionName === "profile_view")?.pointCost;
  const until = async (check: () => Promise<boolean>) => {
    const deadline = Date.now() + 5_000;
    while (!(await check()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  };

  it("another process's change reaches this one's copy by NOTIFY; an unannounced one does not", async () => {
    const admin = await createTestAccount(one.db, testPasswords, { role: "admin" });
    expect(await costIn(two)).toBe(15);

    await one.db.update(pointCosts).set({ pointCost: 9 }).where(eq(pointCosts.actionName, "profile_view"));
    expect(await costIn(two)).toBe(15);

    await callerOf(one, admin.session).reference.pointCosts.update({
      actionName: "profile_view",
      pointCost: 8,
    });
    await until(async () => (await costIn(two)) === 8);
    expect(await costIn(two)).toBe(8);

    // By hand, as the cache's comment says: the notification alone makes every process read again.
    await one.db.update(pointCosts).set({ pointCost: 6 }).where(eq(pointCosts.actionName, "profile_view"));
    await one.sql?.notify("enmusubi_reference", "point_costs");
    await until(async () => (await costIn(two)) === 6);
    expect(await costIn(two)).toBe(6);
  });
});
