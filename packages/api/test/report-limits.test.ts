import { boardPosts, rateLimitCounters } from "@enmusubi/db";
import { onPostgres } from "@enmusubi/db/testing";
import { MSG } from "@enmusubi/shared";
import { like, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createDatabaseRateLimiter, RATE_LIMITS } from "../src/security/rate-limit";
import { snapshotTables, type TestUser, useTestApi } from "./helpers";

/** Reports per member: RATE_LIMITS.reportPerMemberHour and reportPerMemberDay, counted in the database. */
const api = useTestApi();
let author: TestUser;

beforeAll(async () => {
  api.deps.limiter = createDatabaseRateLimiter(api.database.db);
  author = await api.createUser({ gender: "female" });
});

async function posts(count: number): Promise<string[]> {
  const rows = await api.database.db
    .insert(boardPosts)
    .values(Array.from({ length: count }, (_, i) => ({ authorId: author.id, title: `投稿${i}`, content: "本文" })))
    .returning({ id: boardPosts.id });
  return rows.map((r) => r.id);
}

const report = (member: TestUser, targetId: string) =>
  api.caller(member).safety.report({ targetType: "board_post", targetId, reason: "business" });

describe("reports are limited per member", () => {
  it("the figures are what a real desk would take: 10 an hour, 30 a day", () => {
    expect(RATE_LIMITS.reportPerMemberHour).toEqual({ max: 10, windowMs: 60 * 60_000 });
    expect(RATE_LIMITS.reportPerMemberDay).toEqual({ max: 30, windowMs: 24 * 60 * 60_000 });
  });

  it(`after ${RATE_LIMITS.reportPerMemberHour.max} in an hour the next is refused (429, Japanese) and stores nothing`, async () => {
    const member = await api.createUser();
    const targets = await posts(RATE_LIMITS.reportPerMemberHour.max + 1);
    for (const id of targets.slice(0, -1)) await report(member, id);
    const before = await snapshotTables(api, "reports");
    await expect(report(member, targets.at(-1) as string)).rejects.toMatchObject({
      code: "TOO_MANY_REQUESTS",
      message: MSG.reportTooMany,
    });
    expect(await snapshotTables(api, "reports")).toEqual(before);
    // Another member is not affected.
    await expect(report(await api.createUser(), targets.at(-1) as string)).resolves.toMatchObject({ success: true });
  });

  it(`a new hour allows more, up to ${RATE_LIMITS.reportPerMemberDay.max} a day`, async () => {
    const member = await api.createUser();
    const targets = await posts(RATE_LIMITS.reportPerMemberDay.max + 1);
    let sent = 0;
    while (sent < RATE_LIMITS.reportPerMemberDay.max) {
      for (let i = 0; i < RATE_LIMITS.reportPerMemberHour.max; i++) await report(member, targets[sent++] as string);
      // The hour's window ends (as if an hour had passed); the day's goes on.
      await api.database.db
        .update(rateLimitCounters)
        .set({ windowEndsAt: sql`now() - interval '1 second'` })
        .where(like(rateLimitCounters.key, `report:hour:${member.id}`));
    }
    const before = await snapshotTables(api, "reports");
    await expect(report(member, targets.at(-1) as string)).rejects.toMatchObject({
      code: "TOO_MANY_REQUESTS",
      message: MSG.reportTooMany,
    });
    expect(await snapshotTables(api, "reports")).toEqual(before);
  });
});

describe.runIf(onPostgres)("a burst of reports at once (PostgreSQL)", () => {
  it("40 concurrent reports by one member: exactly the hour's 10 are stored", async () => {
    const member = await api.createUser();
    const targets = await posts(40);
    const results = await Promise.allSettled(targets.map((id) => report(member, id)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(RATE_LIMITS.reportPerMemberHour.max);
    for (const r of results) {
      if (r.status === "rejected") expect(r.reason).toMatchObject({ code: "TOO_MANY_REQUESTS" });
    }
    const stored = await api.database.db.execute(
      sql`select count(*)::int as n from reports where reporter_id = ${member.id}`,
    );
    const rows = Array.isArray(stored) ? stored : (stored as { rows: Array<{ n: number }> }).rows;
    expect(rows[0]).toEqual({ n: RATE_LIMITS.reportPerMemberHour.max });
  });
});
