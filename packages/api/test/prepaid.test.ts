import { pointLedger, prepaidActions, users } from "@enmusubi/db";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { chargeAction } from "../src/points/charge";
import { prepayAction, refundExpiredPrepaid } from "../src/points/prepaid";
import { useTestApi } from "./helpers";

const api = useTestApi();

async function balanceAndLedgerSum(userId: string) {
  const [user] = await api.database.db.select({ points: users.points }).from(users).where(eq(users.id, userId));
  const [sum] = await api.database.db
    .select({ total: sql<number>`coalesce(sum(${pointLedger.delta}), 0)::int` })
    .from(pointLedger)
    .where(sql`${pointLedger.userId} = ${userId} and ${pointLedger.account} = 'points'`);
  return { balance: user?.points, ledgerSum: sum?.total };
}

describe("prepaid units from the legacy deduct-points call", () => {
  it("are consumed by the action that follows, so it is charged once", async () => {
    const member = await api.createUser({ points: 200 });
    const paid = await prepayAction(api.database.db, { userId: member.id, actionName: "send_message", quantity: 2 });
    expect(paid).toMatchObject({ success: true, required: 96, available: 200, remainingPoints: 104 });
    const charged = await api.database.db.transaction((tx) =>
      chargeAction(tx, { userId: member.id, actionName: "send_message", quantity: 2 }),
    );
    expect(charged.remainingPoints).toBe(104);
    const third = await api.database.db.transaction((tx) =>
      chargeAction(tx, { userId: member.id, actionName: "send_message" }),
    );
    expect(third.remainingPoints).toBe(56);
    expect(await balanceAndLedgerSum(member.id)).toEqual({ balance: 56, ledgerSum: 56 });
  });

  it("are refunded once when they expire unused", async () => {
    const member = await api.createUser({ points: 100 });
    await prepayAction(api.database.db, { userId: member.id, actionName: "profile_view", quantity: 1 });
    expect((await balanceAndLedgerSum(member.id)).balance).toBe(85);
    await api.database.db
      .update(prepaidActions)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(eq(prepaidActions.userId, member.id));
    expect((await refundExpiredPrepaid(api.database.db)).refunded).toBeGreaterThanOrEqual(1);
    expect(await refundExpiredPrepaid(api.database.db)).toEqual({ refunded: 0, failed: [] });
    expect(await balanceAndLedgerSum(member.id)).toEqual({ balance: 100, ledgerSum: 100 });
  });

  it("a member who has left is refunded too, with a ledger row, and cannot hold back the others", async () => {
    const leaver = await api.createUser({ points: 100 });
    const stayer = await api.createUser({ points: 100 });
    const admin = await api.createUser({ role: "admin" });
    for (const m of [leaver, stayer]) {
      await prepayAction(api.database.db, { userId: m.id, actionName: "profile_view" });
    }
    await api.caller(admin).adminUsers.delete({ id: leaver.id });
    await api.database.db
      .update(prepaidActions)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(sql`${prepaidActions.userId} in (${leaver.id}, ${stayer.id})`);
    const run = await refundExpiredPrepaid(api.database.db);
    expect(run.failed).toEqual([]);
    expect(await balanceAndLedgerSum(stayer.id)).toEqual({ balance: 100, ledgerSum: 100 });
    expect(await balanceAndLedgerSum(leaver.id)).toEqual({ balance: 100, ledgerSum: 100 });
    const [closing] = await api.database.db
      .select()
      .from(pointLedger)
      .where(sql`${pointLedger.userId} = ${leaver.id} and ${pointLedger.kind} = 'refund'`);
    expect(closing).toMatchObject({ delta: 15, note: expect.stringContaining("退会済み") });
    const open = await api.database.db
      .select()
      .from(prepaidActions)
      .where(sql`${prepaidActions.userId} = ${leaver.id} and ${prepaidActions.remaining} > 0`);
    expect(open).toEqual([]);
  });

  it("one credit that cannot be refunded is reported and the rest go ahead", async () => {
    const members = [await api.createUser({ points: 100 }), await api.createUser({ points: 50 })];
    for (const m of members) await prepayAction(api.database.db, { userId: m.id, actionName: "profile_view" });
    await api.database.db
      .update(prepaidActions)
      .set({ expiresAt: sql`now() - interval '10 minutes'` })
      .where(sql`${prepaidActions.userId} in (${members[0]?.id}, ${members[1]?.id})`);
    // A constraint that only the first member's refund (85 → 100) breaks makes that one row fail.
    await api.database.db.execute(
      sql`alter table users add constraint test_refund_blocker check (points <> 100) not valid`,
    );
    try {
      const run = await refundExpiredPrepaid(api.database.db);
      expect(run.failed.map((f) => f.creditId)).toHaveLength(1);
      expect(run.refunded).toBeGreaterThanOrEqual(1);
      expect(await balanceAndLedgerSum(members[1]?.id ?? "")).toEqual({ balance: 50, ledgerSum: 50 });
    } finally {
      await api.database.db.execute(sql`alter table users drop constraint test_refund_blocker`);
    }
  });

  it("an expired unit is not consumed by a later action", async () => {
    const member = await api.createUser({ points: 100 });
    await prepayAction(api.database.db, { userId: member.id, actionName: "profile_view" });
    await api.database.db
      .update(prepaidActions)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(eq(prepaidActions.userId, member.id));
    const charged = await api.database.db.transaction((tx) =>
      chargeAction(tx, { userId: member.id, actionName: "profile_view" }),
    );
    expect(charged.remainingPoints).toBe(70);
  });
});
