import { messages, pointCosts, scheduledMessages, users } from "@enmusubi/db";
import { insufficientPoints, MSG } from "@enmusubi/shared";
import { eq, inArray, like, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { dispatchBatch, dispatchDue } from "../src/scheduled/service";
import { type TestUser, useTestApi } from "./helpers";

const api = useTestApi();
let admin: TestUser;
let bob: TestUser;
let price: number;

beforeAll(async () => {
  admin = await api.createUser({ role: "admin" });
  bob = await api.createUser({ gender: "female" });
  const [row] = await api.database.db.select().from(pointCosts).where(eq(pointCosts.actionName, "send_message"));
  price = row?.pointCost ?? Number.NaN;
});

/** A due entry from `owner` to bob, inserted directly (as if its time had come). */
async function due(owner: TestUser, content: string) {
  const [row] = await api.database.db
    .insert(scheduledMessages)
    .values({
      type: "direct",
      ownerId: owner.id,
      recipients: [bob.id],
      content,
      scheduledAt: sql`now() - interval '1 minute'`,
      source: "user:favorite",
      needsPointDeduction: true,
    })
    .returning({ id: scheduledMessages.id });
  return row?.id as string;
}

const points = async (id: string) =>
  (await api.database.db.select({ p: users.points }).from(users).where(eq(users.id, id)))[0]?.p;

describe("batched dispatch", () => {
  it("one transaction sends, fails and marks a whole batch; each row once, each charge once", async () => {
    await dispatchDue(api.deps);
    const rich = await Promise.all([1, 2, 3].map(() => api.createUser({ points: 1000 })));
    const poor = await api.createUser({ points: 0 });
    const leaving = await api.createUser({ points: 1000 });
    const ids = [
      await due(rich[0] as TestUser, "バッチ 1"),
      await due(poor, "バッチ 貧"),
      await due(rich[1] as TestUser, "バッチ 2"),
      await due(leaving, "バッチ 退会"),
      await due(rich[2] as TestUser, "バッチ 3"),
    ];
    await api.caller(admin).adminUsers.delete({ id: leaving.id });
    expect(await dispatchBatch(api.deps, undefined, 10)).toEqual({ sent: 3, failed: 2 });
    expect(await dispatchBatch(api.deps, undefined, 10)).toBeNull();
    const rows = await api.database.db.select().from(scheduledMessages).where(inArray(scheduledMessages.id, ids));
    const byContent = new Map(rows.map((r) => [r.content, r]));
    for (const n of [1, 2, 3]) {
      const row = byContent.get(`バッチ ${n}`);
      expect(row).toMatchObject({ status: "sent", attempts: 1, lastError: null });
      expect(row?.sentAt).toBeInstanceOf(Date);
      expect(row?.messageIds).toHaveLength(1);
      const [message] = await api.database.db
        .select()
        .from(messages)
        .where(eq(messages.id, row?.messageIds?.[0] as string));
      expect(message).toMatchObject({ body: `バッチ ${n}`, toUserId: bob.id });
    }
    expect(byContent.get("バッチ 貧")).toMatchObject({
      status: "failed",
      attempts: 1,
      lastError: insufficientPoints(price, 0),
      messageIds: null,
    });
    expect(byContent.get("バッチ 退会")).toMatchObject({
      status: "failed",
      attempts: 1,
      lastError: MSG.scheduledSenderGone,
    });
    for (const member of rich) expect(await points(member.id)).toBe(1000 - price);
    expect(await points(poor.id)).toBe(0);
    expect(await api.database.db.select().from(messages).where(like(messages.body, "バッチ%"))).toHaveLength(3);
  });

  it("dispatchDue goes batch after batch until nothing is due", async () => {
    await dispatchDue(api.deps);
    const sender = await api.createUser({ points: 7 * price });
    for (let i = 0; i < 7; i++) await due(sender, `連続 ${i}`);
    expect(await dispatchDue(api.deps, undefined, { batch: 2 })).toEqual({ sent: 7, failed: 0 });
    expect(await points(sender.id)).toBe(0);
    expect(await api.database.db.select().from(messages).where(like(messages.body, "連続%"))).toHaveLength(7);
  });
});
