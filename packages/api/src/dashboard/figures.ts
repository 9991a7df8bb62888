import {
  boardPosts,
  type Db,
  idVerifications,
  inquiries,
  memberDailySignups,
  messages,
  paymentNotifications,
  pointLedger,
  profileReviews,
  purchaseDailyTotals,
  reports,
  rowsOf,
  scheduledMessages,
  screeningHolds,
  users,
} from "@enmusubi/db";
import { japanDayOf, japanDayStart } from "@enmusubi/shared";
import { and, count, desc, eq, gte, inArray, isNull, lt, type SQL, sql, sum } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { LIST_COUNT_CAP } from "../lists/capped-count";
import { plannedRows, USER_COUNT_CAP } from "../users/admin-list";

/**
 * The operator's dashboard (decision 0036): what the service looks like today and
 * what waits for an administrator. Every figure reads an index range or a daily-totals table, so
 * its cost does not grow with the number of members:
 * - members and verified members: exact up to USER_COUNT_CAP, then PostgreSQL's estimate (as the
 *   user list, decision 0011); new this week and the sign-up chart: member_daily_signups;
 * - messages and board posts today: counted along their created_at index, at most ACTIVITY_CAP;
 * - points sold: purchase_daily_totals (paid orders by the Japanese day of the order); points
 *   spent: point_ledger_spent_created_idx over the month;
 * - work waiting: each queue's own index, at most LIST_COUNT_CAP ("1,000件以上").
 */

/** Today's messages and board posts are counted exactly up to this many. */
export const ACTIVITY_CAP = 10_000;
/** Days in the charts. */
export const CHART_DAYS = 30;

/** A count that stopped at `cap` (`capped`: there are more) or, when `estimated`, the planner's estimate. */
export interface Tally {
  value: number;
  capped: boolean;
  estimated: boolean;
}

const exactly = (value: number): Tally => ({ value, capped: false, estimated: false });

/** Rows of `table` matching `where`, read in `order` (the index the count should walk), at most `cap`. */
async function countUpTo(
  db: Db,
  table: PgTable,
  where: SQL | undefined,
  order: Array<SQL | PgColumn>,
  cap: number,
): Promise<Tally> {
  const matches = db
    .select({ one: sql`1` })
    .from(table)
    .where(where)
    .orderBy(...order)
    .limit(cap + 1)
    .as("matches");
  const [row] = await db.select({ n: count() }).from(matches);
  const n = row?.n ?? 0;
  return n > cap ? { value: cap, capped: true, estimated: false } : exactly(n);
}

/** Live members matching `where`: exact up to USER_COUNT_CAP, above it the planner's estimate. */
async function countMembers(db: Db, where: SQL | undefined): Promise<Tally> {
  const all = and(isNull(users.deletedAt), eq(users.role, "user"), where);
  const counted = await countUpTo(db, users, all, [], USER_COUNT_CAP);
  if (!counted.capped) return counted;
  const estimate = await plannedRows(db, sql`select 1 from ${users} where ${all}`);
  return { value: Math.max(USER_COUNT_CAP + 1, estimate), capped: false, estimated: true };
}

/** The first day of the month `day` falls in, and of the month before. */
export function monthStarts(day: string): { thisMonth: string; lastMonth: string } {
  const [y, m] = day.split("-").map(Number) as [number, number];
  const last = m === 1 ? { y: y - 1, m: 12 } : { y, m: m - 1 };
  const fmt = (yy: number, mm: number) => `${yy}-${String(mm).padStart(2, "0")}-01`;
  return { thisMonth: fmt(y, m), lastMonth: fmt(last.y, last.m) };
}

/** `day` plus `n` days (calendar arithmetic, no time zone involved). */
export function addDays(day: string, n: number): string {
  return japanDayOf(japanDayStart(day, n));
}

/** The work waiting, each figure a link to its queue in the admin menu. */
export async function waitingWork(db: Db) {
  const [verifications, inquiriesUnread, reportsOpen, notificationsOpen, failedScheduled, transfers, held, reviews] =
    await Promise.all([
      countUpTo(
        db,
        idVerifications,
        eq(idVerifications.status, "pending"),
        [idVerifications.status, idVerifications.createdAt],
        LIST_COUNT_CAP,
      ),
      countUpTo(
        db,
        inquiries,
        and(isNull(inquiries.deletedAt), eq(inquiries.isRead, false)),
        [desc(inquiries.createdAt)],
        LIST_COUNT_CAP,
      ),
      countUpTo(db, reports, eq(reports.status, "open"), [reports.status, reports.createdAt], LIST_COUNT_CAP),
      countUpTo(
        db,
        paymentNotifications,
        and(eq(paymentNotifications.outcome, "unsettled"), isNull(paymentNotifications.resolution)),
        [paymentNotifications.outcome, paymentNotifications.receivedAt],
        LIST_COUNT_CAP,
      ),
      countUpTo(
        db,
        scheduledMessages,
        eq(scheduledMessages.status, "failed"),
        [desc(scheduledMessages.updatedAt)],
        LIST_COUNT_CAP,
      ),
      // Bank transfers to confirm: exact, from the daily totals (a few rows per day).
      db
        .select({ n: sum(purchaseDailyTotals.count).mapWith(Number) })
        .from(purchaseDailyTotals)
        .where(and(eq(purchaseDailyTotals.status, "pending"), eq(purchaseDailyTotals.paymentMethod, "bank_transfer"))),
      // Messages and posts a screening rule held (decision 0042).
      countUpTo(
        db,
        screeningHolds,
        eq(screeningHolds.status, "held"),
        [screeningHolds.status, screeningHolds.createdAt],
        LIST_COUNT_CAP,
      ),
      // Photo and 自己紹介 changes waiting for the profile review (decision 0044).
      countUpTo(
        db,
        profileReviews,
        eq(profileReviews.status, "pending"),
        [profileReviews.status, profileReviews.createdAt],
        LIST_COUNT_CAP,
      ),
    ]);
  const pendingTransfers = transfers[0]?.n ?? 0;
  const payments: Tally = {
    value: pendingTransfers + notificationsOpen.value,
    capped: notificationsOpen.capped,
    estimated: false,
  };
  return {
    verifications,
    inquiries: inquiriesUnread,
    reports: reportsOpen,
    /** Bank transfers to confirm plus paid notifications whose money is still to settle or refund. */
    payments,
    pendingTransfers,
    notificationsOpen,
    failedScheduled,
    /** 「投稿・メッセージ確認」: held messages and board posts. */
    held,
    /** 「プロフィール審査」: photo and 自己紹介 changes waiting for the review. */
    profileReviews: reviews,
  };
}

export type WaitingWork = Awaited<ReturnType<typeof waitingWork>>;

/** Rows created on the Japanese day `today`, counted along `createdAt`'s index, newest first. */
function countToday(db: Db, table: PgTable, createdAt: PgColumn, live: SQL, today: string): Promise<Tally> {
  const where = and(live, gte(createdAt, japanDayStart(today)), lt(createdAt, japanDayStart(today, 1)));
  return countUpTo(db, table, where, [desc(createdAt)], ACTIVITY_CAP);
}

/** Points of paid orders on the Japanese days [from, to). */
async function pointsSold(db: Db, from: string, to: string): Promise<number> {
  const [row] = await db
    .select({ points: sum(purchaseDailyTotals.points).mapWith(Number) })
    .from(purchaseDailyTotals)
    .where(
      and(eq(purchaseDailyTotals.status, "paid"), gte(purchaseDailyTotals.day, from), lt(purchaseDailyTotals.day, to)),
    );
  return row?.points ?? 0;
}

/** Points members spent (charges of the points balance) on the Japanese days [from, to). */
async function pointsSpent(db: Db, from: string, to: string): Promise<number> {
  const [row] = await db
    .select({ points: sql<number>`coalesce(-sum(${pointLedger.delta}), 0)`.mapWith(Number) })
    .from(pointLedger)
    .where(
      and(
        eq(pointLedger.account, "points"),
        inArray(pointLedger.kind, ["charge", "prepaid_charge"]),
        gte(pointLedger.createdAt, japanDayStart(from)),
        lt(pointLedger.createdAt, japanDayStart(to)),
      ),
    );
  return row?.points ?? 0;
}

/** Sign-ups and sales per Japanese day over the CHART_DAYS days ending today, every day present. */
async function dailySeries(db: Db, today: string) {
  const first = addDays(today, -(CHART_DAYS - 1));
  const end = addDays(today, 1);
  const [signups, sales] = await Promise.all([
    db
      .select({ day: memberDailySignups.day, count: memberDailySignups.count })
      .from(memberDailySignups)
      .where(and(gte(memberDailySignups.day, first), lt(memberDailySignups.day, end))),
    rowsOf<{ day: string; count: string | number; amount: string | number; points: string | number }>(
      db,
      sql`select to_char(${purchaseDailyTotals.day}, 'YYYY-MM-DD') as day, sum(${purchaseDailyTotals.count}) as count,
            sum(${purchaseDailyTotals.amount}) as amount, sum(${purchaseDailyTotals.points}) as points
          from ${purchaseDailyTotals}
          where ${purchaseDailyTotals.status} = 'paid' and ${purchaseDailyTotals.day} >= ${first}
            and ${purchaseDailyTotals.day} < ${end}
          group by 1`,
    ),
  ]);
  const signupsBy = new Map(signups.map((r) => [r.day, Number(r.count)]));
  const salesBy = new Map(sales.map((r) => [r.day, r]));
  const days = Array.from({ length: CHART_DAYS }, (_, i) => addDays(first, i));
  return {
    signups: days.map((day) => ({ day, count: signupsBy.get(day) ?? 0 })),
    sales: days.map((day) => {
      const r = salesBy.get(day);
      return { day, count: Number(r?.count ?? 0), amount: Number(r?.amount ?? 0), points: Number(r?.points ?? 0) };
    }),
  };
}

/** `adminDashboard.summary`: every figure of the dashboard, as of `now` (Japanese days). */
export async function dashboardSummary(db: Db, now: Date = new Date()) {
  const today = japanDayOf(now);
  const tomorrow = addDays(today, 1);
  const { thisMonth, lastMonth } = monthStarts(today);
  const weekStart = addDays(today, -6);
  const [total, verified, week, messagesToday, postsToday, sold, soldBefore, spent, spentBefore, waiting, series] =
    await Promise.all([
      countMembers(db, undefined),
      countMembers(db, eq(users.verificationStatus, "verified")),
      db
        .select({ n: sum(memberDailySignups.count).mapWith(Number) })
        .from(memberDailySignups)
        .where(and(gte(memberDailySignups.day, weekStart), lt(memberDailySignups.day, tomorrow))),
      countToday(db, messages, messages.createdAt, isNull(messages.deletedAt), today),
      countToday(db, boardPosts, boardPosts.createdAt, isNull(boardPosts.deletedAt), today),
      pointsSold(db, thisMonth, tomorrow),
      pointsSold(db, lastMonth, thisMonth),
      pointsSpent(db, thisMonth, tomorrow),
      pointsSpent(db, lastMonth, thisMonth),
      waitingWork(db),
      dailySeries(db, today),
    ]);
  return {
    asOf: now,
    today,
    members: {
      total,
      verified,
      /** Verified among live members, 0–1 (null without members); an estimate when either count is. */
      verifiedShare: total.value > 0 ? Math.min(1, verified.value / total.value) : null,
      /** Sign-ups of the last 7 Japanese days, today included. */
      newThisWeek: week[0]?.n ?? 0,
    },
    activity: { messagesToday, boardPostsToday: postsToday },
    points: {
      month: thisMonth.slice(0, 7),
      lastMonth: lastMonth.slice(0, 7),
      soldThisMonth: sold,
      soldLastMonth: soldBefore,
      spentThisMonth: spent,
      spentLastMonth: spentBefore,
    },
    waiting,
    ...series,
  };
}

export type DashboardSummary = Awaited<ReturnType<typeof dashboardSummary>>;
