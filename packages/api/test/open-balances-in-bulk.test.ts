import { pointLedger, pointLots, rowsOf, users } from "@enmusubi/db";
import { FREE_POINT_VALIDITY_DAYS } from "@enmusubi/shared";
import { and, eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { changeBalance, openBalancesInBulk } from "../src/points/ledger";
import { snapshotTables, useTestApi } from "./helpers";

const api = useTestApi();
const db = () => api.database.db;

/** Members at 0 on both accounts, as the benchmark seeds them before opening their balances. */
async function emptyMembers(count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push((await api.createUser({ points: 0, sendPoints: 0 })).id);
  return ids;
}

/** Per member and account: the balance, the ledger sum and (points only) the unspent lot remainders. */
async function books(ids: string[]) {
  const rows = await rowsOf<{
    id: string;
    points: number;
    sendPoints: number;
    pointsLedger: number;
    sendLedger: number;
    lots: number;
  }>(
    db(),
    sql`select u.id, u.points, u.send_points as "sendPoints",
          (select coalesce(sum(l.delta), 0)::int from ${pointLedger} l
            where l.user_id = u.id and l.account = 'points') as "pointsLedger",
          (select coalesce(sum(l.delta), 0)::int from ${pointLedger} l
            where l.user_id = u.id and l.account = 'send_points') as "sendLedger",
          (select coalesce(sum(l.remaining), 0)::int from ${pointLots} l where l.user_id = u.id) as lots
        from ${users} u where u.id in ${ids}`,
  );
  return new Map(rows.map((r) => [r.id, r]));
}

describe("openBalancesInBulk", () => {
  it("opens many balances at once: balance = ledger sum = lot remainders for each member", async () => {
    const ids = await emptyMembers(6);
    const rows = ids.map((userId, i) => ({ userId, points: i === 0 ? 0 : 100 * i + 7, sendPoints: i === 5 ? 0 : 20 }));
    expect(await openBalancesInBulk(db(), rows)).toBe(6);

    const after = await books(ids);
    for (const row of rows) {
      expect(after.get(row.userId)).toEqual({
        id: row.userId,
        points: row.points,
        sendPoints: row.sendPoints,
        pointsLedger: row.points,
        sendLedger: row.sendPoints,
        lots: row.points,
      });
    }
    // One `initial` ledger row per non-zero account, with its balance after; one free lot per points credit.
    const ledger = await db().select().from(pointLedger).where(inArray(pointLedger.userId, ids));
    expect(ledger).toHaveLength(rows.filter((r) => r.points > 0).length + rows.filter((r) => r.sendPoints > 0).length);
    for (const entry of ledger) {
      expect(entry.kind).toBe("initial");
      expect(entry.balanceAfter).toBe(entry.delta);
    }
    const lots = await db()
      .select({
        ledgerId: pointLots.ledgerId,
        source: pointLots.source,
        paid: pointLots.paid,
        amount: pointLots.amount,
        remaining: pointLots.remaining,
        days: sql<number>`round(extract(epoch from ${pointLots.expiresAt} - now()) / 86400)::int`,
      })
      .from(pointLots)
      .where(inArray(pointLots.userId, ids));
    const pointsEntries = ledger.filter((entry) => entry.account === "points");
    expect(lots).toHaveLength(pointsEntries.length);
    for (const lot of lots) {
      const entry = pointsEntries.find((e) => e.id === lot.ledgerId);
      expect(lot).toEqual({
        ledgerId: entry?.id,
        source: "initial",
        paid: false,
        amount: entry?.delta,
        remaining: entry?.delta,
        days: FREE_POINT_VALIDITY_DAYS,
      });
    }
  });

  it("leaves balances the ledger can spend from as any other: a charge takes from the opened lot", async () => {
    const [id = ""] = await emptyMembers(1);
    await openBalancesInBulk(db(), [{ userId: id, points: 300, sendPoints: 20 }]);
    await db().transaction((tx) =>
      changeBalance(tx, { userId: id, delta: -120, kind: "charge", actionName: "send_message" }),
    );
    const [lot] = await db().select().from(pointLots).where(eq(pointLots.userId, id));
    expect(lot?.remaining).toBe(180);
    expect((await books([id])).get(id)).toMatchObject({ points: 180, pointsLedger: 180, lots: 180 });
  });

  it("refuses the whole call when one account is not new, is listed twice or is deleted; nothing is written", async () => {
    const [fresh = "", other = "", gone = ""] = await emptyMembers(3);
    const funded = (await api.createUser({ points: 50, sendPoints: 0 })).id;
    await db().update(users).set({ deletedAt: new Date() }).where(eq(users.id, gone));
    const before = await snapshotTables(api, "users", "point_ledger", "point_lots");
    for (const rows of [
      [
        { userId: fresh, points: 10, sendPoints: 1 },
        { userId: funded, points: 10, sendPoints: 1 },
      ],
      [
        { userId: other, points: 10, sendPoints: 1 },
        { userId: other, points: 20, sendPoints: 1 },
      ],
      [
        { userId: fresh, points: 10, sendPoints: 1 },
        { userId: gone, points: 10, sendPoints: 1 },
      ],
    ]) {
      await expect(openBalancesInBulk(db(), rows)).rejects.toThrow(/cannot be opened/);
    }
    await expect(openBalancesInBulk(db(), [{ userId: fresh, points: -5, sendPoints: 0 }])).rejects.toThrow(/≥ 0/);
    expect(await snapshotTables(api, "users", "point_ledger", "point_lots")).toEqual(before);
    const ledger = await db()
      .select()
      .from(pointLedger)
      .where(and(inArray(pointLedger.userId, [fresh, other]), eq(pointLedger.kind, "initial")));
    expect(ledger).toEqual([]);
    expect(await openBalancesInBulk(db(), [])).toBe(0);
  });
});
