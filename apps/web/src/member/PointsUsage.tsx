import {
  BOARD_ENTRY_MINUTES,
  FREE_POINT_VALIDITY_DAYS,
  MSG,
  POINT_COST_TABLE,
  POINT_EXPIRY_NOTICE_DAYS,
  POINT_VALIDITY_YEARS,
  PROFILE_VIEW_FREE_HOURS,
} from "@enmusubi/shared";
import { Alert, List, Stack, Table, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { rateText } from "../features/payments/calc";
import { formatCost } from "../lib/format";
import { useTRPC } from "../lib/trpc";
import { PointExpiry } from "./PointExpiry";
import classes from "./points-usage.module.css";

/**
 * Points usage (spec §2, route only): the table of point costs with notes (on a phone, each note
 * under its item: no sideways scroll at 320 px). If the list cannot be fetched, the spec's
 * fallback table is shown with a notice.
 */
export function PointsUsage() {
  const trpc = useTRPC();
  const costs = useQuery(trpc.reference.pointCosts.list.queryOptions());
  // The price of points comes from the payment settings, as on the purchase screen and 特商法.
  const legal = useQuery(trpc.legal.info.queryOptions());
  const rows =
    costs.data ??
    (costs.isError
      ? POINT_COST_TABLE.filter((r) => r.offered).map((r) => ({
          actionName: r.actionName,
          displayName: r.displayName,
          pointCost: r.fallbackCost,
          description: r.description,
        }))
      : []);
  return (
    <Stack gap="md">
      <Title order={2}>ポイントの使い方</Title>
      <PointExpiry schedule />
      {costs.isError && <Alert color="yellow">{MSG.pointCostFetchFailed} 標準の料金を表示しています。</Alert>}
      {costs.isLoading && <Text c="dimmed">読み込み中...</Text>}
      <Table striped aria-label="消費ポイント一覧">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>項目</Table.Th>
            <Table.Th ta="right">消費ポイント</Table.Th>
            <Table.Th className={classes.noteColumn}>備考</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.actionName}>
              <Table.Td>
                {row.displayName}
                <Text size="xs" c="dimmed" className={classes.noteUnder}>
                  {row.description}
                </Text>
              </Table.Td>
              <Table.Td ta="right" fw={700}>
                {formatCost(row.pointCost)}
              </Table.Td>
              <Table.Td fz="sm" className={classes.noteColumn}>
                {row.description}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <List size="sm" spacing={4}>
        {legal.data && <List.Item>ポイントの価格: {rateText(legal.data.exchange)}</List.Item>}
        <List.Item>購入したポイントの有効期限は購入日から{POINT_VALIDITY_YEARS}年間です。</List.Item>
        <List.Item>
          無料ポイント（登録特典・運営からの付与）の有効期限は付与日から{FREE_POINT_VALIDITY_DAYS}日間です。
        </List.Item>
        <List.Item>
          ポイントは有効期限の近いものから使われます。有効期限の{POINT_EXPIRY_NOTICE_DAYS}
          日前に、ご登録のメールアドレスへお知らせします。
        </List.Item>
        <List.Item>
          退会すると、未使用のポイント（購入ポイント・無料ポイントとも）は失効し、払い戻しはできません。
        </List.Item>
        <List.Item>消費ポイントは利用規約の料金表の初期料金を超えることはありません。</List.Item>
        <List.Item>管理者（運営）への返信にポイントはかかりません。</List.Item>
        <List.Item>
          同じ会員のプロフィールを{PROFILE_VIEW_FREE_HOURS}時間以内にもう一度見るときはポイントはかかりません。
        </List.Item>
        <List.Item>
          掲示板閲覧のポイントは入室時に1回だけ消費され、入室から{BOARD_ENTRY_MINUTES}
          分間はページ送りや検索にポイントはかかりません。
        </List.Item>
        <List.Item>ポイントが不足している場合、その操作は行われず、ポイントも消費されません。</List.Item>
        {/* The operator's configured address (OPERATOR_EMAIL), as on 特商法 (decision 0010). */}
        {legal.data && <List.Item>ご不明な点は {legal.data.operator.email} までお問い合わせください。</List.Item>}
      </List>
    </Stack>
  );
}
