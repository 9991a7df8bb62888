import { screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { RouterOutputs } from "../../lib/api-types";
import { renderWithProviders } from "../../test/render";
import AdminShell, { WAITING_REFRESH_MS } from "../AdminShell";
import { Dashboard, tallyText } from "./Dashboard";

type Summary = RouterOutputs["adminDashboard"]["summary"];
type Waiting = Summary["waiting"];

type Tally = { value: number; capped: boolean; estimated: boolean };
const n = (value: number, more: { capped?: boolean; estimated?: boolean } = {}): Tally => ({
  value,
  capped: more.capped ?? false,
  estimated: more.estimated ?? false,
});

const waiting = (reports: number): Waiting => ({
  verifications: n(3),
  inquiries: n(1000, { capped: true }),
  reports: n(reports),
  payments: n(2),
  held: n(4),
  pendingTransfers: 2,
  notificationsOpen: n(0),
  failedScheduled: n(0),
  profileReviews: n(0),
});

const days = (from: number) =>
  Array.from({ length: 30 }, (_, i) => `2030-02-${String(from + i).padStart(2, "0")}`).map((d) =>
    d > "2030-02-28" ? `2030-03-${String(Number(d.slice(8)) - 28).padStart(2, "0")}` : d,
  );

const summary = (): Summary => ({
  asOf: new Date("2030-03-10T03:00:00Z"),
  today: "2030-03-10",
  members: {
    total: n(1_000_000, { estimated: true }),
    verified: n(800_000, { estimated: true }),
    verifiedShare: 0.8,
    newThisWeek: 4321,
  },
  activity: { messagesToday: n(10_000, { capped: true }), boardPostsToday: n(12) },
  points: {
    month: "2030-03",
    lastMonth: "2030-02",
    soldThisMonth: 52_000,
    soldLastMonth: 40_000,
    spentThisMonth: 30_000,
    spentLastMonth: 60_000,
  },
  waiting: waiting(1),
  signups: days(9).map((day, i) => ({ day, count: i })),
  sales: days(9).map((day, i) => ({ day, count: 1, amount: i * 1000, points: i * 100 })),
});

afterEach(() => {
  vi.useRealTimers();
});

describe("Dashboard", () => {
  it("shows the figures, estimates and caps marked, and the work waiting as links to each queue", async () => {
    renderWithProviders(<Dashboard />, { "adminDashboard.summary": summary });
    expect(await screen.findByRole("heading", { name: "ダッシュボード" })).toBeInTheDocument();
    expect(await screen.findByText("約1,000,000人")).toBeInTheDocument();
    expect(screen.getByText("年齢確認済み 80%（約800,000人）")).toBeInTheDocument();
    expect(screen.getByText("4,321人")).toBeInTheDocument();
    expect(screen.getByText("10,000件以上")).toBeInTheDocument();
    expect(screen.getByText("先月（通月） 40,000pt（+30%）")).toBeInTheDocument();
    expect(screen.getByText("先月（通月） 60,000pt（-50%）")).toBeInTheDocument();
    const reports = screen.getByTestId("waiting-reports");
    expect(reports).toHaveAttribute("href", "/admin/moderation");
    expect(reports).toHaveTextContent("未対応の通報 1件");
    expect(screen.getByTestId("waiting-inquiries")).toHaveTextContent("1,000件以上");
    expect(screen.getByTestId("waiting-verifications")).toHaveAttribute("href", "/admin/verification");
    expect(screen.getByTestId("waiting-payments")).toHaveAttribute("href", "/admin/payment-transactions");
    // Messages and posts a screening rule held (decision 0042).
    expect(screen.getByTestId("waiting-held")).toHaveAttribute("href", "/admin/screening");
    expect(screen.getByTestId("waiting-held")).toHaveTextContent("確認待ちの投稿・メッセージ 4件");
  });

  it("draws 30 days of sign-ups and sales with their figures in a table", async () => {
    renderWithProviders(<Dashboard />, { "adminDashboard.summary": summary });
    const signups = await screen.findByTestId("signups-chart");
    expect(signups.querySelectorAll("[data-bar]")).toHaveLength(30);
    expect(signups.getAttribute("aria-label")).toContain("合計435人");
    const table = screen.getByRole("table", { name: "日別の売上（30日間）（表）" });
    expect(within(table).getAllByRole("row")).toHaveLength(31);
  });

  it("formats a tally", () => {
    expect(tallyText(n(1234), "人")).toBe("1,234人");
    expect(tallyText(n(1000, { capped: true }), "件")).toBe("1,000件以上");
    expect(tallyText(n(5, { estimated: true }), "人")).toBe("約5人");
  });
});

describe("admin menu counts", () => {
  it("shows the work waiting beside each queue and follows it every 30 seconds", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let reports = 1;
    const { calls } = renderWithProviders(<AdminShell />, {
      "adminDashboard.summary": summary,
      "adminDashboard.waiting": () => waiting(reports),
    });
    const nav = await screen.findByRole("navigation", { name: "管理メニュー" });
    expect(await within(nav).findByTestId("menu-count-moderation")).toHaveTextContent("1件の対応待ち");
    expect(within(nav).getByTestId("menu-count-verification")).toHaveTextContent("3");
    expect(within(nav).getByTestId("menu-count-inquiry-list")).toHaveTextContent("1,000+");
    expect(within(nav).getByTestId("menu-count-payment-transactions")).toHaveTextContent("2");
    expect(within(nav).getByTestId("menu-count-screening")).toHaveTextContent("4件の対応待ち");
    // The dashboard is the first entry and /admin opens on it.
    expect(within(nav).getAllByRole("link")[0]).toHaveTextContent("ダッシュボード");
    expect(within(nav).getByRole("link", { name: "ユーザー管理" })).toHaveAttribute("href", "/admin/user-management");
    reports = 7;
    const before = calls.filter((c) => c.path === "adminDashboard.waiting").length;
    await vi.advanceTimersByTimeAsync(WAITING_REFRESH_MS);
    expect(await within(nav).findByText("7")).toBeInTheDocument();
    expect(calls.filter((c) => c.path === "adminDashboard.waiting").length).toBeGreaterThan(before);
  });
});
