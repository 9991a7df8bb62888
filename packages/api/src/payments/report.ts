import { type Db, pointLots, pointLotUsages, rowsOf } from "@enmusubi/db";
import { japanDayOf, japanDayStart } from "@enmusubi/shared";
import { eq, min, sql } from "drizzle-orm";

/** 資金決済法: above this unused balance at a base date the issuer must file and deposit half of it. */
export const UNUSED_BALANCE_THRESHOLD_YEN = 10_000_000;

export interface UnusedBalanceRow {
  /** The base date, `YYYY-03-31` or `YYYY-09-30` (Japanese calendar day). */
  baseDate: string;
  /** Paid-for points not yet spent or expired at the end of that day. */
  outstandingPaidPoints: number;
  /** Their value at the price paid for each lot, yen (rounded to the nearest yen). */
  yenValue: number;
  /** Above 10,000,000 yen: the issuer's filing and deposit duty applies. */
  overThreshold: boolean;
  /** Half of the value when over the threshold (発行保証金), else 0. */
  depositRequired: number;
}

/** The end of a Japanese day (its next midnight in Asia/Tokyo), as an instant. */
const endOfJstDay = (day: string) => japanDayStart(day, 1);

/** Every 3/31 and 9/30 from the first paid lot's day to the last one already over. */
export function baseDatesBetween(first: Date, now: Date): string[] {
  const firstDay = japanDayOf(first);
  const out: string[] = [];
  for (let year = Number(firstDay.slice(0, 4)); year <= Number(japanDayOf(now).slice(0, 4)); year += 1) {
    for (const day of [`${year}-03-31`, `${year}-09-30`]) {
      if (day >= firstDay && endOfJstDay(day) <= now) out.push(day);
    }
  }
  return out;
}

/**
 * Outstanding paid-for points at the end of a day, rebuilt from the lots and what was taken from
 * them before that moment: a lot counts when it was bought before and expires after the cutoff; its
 * remainder then is its amount less the usages recorded before the cutoff (refunds count back).
 */
export async function unusedBalanceAt(db: Db, baseDate: string): Promise<Omit<UnusedBalanceRow, "baseDate">> {
  const cutoff = endOfJstDay(baseDate).toISOString();
  const rows = await rowsOf<{ points: string | number; yen: string | number }>(
    db,
    sql`
    select coalesce(sum(${pointLots.amount} - coalesce(used.amount, 0)), 0) as points,
           coalesce(sum((${pointLots.amount} - coalesce(used.amount, 0))::numeric * ${pointLots.yenAmount} / ${pointLots.amount}), 0) as yen
    from ${pointLots}
    left join (
      select ${pointLotUsages.lotId} as lot_id, sum(${pointLotUsages.amount}) as amount
      from ${pointLotUsages}
      where ${pointLotUsages.createdAt} < ${cutoff}::timestamptz
      group by ${pointLotUsages.lotId}
    ) used on used.lot_id = ${pointLots.id}
    where ${pointLots.paid} and ${pointLots.createdAt} < ${cutoff}::timestamptz and ${pointLots.expiresAt} >= ${cutoff}::timestamptz
  `,
  );
  const row = rows[0];
  const points = Number(row?.points ?? 0);
  const yenValue = Math.round(Number(row?.yen ?? 0));
  const overThreshold = yenValue > UNUSED_BALANCE_THRESHOLD_YEN;
  return {
    outstandingPaidPoints: points,
    yenValue,
    overThreshold,
    depositRequired: overThreshold ? Math.ceil(yenValue / 2) : 0,
  };
}

/** `adminPayments.unusedBalanceReport`: one row per base date since the first purchase, oldest first. */
export async function unusedBalanceReport(db: Db, now = new Date()): Promise<UnusedBalanceRow[]> {
  const [first] = await db
    .select({ at: min(pointLots.createdAt) })
    .from(pointLots)
    .where(eq(pointLots.paid, true));
  if (!first?.at) return [];
  const rows: UnusedBalanceRow[] = [];
  for (const baseDate of baseDatesBetween(new Date(first.at), now)) {
    rows.push({ baseDate, ...(await unusedBalanceAt(db, baseDate)) });
  }
  return rows;
}

/** The report as CSV for Excel: UTF-8 with a BOM, CRLF line ends, Japanese headings. */
export function unusedBalanceCsv(rows: UnusedBalanceRow[]): string {
  const lines = [
    "基準日,未使用残高（有償ポイント）,未使用残高（円）,届出・供託の要否,要供託額（円）",
    ...rows.map((r) =>
      [r.baseDate, r.outstandingPaidPoints, r.yenValue, r.overThreshold ? "要" : "否", r.depositRequired].join(","),
    ),
  ];
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}
