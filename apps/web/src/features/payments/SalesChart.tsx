import { Stack, Table, Text } from "@mantine/core";
import type { RouterOutputs } from "../../lib/api-types";
import { BarChart } from "../charts/BarChart";
import { pointsText, yen } from "./calc";

export type SalesRow = RouterOutputs["adminPayments"]["sales"][number];

/** Wide enough for the axis label under each bar (11/23 or 2026年11月). */
const SLOT = { day: 40, month: 72 } as const;

/** 2026-11-23 → 11/23, 2026-11 → 2026年11月 (axis labels short enough for 375 px). */
export function periodLabel(period: string, granularity: "day" | "month"): string {
  const [y, m, d] = period.split("-");
  if (granularity === "month") return `${y}年${Number(m)}月`;
  return `${Number(m)}/${Number(d)}`;
}

/**
 * Paid sales per day or month as an SVG bar chart (BarChart: no chart library in the app), with the same
 * figures as a table beside it for screen readers and exact values.
 */
export function SalesChart({ rows, granularity }: { rows: SalesRow[]; granularity: "day" | "month" }) {
  const title = granularity === "day" ? "日別の売上" : "月別の売上";
  const total = rows.reduce((sum, r) => sum + r.amount, 0);
  return (
    <Stack gap="sm">
      <BarChart
        label={`${title}のグラフ（${rows.length}期間、合計${yen(total)}。数値は下の表にあります）`}
        testId="sales-chart"
        slot={SLOT[granularity]}
        bars={rows.map((row) => ({
          key: row.period,
          label: periodLabel(row.period, granularity),
          value: row.amount,
          title: `${periodLabel(row.period, granularity)}：${yen(row.amount)}（${row.count}件）`,
        }))}
      />
      <Table.ScrollContainer minWidth={420}>
        <Table striped fz="sm" aria-label={`${title}（表）`} data-testid="sales-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{granularity === "day" ? "日付" : "月"}</Table.Th>
              <Table.Th ta="right">件数</Table.Th>
              <Table.Th ta="right">売上金額</Table.Th>
              <Table.Th ta="right">付与ポイント</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.period}>
                <Table.Td>{periodLabel(row.period, granularity)}</Table.Td>
                <Table.Td ta="right">{row.count.toLocaleString("ja-JP")}件</Table.Td>
                <Table.Td ta="right">{yen(row.amount)}</Table.Td>
                <Table.Td ta="right">{pointsText(row.points)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {rows.length === 0 && (
        <Text c="dimmed" size="sm">
          この期間の売上はありません
        </Text>
      )}
    </Stack>
  );
}
