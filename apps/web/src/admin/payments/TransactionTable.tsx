import { Button, Card, Group, Table, Text } from "@mantine/core";
import { pointsText, yen } from "../../features/payments/calc";
import { METHOD_LABELS, StatusBadge } from "../../features/payments/StatusBadge";
import type { AdminTransaction } from "../../features/payments/types";
import { displayName } from "../../lib/display-name";
import { formatDateTime } from "../../lib/format";

const NOWRAP = { whiteSpace: "nowrap" } as const;

export function Total({ label, value }: { label: string; value: string }) {
  return (
    <Card withBorder padding="sm">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="md" fw={700} style={{ overflowWrap: "anywhere" }}>
        {value}
      </Text>
    </Card>
  );
}

/** The transactions table: confirm and cancel on pending rows only, who confirmed a paid row. */
export function TransactionTable({
  rows,
  busyId,
  confirming,
  cancelling,
  onConfirm,
  onCancel,
}: {
  rows: AdminTransaction[];
  busyId: string | undefined;
  confirming: boolean;
  cancelling: boolean;
  onConfirm(t: AdminTransaction): void;
  onCancel(t: AdminTransaction): void;
}) {
  return (
    <Table.ScrollContainer minWidth={980}>
      <Table striped verticalSpacing="xs" aria-label="決済取引一覧">
        <Table.Thead>
          <Table.Tr>
            <Table.Th style={NOWRAP}>お申込み日時</Table.Th>
            <Table.Th>取引ID</Table.Th>
            <Table.Th>会員</Table.Th>
            <Table.Th>支払方法</Table.Th>
            <Table.Th ta="right">金額</Table.Th>
            <Table.Th ta="right">ポイント</Table.Th>
            <Table.Th miw={90}>状態</Table.Th>
            <Table.Th>操作</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((t) => (
            <Table.Tr key={t.id} data-testid="transaction-row" data-transaction={t.transactionId}>
              <Table.Td style={NOWRAP} fz="sm">
                {formatDateTime(t.createdAt)}
              </Table.Td>
              <Table.Td ff="monospace" fz="sm">
                {t.transactionId}
              </Table.Td>
              <Table.Td fz="sm">
                {displayName(t.user)}
                <Text size="xs" c="dimmed">
                  ID: {t.user.userID}
                </Text>
              </Table.Td>
              <Table.Td fz="sm">{METHOD_LABELS[t.paymentMethod]}</Table.Td>
              <Table.Td ta="right" style={NOWRAP}>
                {yen(t.amount)}
              </Table.Td>
              <Table.Td ta="right" style={NOWRAP}>
                {pointsText(t.points)}
              </Table.Td>
              <Table.Td>
                <StatusBadge status={t.status} />
              </Table.Td>
              <Table.Td>
                {t.status === "pending" ? (
                  <Group gap={4} wrap="nowrap">
                    <Button
                      size="compact-xs"
                      onClick={() => onConfirm(t)}
                      loading={busyId === t.id && confirming}
                      disabled={busyId === t.id}
                      aria-label={`入金確認（取引 ${t.transactionId}）`}
                    >
                      入金確認
                    </Button>
                    <Button
                      size="compact-xs"
                      color="red"
                      variant="light"
                      onClick={() => onCancel(t)}
                      loading={busyId === t.id && cancelling}
                      disabled={busyId === t.id}
                      aria-label={`キャンセル（取引 ${t.transactionId}）`}
                    >
                      キャンセル
                    </Button>
                  </Group>
                ) : t.status === "paid" ? (
                  <Text size="xs" data-testid="confirmed-by">
                    確認者：
                    {t.confirmedBy ? t.confirmedBy.name || t.confirmedBy.userID : "決済代行会社からの通知"}
                    {t.reinstatedAt ? "（取消・期限切れ後の入金）" : ""}
                    <br />
                    {formatDateTime(t.confirmedAt)}
                  </Text>
                ) : t.status === "cancelled" ? (
                  <Text size="xs" c="dimmed">
                    {formatDateTime(t.cancelledAt)}
                  </Text>
                ) : null}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
