import { pointCosts, scheduledMessages } from "@enmusubi/db";
import { onPostgres } from "@enmusubi/db/testing";
import { insufficientPoints, MSG } from "@enmusubi/shared";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { SCHEDULED_PENDING_MAX } from "../src/scheduled/entries";
import { snapshotTables, type TestUser, useTestApi } from "./helpers";

/**
 * A member's pending scheduled entries are bounded in number (SCHEDULED_PENDING_MAX) and in cost:
 * what they would cost at today's prices may not exceed the member's balance (they are charged
 * when sent). Refusals write nothing.
 */
const api = useTestApi();
const TABLES = ["scheduled_messages", "messages", "point_ledger", "users"];
let admin: TestUser;
let bob: TestUser;
let carol: TestUser;
let price: number;

const later = () => new Date(Date.now() + 60 * 60 * 1000);

beforeAll(async () => {
  admin = await api.createUser({ role: "admin" });
  bob = await api.createUser({ gender: "female" });
  carol = await api.createUser({ gender: "female" });
  const [row] = await api.database.db.select().from(pointCosts).where(eq(pointCosts.actionName, "send_message"));
  price = row?.pointCost ?? Number.NaN;
  expect(price).toBeGreaterThan(0);
});

const schedule = (member: TestUser, recipientIds: string[] = [bob.id], content = "予約") =>
  api.caller(member).scheduled.create({
    type: recipientIds.length > 1 ? "batch" : "direct",
    recipientIds,
    content,
    scheduledAt: later(),
    source: "user:favorite",
  });

async function pendingOf(member: TestUser) {
  return api.database.db
    .select({ id: scheduledMessages.id })
    .from(scheduledMessages)
    .where(and(eq(scheduledMessages.ownerId, member.id), eq(scheduledMessages.status, "pending")));
}

describe("how many entries a member may have waiting", () => {
  it(`${SCHEDULED_PENDING_MAX} pending at most: the next is refused (409, Japanese), writing nothing; a cancel frees a place`, async () => {
    expect(SCHEDULED_PENDING_MAX).toBe(30);
    expect(MSG.scheduledPendingLimit).toContain(`${SCHEDULED_PENDING_MAX}件`);
    const member = await api.createUser({ points: 100_000 });
    const made = [];
    for (let i = 0; i < SCHEDULED_PENDING_MAX; i++) made.push(await schedule(member, [bob.id], `予約${i}`));
    const before = await snapshotTables(api, ...TABLES);
    await expect(schedule(member)).rejects.toMatchObject({ code: "CONFLICT", message: MSG.scheduledPendingLimit });
    expect(await snapshotTables(api, ...TABLES)).toEqual(before);
    await api.caller(member).scheduled.cancel({ id: made[0]?.id as string });
    await expect(schedule(member)).resolves.toMatchObject({ status: "pending" });
    expect(await pendingOf(member)).toHaveLength(SCHEDULED_PENDING_MAX);
  });

  it("sending at once is not an entry that waits: allowed with the cap reached", async () => {
    const member = await api.createUser({ points: 100_000 });
    for (let i = 0; i < SCHEDULED_PENDING_MAX; i++) await schedule(member);
    await expect(
      api.caller(member).scheduled.create({
        type: "direct",
        recipientIds: [bob.id],
        content: "今すぐ",
        scheduledAt: new Date(Date.now() - 1000),
        source: "user:favorite",
      }),
    ).resolves.toMatchObject({ status: "sent" });
  });

  it("administrators' entries are not capped", async () => {
    for (let i = 0; i < SCHEDULED_PENDING_MAX + 1; i++) {
      await api.caller(admin).scheduled.create({
        type: "direct",
        recipientIds: [bob.id],
        content: `運営の予約${i}`,
        scheduledAt: later(),
        source: "admin:email-mgmt",
      });
    }
    expect((await pendingOf(admin)).length).toBeGreaterThanOrEqual(SCHEDULED_PENDING_MAX + 1);
  });
});

describe("what the waiting entries would cost", () => {
  it("a member holding 100 pt schedules what 100 pt pays for at today's price; the next is refused (402 with the figures)", async () => {
    const member = await api.createUser({ points: 100 });
    const affordable = Math.floor(100 / price);
    for (let i = 0; i < affordable; i++) await schedule(member);
    const before = await snapshotTables(api, ...TABLES);
    await expect(schedule(member)).rejects.toMatchObject({
      code: "PAYMENT_REQUIRED",
      message: insufficientPoints((affordable + 1) * price, 100),
    });
    expect(await snapshotTables(api, ...TABLES)).toEqual(before);
    // Writing to the operator is free, so it still fits.
    await expect(schedule(member, [admin.id])).resolves.toMatchObject({ status: "pending" });
  });

  it("a batch costs one send per member recipient", async () => {
    const member = await api.createUser({ points: 2 * price - 1 });
    const before = await snapshotTables(api, ...TABLES);
    await expect(schedule(member, [bob.id, carol.id])).rejects.toMatchObject({
      code: "PAYMENT_REQUIRED",
      message: insufficientPoints(2 * price, 2 * price - 1),
    });
    expect(await snapshotTables(api, ...TABLES)).toEqual(before);
    await expect(schedule(member, [bob.id, admin.id])).resolves.toMatchObject({ status: "pending" });
  });

  it(`${SCHEDULED_PENDING_MAX + 10} future sends by a member holding 100 pt (past the pending cap): only what 100 pt pays for is accepted`, async () => {
    const member = await api.createUser({ points: 100 });
    let accepted = 0;
    for (let i = 0; i < SCHEDULED_PENDING_MAX + 10; i++) {
      try {
        await schedule(member, [bob.id], `大量${i}`);
        accepted += 1;
      } catch (error) {
        expect(error).toMatchObject({ code: "PAYMENT_REQUIRED" });
      }
    }
    expect(accepted).toBe(Math.floor(100 / price));
  });
});

describe.runIf(onPostgres)("entries created at the same time (PostgreSQL)", () => {
  it("60 concurrent creations: exactly the cap is stored, the others refused", async () => {
    const member = await api.createUser({ points: 100_000 });
    const results = await Promise.allSettled(
      Array.from({ length: 60 }, (_, i) => schedule(member, [i % 2 ? bob.id : carol.id], `同時${i}`)),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(SCHEDULED_PENDING_MAX);
    for (const r of results) if (r.status === "rejected") expect(r.reason).toMatchObject({ code: "CONFLICT" });
    expect(await pendingOf(member)).toHaveLength(SCHEDULED_PENDING_MAX);
  });

  it("20 concurrent creations by a member holding 100 pt: only what 100 pt pays for is stored", async () => {
    const member = await api.createUser({ points: 100 });
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => schedule(member, [bob.id], `残高${i}`)),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(Math.floor(100 / price));
    for (const r of results) if (r.status === "rejected") expect(r.reason).toMatchObject({ code: "PAYMENT_REQUIRED" });
    expect(await pendingOf(member)).toHaveLength(Math.floor(100 / price));
  });
});
