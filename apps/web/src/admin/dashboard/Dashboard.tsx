import { Alert, Anchor, Button, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Link } from "react-router-dom";
import { BarChart } from "../../features/charts/BarChart";
import { pointsText, yen } from "../../features/payments/calc";
import { periodLabel } from "../../features/payments/SalesChart";
import type { RouterOutputs } from "../../lib/api-types";
import { errorMessage, useTRPC } from "../../lib/trpc";

type Summary = RouterOutputs["adminDashboard"]["summary"];
export type Tally = Summary["waiting"]["reports"];

/** "1,234", "約1,000,000" (PostgreSQL's estimate) or "1,000以上" (a count stopped at its cap). */
export function tallyText(t: Tally, unit: string): string {
  return `${t.estimated ? "約" : ""}${t.value.toLocaleString("ja-JP")}${unit}${t.capped ? "以上" : ""}`;
}

/** The dashboard refreshes its figures this often while it is open. */
const REFRESH_MS = 60_000;

/** The queues of work waiting, each a link to its screen (decision 0036). */
export const WAITING_QUEUES = [
  { key: "verifications", label: "年齢確認の審査待ち", path: "/admin/verification" },
  { key: "profileReviews", label: "プロフィール審査待ち", path: "/admin/profile-review" },
  { key: "inquiries", label: "未読のお問い合わせ", path: "/admin/inquiry-list" },
  { key: "reports", label: "未対応の通報", path: "/admin/moderation" },
  { key: "held", label: "確認待ちの投稿・メッセージ", path: "/admin/screening" },
  { key: "payments", label: "確認待ちの決済", path: "/admin/payment-transactions" },
  { key: "failedScheduled", label: "失敗した予約送信", path: "/admin/user-management" },
] as const;

function Figure({ label, children, note }: { label: string; children: ReactNode; note?: ReactNode }) {
  return (
    <Paper withBorder p="md" radius="md">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="xl">
        {children}
      </Text>
      {note && (
        <Text size="xs" c="dimmed">
          {note}
        </Text>
      )}
    </Paper>
  );
}

function DailyChart({
  title,
  rows,
  value,
  unit,
  testId,
}: {
  title: string;
  rows: Array<{ day: string; count: number; amount?: number }>;
  value: (row: { count: number; amount?: number }) => number;
  unit: (n: number) => string;
  testId: string;
}) {
  const total = rows.reduce((sum, r) => sum + value(r), 0);
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby={`${testId}-title`}>
      <Title order={3} size="h5" mb="xs" id={`${testId}-title`}>
        {title}
      </Title>
      <BarChart
        label={`${title}のグラフ（${rows.length}日、合計${unit(total)}。数値は下の表にあります）`}
        testId={testId}
        latestInView
        bars={rows.map((r) => ({
          key: r.day,
          label: periodLabel(r.day, "day"),
          value: value(r),
          title: `${periodLabel(r.day, "day")}：${unit(value(r))}`,
        }))}
      />
      <details>
        <summary>
          <Text span size="sm">
            数値を表で見る
          </Text>
        </summary>
        <Table.ScrollContainer minWidth={280}>
          <Table fz="sm" aria-label={`${title}（表）`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>日付</Table.Th>
                <Table.Th ta="right">{title.includes("売上") ? "売上金額" : "人数"}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => (
                <Table.Tr key={r.day}>
                  <Table.Td>{periodLabel(r.day, "day")}</Table.Td>
                  <Table.Td ta="right">{unit(value(r))}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </details>
    </Paper>
  );
}

/** "先月（通月） 1,200pt（+8%）": this month's figure against last month's. */
function againstLastMonth(now: number, before: number): string {
  if (before === 0) return `先月 ${pointsText(before)}`;
  const change = Math.round(((now - before) / before) * 100);
  return `先月（通月） ${pointsText(before)}（${change >= 0 ? "+" : ""}${change}%）`;
}

/**
 * The operator's dashboard (decision 0036): /admin opens here. Members, today's
 * activity (Japanese day), points sold and spent this month against last month, the work waiting
 * (each a link to its queue), and sign-ups and sales per day over 30 days.
 */
export function Dashboard() {
  const trpc = useTRPC();
  const summary = useQuery({ ...trpc.adminDashboard.summary.queryOptions(), refetchInterval: REFRESH_MS });
  const s = summary.data;
  return (
    <Stack gap="md">
      <div>
        <Title order={2}>ダッシュボード</Title>
        {s && (
          <Text size="sm" c="dimmed">
            {s.today.replace(/-/g, "/")} 現在（日本時間）
          </Text>
        )}
      </div>
      {summary.isError && (
        <Alert color="red" title="ダッシュボードの取得に失敗しました。" role="alert">
          <Group gap="sm">
            <Text size="sm">{errorMessage(summary.error, "通信状況を確認して、もう一度お試しください。")}</Text>
            <Button size="compact-sm" variant="light" color="red" onClick={() => void summary.refetch()}>
              再読み込み
            </Button>
          </Group>
        </Alert>
      )}
      {summary.isLoading && <Text c="dimmed">読み込み中...</Text>}
      {s && (
        <>
          <Paper withBorder p="md" radius="md" component="section" aria-labelledby="waiting-title">
            <Title order={3} size="h5" mb="xs" id="waiting-title">
              対応待ち
            </Title>
            <SimpleGrid cols={{ base: 1, xs: 2, md: 5 }} spacing="xs">
              {WAITING_QUEUES.map((q) => (
                <Anchor key={q.key} component={Link} to={q.path} underline="hover" data-testid={`waiting-${q.key}`}>
                  <Text span size="sm">
                    {q.label}
                  </Text>{" "}
                  <Text span fw={700}>
                    {tallyText(s.waiting[q.key], "件")}
                  </Text>
                </Anchor>
              ))}
            </SimpleGrid>
          </Paper>
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
            <Figure
              label="会員数"
              note={`年齢確認済み ${
                s.members.verifiedShare === null ? "—" : `${Math.round(s.members.verifiedShare * 100)}%`
              }（${tallyText(s.members.verified, "人")}）`}
            >
              {tallyText(s.members.total, "人")}
            </Figure>
            <Figure label="新規登録（7日間）">{s.members.newThisWeek.toLocaleString("ja-JP")}人</Figure>
            <Figure label="今日のメッセージ">{tallyText(s.activity.messagesToday, "件")}</Figure>
            <Figure label="今日の掲示板投稿">{tallyText(s.activity.boardPostsToday, "件")}</Figure>
            <Figure
              label={`販売ポイント（${periodLabel(s.points.month, "month")}）`}
              note={againstLastMonth(s.points.soldThisMonth, s.points.soldLastMonth)}
            >
              {pointsText(s.points.soldThisMonth)}
            </Figure>
            <Figure
              label={`消費ポイント（${periodLabel(s.points.month, "month")}）`}
              note={againstLastMonth(s.points.spentThisMonth, s.points.spentLastMonth)}
            >
              {pointsText(s.points.spentThisMonth)}
            </Figure>
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="sm">
            <DailyChart
              title="日別の新規登録（30日間）"
              rows={s.signups}
              value={(r) => r.count}
              unit={(n) => `${n.toLocaleString("ja-JP")}人`}
              testId="signups-chart"
            />
            <DailyChart
              title="日別の売上（30日間）"
              rows={s.sales}
              value={(r) => r.amount ?? 0}
              unit={yen}
              testId="dashboard-sales-chart"
            />
          </SimpleGrid>
        </>
      )}
    </Stack>
  );
}
