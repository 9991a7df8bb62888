import { z } from "zod";
import { route } from "./adapter";

/** A count that stopped at its cap (`capped`: more) or, `estimated`, PostgreSQL's estimate (docs/decisions/0036). */
const tally = z.object({ value: z.number().int().min(0), capped: z.boolean(), estimated: z.boolean() });
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const month = z.string().regex(/^\d{4}-\d{2}$/);

const dashboard = z.object({
  asOf: z.iso.datetime(),
  today: day,
  members: z.object({
    total: tally,
    verified: tally,
    verifiedShare: z.number().min(0).max(1).nullable(),
    newThisWeek: z.number().int().min(0),
  }),
  activity: z.object({ messagesToday: tally, boardPostsToday: tally }),
  points: z.object({
    month,
    lastMonth: month,
    soldThisMonth: z.number().int().min(0),
    soldLastMonth: z.number().int().min(0),
    spentThisMonth: z.number().int().min(0),
    spentLastMonth: z.number().int().min(0),
  }),
  waiting: z.object({
    verifications: tally,
    inquiries: tally,
    reports: tally,
    payments: tally,
    pendingTransfers: z.number().int().min(0),
    notificationsOpen: tally,
    failedScheduled: tally,
    held: tally.meta({ description: "Messages and board posts a screening rule holds for review (decision 0042)" }),
    /** Photo and 自己紹介 changes waiting for the profile review (decision 0044). */
    profileReviews: tally,
  }),
  signups: z.array(z.object({ day, count: z.number().int().min(0) })),
  sales: z.array(
    z.object({
      day,
      count: z.number().int().min(0),
      amount: z.number().int().min(0),
      points: z.number().int().min(0),
    }),
  ),
});

const n = (value: number) => ({ value, capped: false, estimated: false });

export const dashboardRoutes = [
  route({
    method: "GET",
    path: "/api/admin/dashboard",
    summary: "Admin: the operator's dashboard: members, today's activity, points this month and last, work waiting",
    description:
      "Days are Japanese days (Asia/Tokyo). `total` and `verified` members are exact up to 10,000, then PostgreSQL's estimate (`estimated`); today's messages and board posts stop at 10,000 and each queue of work waiting at 1,000 (`capped`). `newThisWeek` and `signups` count sign-ups of members per day (deleted ones included); `sales` and `sold*` are paid orders by the day of the order; `spent*` the points members spent. `signups` and `sales` cover the 30 days ending today, every day present.",
    access: "admin",
    response: dashboard,
    example: {
      asOf: "2026-11-26T03:00:00.000Z",
      today: "2026-11-26",
      members: { total: n(1234), verified: n(987), verifiedShare: 0.8, newThisWeek: 42 },
      activity: { messagesToday: n(350), boardPostsToday: n(12) },
      points: {
        month: "2026-11",
        lastMonth: "2026-10",
        soldThisMonth: 52000,
        soldLastMonth: 61000,
        spentThisMonth: 48000,
        spentLastMonth: 59000,
      },
      waiting: {
        verifications: n(3),
        inquiries: n(5),
        reports: n(1),
        payments: n(2),
        pendingTransfers: 2,
        notificationsOpen: n(0),
        failedScheduled: n(0),
        held: n(1),
        profileReviews: n(4),
      },
      signups: [{ day: "2026-11-26", count: 4 }],
      sales: [{ day: "2026-11-26", count: 3, amount: 9000, points: 900 }],
    },
    handler: async (caller) => {
      const summary = await caller.adminDashboard.summary();
      return { ...summary, asOf: summary.asOf.toISOString() };
    },
  }),
];
