import { pointLedger, pointLots, pointLotUsages } from "@enmusubi/db";
import { describe, expect, it } from "vitest";
import { baseDatesBetween, unusedBalanceCsv, unusedBalanceReport } from "../src/payments/report";
import { useTestApi } from "./helpers";

/** The value, or a failed test when it is missing. */
function must<T>(value: T | null | undefined): T {
  if (value === null || value === undefined) throw new Error("expected a value");
  return value;
}

/** Its own database: the report reads every paid lot there is. */
const api = useTestApi();

const jst = (local: string) => new Date(`${local}+09:00`);

describe("unused-balance report (資金決済法)", () => {
  it("gives each 3/31 and 9/30 since the first purchase, with the hand-computed outstanding paid points and yen", async () => {
    const member = await api.createUser({ points: 0 });
    const admin = await api.createUser({ role: "admin" });
    const db = api.database.db;
    const lot = async (v: { paid: boolean; amount: number; yen: number; created: string; expires: string }) => {
      const [row] = await db
        .insert(pointLots)
        .values({
          userId: member.id,
          source: v.paid ? "purchase" : "initial",
          paid: v.paid,
          amount: v.amount,
          remaining: v.amount,
          yenAmount: v.yen,
          createdAt: jst(v.created),
          expiresAt: jst(v.expires),
        })
        .returning();
      return must(row).id;
    };
    const [charge] = await db
      .insert(pointLedger)
      .values({ userId: member.id, kind: "charge", delta: 0, balanceAfter: 0 })
      .returning();
    const use = (lotId: string, amount: number, at: string) =>
      db.insert(pointLotUsages).values({ lotId, ledgerId: must(charge).id, amount, createdAt: jst(at) });

    // A: 500 pt for 1,000 yen (2 yen/pt). B: 300 pt for 900 yen (3 yen/pt). D: 100 pt for 200 yen, expires 2025-08-01.
    // C: 1,000 free points: never in the report.
    const a = await lot({
      paid: true,
      amount: 500,
      yen: 1000,
      created: "2025-03-01T10:00:00",
      expires: "2028-03-01T10:00:00",
    });
    const b = await lot({
      paid: true,
      amount: 300,
      yen: 900,
      created: "2025-06-15T10:00:00",
      expires: "2028-06-15T10:00:00",
    });
    await lot({ paid: true, amount: 100, yen: 200, created: "2025-02-01T10:00:00", expires: "2025-08-01T00:00:00" });
    await lot({ paid: false, amount: 1000, yen: 0, created: "2025-01-01T10:00:00", expires: "2030-01-01T00:00:00" });
    await use(a, 200, "2025-03-20T12:00:00");
    await use(a, 50, "2025-09-30T23:30:00"); // inside the base day: counted
    await use(b, 100, "2025-10-05T12:00:00");
    await use(b, 40, "2026-04-01T00:10:00");
    await use(b, -40, "2026-04-01T00:20:00"); // refunded: back in the lot

    const rows = await unusedBalanceReport(db, new Date("2026-11-23T00:00:00Z"));
    // 2025-03-31: A 300 (600 yen) + D 100 (200 yen). 2025-09-30: A 250 (500) + B 300 (900); D expired.
    // 2026-03-31 and 2026-09-30: A 250 (500) + B 200 (600).
    expect(rows.map((r) => [r.baseDate, r.outstandingPaidPoints, r.yenValue, r.overThreshold])).toEqual([
      ["2025-03-31", 400, 800, false],
      ["2025-09-30", 550, 1400, false],
      ["2026-03-31", 450, 1100, false],
      ["2026-09-30", 450, 1100, false],
    ]);
    const csv = unusedBalanceCsv(rows);
    expect(csv.startsWith("\uFEFF基準日,")).toBe(true);
    expect(csv).toContain("\r\n2025-09-30,550,1400,否,0\r\n");

    const viaProcedure = await api.caller(admin).adminPayments.unusedBalanceReport({});
    expect(viaProcedure.slice(0, 4)).toEqual(rows);
  });

  it("base dates start at the first purchase's day and stop at the last one already over", () => {
    expect(baseDatesBetween(jst("2025-03-31T23:59:00"), jst("2025-10-01T00:00:00"))).toEqual([
      "2025-03-31",
      "2025-09-30",
    ]);
    expect(baseDatesBetween(jst("2025-04-01T00:00:00"), jst("2025-09-30T23:59:00"))).toEqual([]);
  });
});
