import { Button, Card, Group, SegmentedControl, Stack, Table, Text, Textarea, Title } from "@mantine/core";
import { modals } from "@mantine/modals";
import { notifications } from "@mantine/notifications";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { pointsText, yen } from "../../features/payments/calc";
import { STATUS_LABELS } from "../../features/payments/StatusBadge";
import { PAYMENTS_TEXT } from "../../features/payments/text";
import type { RouterOutputs } from "../../lib/api-types";
import { displayName } from "../../lib/display-name";
import { formatDateTime } from "../../lib/format";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { ListStates } from "../../ui/ListStates";
import { PagePagination } from "../../ui/PagePagination";

type View = "open" | "unsettled" | "all";

export type PaymentNotificationRow = RouterOutputs["adminPayments"]["notifications"]["notifications"][number];

export const OUTCOME_LABELS: Record<string, string> = {
  credited: "付与済み",
  reinstated: "付与済み（取消・期限切れ後の入金）",
  duplicate: "重複（処理なし）",
  unsettled: "要対応（未付与の入金）",
  refused_signature: "拒否（署名不正）",
  refused_invalid: "拒否（内容不正）",
  refused_unknown: "拒否（該当取引なし）",
  refused_amount: "拒否（金額不一致）",
  declined: "カード決済不成立（未付与）",
  reversed: "カード返金（ポイント回収済み）",
};

const REASON_LABELS: Record<string, string> = {
  account_closed: "会員が退会済みのため付与できません",
  overflow: "保有ポイントの上限を超えるため付与できません",
  points_spent: "カード決済が返金されましたが、ポイントが使用済みのため回収できません",
};

const RESOLUTION_LABELS = { settled: "処理済み", refunded: "返金済み" } as const;

/**
 * SmartPit's and the card processor's payment notifications (decisions 0018, 0046): every one received with what became of it, and
 * first the money that arrived but could not be credited (a cancelled or expired order of a member
 * who has left, or a balance that could not hold it), for an administrator to mark settled or
 * refunded with a note (audited).
 */
export function PaymentNotifications() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [view, setView] = useState<View>("open");
  const [page, setPage] = useState(1);
  const list = useQuery({
    ...trpc.adminPayments.notifications.queryOptions({ page, view }),
    placeholderData: keepPreviousData,
  });
  const resolve = useMutation(
    trpc.adminPayments.resolveNotification.mutationOptions({
      onSuccess: () => notifications.show({ color: "green", message: PAYMENTS_TEXT.notificationResolved }),
      onError: (e) =>
        notifications.show({ color: "red", message: errorMessage(e, PAYMENTS_TEXT.notificationResolveFailed) }),
      onSettled: () => void queryClient.invalidateQueries({ queryKey: trpc.adminPayments.notifications.queryKey() }),
    }),
  );
  const ask = (row: PaymentNotificationRow, resolution: "settled" | "refunded") => {
    let note = "";
    modals.openConfirmModal({
      title: resolution === "refunded" ? "返金済みにする" : "処理済みにする",
      centered: true,
      children: (
        <Stack gap="xs">
          <Text size="sm">
            {row.transactionRef ?? "（取引IDなし）"}・{row.amount !== null ? yen(row.amount) : "—"}の入金を
            {RESOLUTION_LABELS[resolution]}にしますか？
          </Text>
          <Textarea label="メモ（任意）" maxLength={500} onChange={(e) => (note = e.currentTarget.value)} rows={3} />
        </Stack>
      ),
      labels: { confirm: `${RESOLUTION_LABELS[resolution]}にする`, cancel: "戻る" },
      confirmProps: { color: "pink" },
      onConfirm: () => resolve.mutate({ id: row.id, resolution, ...(note.trim() ? { note: note.trim() } : {}) }),
    });
  };
  const rows = list.data?.notifications ?? [];
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="notifications-heading">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3} size="h4" id="notifications-heading">
            入金通知
          </Title>
          <SegmentedControl
            aria-label="表示する入金通知"
            value={view}
            onChange={(v) => {
              setView(v as View);
              setPage(1);
            }}
            data={[
              { value: "open", label: "要対応" },
              { value: "unsettled", label: "未付与の入金すべて" },
              { value: "all", label: "すべての通知" },
            ]}
          />
        </Group>
        <ListStates
          isLoading={list.isLoading}
          isError={list.isError}
          errorText={PAYMENTS_TEXT.notificationsFetchFailed}
          onRetry={() => void list.refetch()}
          isEmpty={rows.length === 0}
          emptyText={view === "open" ? "対応が必要な入金はありません" : "入金通知はありません"}
        >
          <Table.ScrollContainer minWidth={860}>
            <Table striped verticalSpacing="xs" aria-labelledby="notifications-heading">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>受信日時</Table.Th>
                  <Table.Th>取引</Table.Th>
                  <Table.Th ta="right">金額</Table.Th>
                  <Table.Th>結果</Table.Th>
                  <Table.Th>対応</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((n) => (
                  <Table.Tr key={n.id} data-testid="notification-row">
                    <Table.Td fz="sm" style={{ whiteSpace: "nowrap" }}>
                      {formatDateTime(n.receivedAt)}
                    </Table.Td>
                    <Table.Td fz="sm">
                      <Text ff="monospace" size="sm">
                        {n.transaction?.transactionId ?? n.transactionRef ?? "—"}
                      </Text>
                      {n.transaction && (
                        <Text size="xs" c="dimmed">
                          {displayName(n.transaction.user)}（ID: {n.transaction.user.userID}）・
                          {STATUS_LABELS[n.transaction.status]}・{pointsText(n.transaction.points)}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td ta="right" style={{ whiteSpace: "nowrap" }}>
                      {n.amount !== null ? yen(n.amount) : "—"}
                    </Table.Td>
                    <Table.Td fz="sm">
                      {OUTCOME_LABELS[n.outcome] ?? n.outcome}
                      {n.reason && (
                        <Text size="xs" c="red.8">
                          {REASON_LABELS[n.reason]}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td fz="sm">
                      {n.outcome !== "unsettled" ? null : n.resolution ? (
                        <Text size="xs">
                          {RESOLUTION_LABELS[n.resolution]}（{n.resolvedBy?.name || n.resolvedBy?.userID}・
                          {formatDateTime(n.resolvedAt)}）{n.resolutionNote ? `：${n.resolutionNote}` : ""}
                        </Text>
                      ) : (
                        <Group gap={4} wrap="nowrap">
                          <Button
                            size="compact-xs"
                            onClick={() => ask(n, "refunded")}
                            aria-label={`返金済みにする（${n.transactionRef ?? n.id}）`}
                          >
                            返金済みにする
                          </Button>
                          <Button
                            size="compact-xs"
                            variant="light"
                            onClick={() => ask(n, "settled")}
                            aria-label={`処理済みにする（${n.transactionRef ?? n.id}）`}
                          >
                            処理済みにする
                          </Button>
                        </Group>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <PagePagination total={list.data?.pagination.totalPages ?? 1} value={page} onChange={setPage} />
        </ListStates>
      </Stack>
    </Card>
  );
}
