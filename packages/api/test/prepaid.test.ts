import { pointLedger, prepaidActions, users } from "@enmusubi/db";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { chargeAction, prepayAction, refundExpiredPrepaid } from "../src/points/ledger";
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
    expect(await refundExpiredPrepaid(api.database.db)).toBeGreaterThanOrEqual(1);
    expect(await refundExpiredPrepaid(api.database.db)).toBe(0);
    expect(await balanceAndLedgerSum(member.id)).toEqual({ balance: 100, ledgerSum: 100 });
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
