import { Alert, Button, Group, Stack, Table, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { pointsText, yen } from "../../features/payments/calc";
import { PAYMENTS_TEXT } from "../../features/payments/text";
import { getToken } from "../../lib/session";
import { useTRPC } from "../../lib/trpc";
import { ListStates } from "../../ui/ListStates";

/** The REST row serving the same report as CSV (bearer auth, so it is fetched, not linked). */
export const UNUSED_BALANCE_CSV_PATH = "/api/admin/payments/unused-balance-report.csv";

function baseDateLabel(day: string): string {
  const [y, m, d] = day.split("-");
  return `${y}年${Number(m)}月${Number(d)}日`;
}

/**
 * 未使用残高報告 (資金決済法): the paid-for points outstanding at every 3/31 and 9/30 and their yen
 * value, computed by the server from the point lots; the same figures as a CSV download.
 */
export function UnusedBalanceReport() {
  const trpc = useTRPC();
  const report = useQuery(trpc.adminPayments.unusedBalanceReport.queryOptions());
  const rows = report.data ?? [];
  const [downloading, setDownloading] = useState(false);
  const [downloadError, setDownloadError] = useState<string | null>(null);

  const download = async () => {
    setDownloading(true);
    setDownloadError(null);
    try {
      const token = getToken();
      const response = await fetch(UNUSED_BALANCE_CSV_PATH, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
      if (!response.ok) throw new Error(String(response.status));
      const url = URL.createObjectURL(await response.blob());
      const a = document.createElement("a");
      a.href = url;
      a.download = "unused-balance-report.csv";
      document.body.append(a);
      a.click();
      a.remove();
      URL.revokeObjectURL(url);
    } catch {
      setDownloadError(PAYMENTS_TEXT.reportFetchFailed);
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Stack gap="md">
      <Title order={2}>未使用残高報告</Title>
      <Text size="sm" c="dimmed">
        資金決済法に基づく、基準日（3月31日・9月30日）時点の有償ポイントの未使用残高です。未使用残高が1,000万円を超える場合は、届出とその半額以上の発行保証金の供託が必要です。
      </Text>
      <ListStates
        isLoading={report.isLoading}
        isError={report.isError}
        errorText={PAYMENTS_TEXT.reportFetchFailed}
        onRetry={() => void report.refetch()}
        isEmpty={rows.length === 0}
        emptyText="まだ基準日を迎えた有償ポイントはありません"
      >
        <Table.ScrollContainer minWidth={560}>
          <Table striped aria-label="未使用残高" data-testid="unused-balance-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>基準日</Table.Th>
                <Table.Th ta="right">未使用残高（有償ポイント）</Table.Th>
                <Table.Th ta="right">未使用残高（円）</Table.Th>
                <Table.Th>届出・供託</Table.Th>
                <Table.Th ta="right">要供託額</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={row.baseDate}>
                  <Table.Td>{baseDateLabel(row.baseDate)}</Table.Td>
                  <Table.Td ta="right">{pointsText(row.outstandingPaidPoints)}</Table.Td>
                  <Table.Td ta="right">{yen(row.yenValue)}</Table.Td>
                  <Table.Td>{row.overThreshold ? "要" : "不要"}</Table.Td>
                  <Table.Td ta="right">{row.overThreshold ? yen(row.depositRequired) : "—"}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </ListStates>
      {downloadError && (
        <Alert color="red" role="alert">
          {downloadError}
        </Alert>
      )}
      <Group>
        <Button variant="light" onClick={() => void download()} loading={downloading}>
          CSVをダウンロード
        </Button>
      </Group>
    </Stack>
  );
}
