import { type Db, sentAhead, users } from "@enmusubi/db";
import { onPostgres, waitForLockWaiters } from "@enmusubi/db/testing";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ScreeningRules } from "../src/screening/rules";
import { useTestApi } from "./helpers";

const api = useTestApi();
const db = () => api.database.db;

/** Resolves to "settled" with `promise`, or to "stuck" when it has not settled within `ms`. */
function settlesWithin(promise: Promise<unknown>, ms: number): Promise<"settled" | "stuck"> {
  return Promise.race([
    promise.then(() => "settled" as const),
    new Promise<"stuck">((resolve) => setTimeout(() => resolve("stuck"), ms)),
  ]);
}

describe("the compiled screening rules", () => {
  it("keeps what it read until the recheck, and reads again after invalidate", async () => {
    const rules = new ScreeningRules(60_000);
    const first = await rules.current(db());
    expect(await rules.current(db())).toBe(first);
    rules.invalidate();
    expect(await rules.current(db())).not.toBe(first);
  });
});

describe.runIf(onPostgres)("the compiled screening rules under concurrent transactions (PostgreSQL)", () => {
  it("a refresh begun in a transaction waiting for a lock does not hold up the transaction that holds it", async () => {
    // Every call rechecks: the moment a burst of paid sends meets the end of the recheck interval.
    const rules = new ScreeningRules(0);
    const known = await rules.current(db());
    const member = await api.createUser();
    const lockRow = (tx: Db) =>
      tx.select({ id: users.id }).from(users).where(eq(users.id, member.id)).for("no key update");
    let waiter: Promise<unknown> | undefined;
    const holder = db().transaction(async (holding) => {
      await lockRow(holding);
      waiter = db().transaction(async (waiting) => {
        // As payForAction does: the payer's lock first, then the action's reads behind it.
        const locked = sentAhead(lockRow(waiting));
        await rules.current(waiting);
        await locked;
      });
      await waitForLockWaiters(api.database, 1);
      // Before the fix this call waited for the waiting transaction's read, which waited for this one.
      const answered = rules.current(holding);
      expect(await settlesWithin(answered, 5_000)).toBe("settled");
      expect(await answered).toBe(known);
    });
    await holder;
    expect(await settlesWithin(waiter as Promise<unknown>, 10_000)).toBe("settled");
  }, 30_000);
});
