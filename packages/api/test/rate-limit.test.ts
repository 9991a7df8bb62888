import { createDatabase, type Database, rateLimitCounters } from "@enmusubi/db";
import { onPostgres } from "@enmusubi/db/testing";
import { MSG } from "@enmusubi/shared";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backgroundJobs } from "../src/jobs";
import {
  createDatabaseRateLimiter,
  enforceRateLimit,
  type RateLimiter,
  sweepRateLimitCounters,
} from "../src/security/rate-limit";
import { useTestApi } from "./helpers";

const api = useTestApi();
const rule = { max: 3, windowMs: 60_000 };

/** Ends the current window of `key` as if its time had passed. */
async function endWindow(key: string) {
  await api.database.db
    .update(rateLimitCounters)
    .set({ windowEndsAt: sql`now() - interval '1 second'` })
    .where(eq(rateLimitCounters.key, key));
}

describe("the database rate limiter", () => {
  let limiter: RateLimiter;
  beforeAll(() => {
    limiter = createDatabaseRateLimiter(api.database.db);
  });

  it("allows `max` attempts in a window, refuses the next ones, and starts again when the window ends", async () => {
    const results: boolean[] = [];
    for (let i = 0; i < 5; i++) results.push(await limiter.hit("t:basic", rule));
    expect(results).toEqual([true, true, true, false, false]);
    // Another key has its own count.
    expect(await limiter.hit("t:other", rule)).toBe(true);
    await endWindow("t:basic");
    expect(await limiter.hit("t:basic", rule)).toBe(true);
    const [row] = await api.database.db.select().from(rateLimitCounters).where(eq(rateLimitCounters.key, "t:basic"));
    expect(row?.count).toBe(1);
    expect(row?.windowEndsAt.getTime()).toBeGreaterThan(Date.now() + 50_000);
  });

  it("reset forgets the key's attempts", async () => {
    for (let i = 0; i < 3; i++) await limiter.hit("t:reset", rule);
    expect(await limiter.hit("t:reset", rule)).toBe(false);
    await limiter.reset("t:reset");
    expect(await limiter.hit("t:reset", rule)).toBe(true);
  });

  it("a very long key (client input) is counted as its digest", async () => {
    const key = `signup:email:${"a".repeat(5000)}@example.jp`;
    for (let i = 0; i < 3; i++) expect(await limiter.hit(key, rule)).toBe(true);
    expect(await limiter.hit(key, rule)).toBe(false);
    const keys = (await api.database.db.select({ key: rateLimitCounters.key }).from(rateLimitCounters)).map(
      (r) => r.key,
    );
    expect(keys.every((k) => k.length <= 200)).toBe(true);
  });

  it("enforceRateLimit counts every rule and answers 429 in Japanese when any is used up", async () => {
    const tight = { max: 1, windowMs: 60_000 };
    await enforceRateLimit(limiter, [
      ["t:a", tight],
      ["t:b", rule],
    ]);
    await expect(
      enforceRateLimit(limiter, [
        ["t:a", tight],
        ["t:b", rule],
      ]),
    ).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS", message: MSG.tooManyRequests });
    const [b] = await api.database.db.select().from(rateLimitCounters).where(eq(rateLimitCounters.key, "t:b"));
    expect(b?.count).toBe(2);
  });

  it("the sweep removes ended windows only, and runs as a background job", async () => {
    await limiter.hit("t:sweep-old", rule);
    await limiter.hit("t:sweep-live", rule);
    await endWindow("t:sweep-old");
    expect(await sweepRateLimitCounters(api.database.db)).toBeGreaterThanOrEqual(1);
    const keys = (await api.database.db.select({ key: rateLimitCounters.key }).from(rateLimitCounters)).map(
      (r) => r.key,
    );
    expect(keys).toContain("t:sweep-live");
    expect(keys).not.toContain("t:sweep-old");
    expect(backgroundJobs.map((j) => j.name)).toContain("rate-limit-sweep");
  });
});

// Two connection pools on one database stand for two worker processes (or two instances).
describe.runIf(onPostgres)("two limiters on one PostgreSQL database", () => {
  let second: Database;
  beforeAll(async () => {
    second = await createDatabase({ url: api.database.url as string, max: 5 });
  });
  afterAll(async () => {
    await second?.close();
  });

  it("200 concurrent attempts through both never pass the limit in total", async () => {
    const limiters = [createDatabaseRateLimiter(api.database.db), createDatabaseRateLimiter(second.db)];
    const limit = { max: 17, windowMs: 60_000 };
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => (limiters[i % 2] as RateLimiter).hit("t:race", limit)),
    );
    expect(results.filter(Boolean)).toHaveLength(17);
    const [row] = await api.database.db.select().from(rateLimitCounters).where(eq(rateLimitCounters.key, "t:race"));
    expect(row?.count).toBe(200);
  });

  it("200 concurrent attempts under two rules: each attempt has one place on both keys", async () => {
    const limiters = [createDatabaseRateLimiter(api.database.db), createDatabaseRateLimiter(second.db)];
    const hour = { max: 10, windowMs: 60_000 };
    const day = { max: 30, windowMs: 120_000 };
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        (limiters[i % 2] as RateLimiter).hitAll([
          ["t:pair-hour", hour],
          ["t:pair-day", day],
        ]),
      ),
    );
    // Counted rule by rule, an attempt could be 5th on one key and 31st on the other: fewer than 10 passed.
    expect(results.filter(Boolean)).toHaveLength(10);
    const counts = await api.database.db
      .select({ key: rateLimitCounters.key, count: rateLimitCounters.count })
      .from(rateLimitCounters)
      .where(sql`${rateLimitCounters.key} like 't:pair-%'`)
      .orderBy(rateLimitCounters.key);
    expect(counts).toEqual([
      { key: "t:pair-day", count: 200 },
      { key: "t:pair-hour", count: 200 },
    ]);
  });

  it("concurrent logins through both: 10 wrong passwords are checked, the rest refused", async () => {
    const { createCaller } = await import("../src/root");
    const { createContextInner } = await import("../src/context");
    const member = await api.createUser();
    const callers = [api.database.db, second.db].map((db) =>
      createCaller(createContextInner({ ...api.deps, db, limiter: createDatabaseRateLimiter(db) }, null, "192.0.2.77")),
    );
    // More attempts than the per-IP allowance (30): the account's and the client's counters count
    // each attempt in one statement, so the first 10 pass both and the rest are refused.
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) =>
        callers[i % 2]?.auth.login({ userID: member.userID, password: "bad-password" }),
      ),
    );
    const codes = results.map((r) => (r.status === "rejected" ? (r.reason as { code: string }).code : "OK"));
    expect(codes.filter((c) => c === "UNAUTHORIZED")).toHaveLength(10);
    expect(codes.filter((c) => c === "TOO_MANY_REQUESTS")).toHaveLength(30);
  });
});
