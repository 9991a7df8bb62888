import { boardPosts, inquiries, messages, pointLedger, users } from "@enmusubi/db";
import { ageOn } from "@enmusubi/shared";
import { eq, inArray, like, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { DEMO_MEMBER_COUNT, DEMO_PASSWORD, demoMembers, seedDemo } from "../src/cli/demo-data";
import { testPasswords, useTestServer } from "./helpers";

const server = useTestServer();

async function counts() {
  const db = server.database.db;
  const demoIds = db.select({ id: users.id }).from(users).where(like(users.userId, "demo%"));
  const [u] = await db.select({ n: sql<number>`count(*)::int` }).from(users).where(like(users.userId, "demo%"));
  const [m] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(messages)
    .where(inArray(messages.fromUserId, demoIds));
  const [p] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(boardPosts)
    .where(inArray(boardPosts.authorId, demoIds));
  const [q] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(inquiries)
    .where(inArray(inquiries.userId, demoIds));
  const [l] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(pointLedger)
    .where(inArray(pointLedger.userId, demoIds));
  return { users: u?.n, messages: m?.n, posts: p?.n, inquiries: q?.n, ledger: l?.n };
}

describe("demo seed", () => {
  it("creates the demo members with their content, and a second run adds nothing", async () => {
    const first = await seedDemo(server.database.db, testPasswords);
    expect(first.created).toHaveLength(DEMO_MEMBER_COUNT);
    expect(first.messages).toBeGreaterThan(0);
    expect(first.posts).toBeGreaterThan(0);
    expect(first.inquiries).toBe(1);
    const after = await counts();
    expect(after).toMatchObject({
      users: DEMO_MEMBER_COUNT,
      messages: first.messages,
      posts: first.posts,
      inquiries: 1,
    });

    const second = await seedDemo(server.database.db, testPasswords);
    expect(second).toMatchObject({ created: [], messages: 0, posts: 0, inquiries: 0 });
    expect(await counts()).toEqual(after);
  });

  it("makes well-formed members: alternating genders, ages 20–45, a prefecture, reference rows", async () => {
    const rows = await server.database.db.select().from(users).where(like(users.userId, "demo%")).orderBy(users.userId);
    expect(rows.map((r) => r.userId)).toEqual(
      Array.from({ length: DEMO_MEMBER_COUNT }, (_, i) => `demo${String(i + 1).padStart(2, "0")}`),
    );
    const today = new Date();
    for (const [i, row] of rows.entries()) {
      expect(row.gender).toBe(i % 2 === 0 ? "male" : "female");
      expect(row.role).toBe("user");
      expect(row.name).toMatch(/^\p{Script=Han}+ [\p{Script=Han}\p{Script=Hiragana}]+$/u);
      expect(row.address).toMatch(/[都道府県]$/);
      expect(row.occupationId).not.toBeNull();
      expect(row.annualIncomeId).not.toBeNull();
      const age = ageOn(row.birthday ?? "", today);
      expect(age).toBeGreaterThanOrEqual(20);
      expect(age).toBeLessThanOrEqual(45);
    }
    expect(new Set(rows.map((r) => r.name)).size).toBe(DEMO_MEMBER_COUNT);
    // Deterministic: the stored members are exactly the computed list.
    expect(rows.map((r) => [r.userId, r.name, r.gender, r.birthday, r.address, r.points, r.sendPoints])).toEqual(
      demoMembers(today).map((m) => [m.userID, m.name, m.gender, m.birthday, m.address, m.points, m.sendPoints]),
    );
  });

  it("keeps the ledger consistent: per account, the sum of deltas equals the balance", async () => {
    const rows = await server.database.db
      .select({ userId: users.userId, points: users.points, sendPoints: users.sendPoints, id: users.id })
      .from(users)
      .where(like(users.userId, "demo%"));
    expect(rows).toHaveLength(DEMO_MEMBER_COUNT);
    for (const row of rows) {
      const sums = await server.database.db
        .select({ account: pointLedger.account, total: sql<number>`sum(${pointLedger.delta})::int` })
        .from(pointLedger)
        .where(eq(pointLedger.userId, row.id))
        .groupBy(pointLedger.account);
      const byAccount = Object.fromEntries(sums.map((s) => [s.account, s.total]));
      expect({ userID: row.userId, points: byAccount.points ?? 0, sendPoints: byAccount.send_points ?? 0 }).toEqual({
        userID: row.userId,
        points: row.points,
        sendPoints: row.sendPoints,
      });
      expect(row.points).toBeGreaterThan(0);
    }
  });

  it("replies are linked to the message they answer", async () => {
    const replies = await server.database.db
      .select({ replyToId: messages.replyToId })
      .from(messages)
      .where(sql`${messages.replyToId} is not null`);
    expect(replies.length).toBeGreaterThan(0);
    for (const reply of replies) {
      const [original] = await server.database.db
        .select({ hasReply: messages.hasReply })
        .from(messages)
        .where(eq(messages.id, reply.replyToId ?? ""));
      expect(original?.hasReply).toBe(true);
    }
  });

  it("lets a demo member log in with the shared password", async () => {
    const res = await server.request({
      method: "POST",
      url: "/api/auth/login",
      payload: { userID: "demo02", password: DEMO_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ token: expect.any(String) });
  });
});
