import { TRANSACTIONS_PAGE_SIZE } from "@enmusubi/shared";
import { Button, Card, Group, SegmentedControl, Select, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import { DateInput } from "@mantine/dates";
import { notifications } from "@mantine/notifications";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import { useState } from "react";
import { pointsText, yen } from "../../features/payments/calc";
import { PAYMENT_TEXT } from "../../features/payments/messages";
import { SalesChart } from "../../features/payments/SalesChart";
import {
  METHOD_LABELS,
  type PaymentMethodKey,
  STATUS_LABELS,
  StatusBadge,
  type TransactionStatus,
} from "../../features/payments/StatusBadge";
import type { AdminTransaction } from "../../features/payments/types";
import { confirmAction } from "../../lib/confirm";
import { JAPANESE_DATE_FORMAT, parseTypedDate } from "../../lib/dates";
import { displayName } from "../../lib/display-name";
import { formatDateTime } from "../../lib/format";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { ListStates } from "../../ui/ListStates";
import { PagePagination } from "../../ui/PagePagination";
import { PaymentNotifications } from "./PaymentNotifications";

interface Filters {
  status: TransactionStatus | null;
  method: PaymentMethodKey | null;
  startDate: string | null;
  endDate: string | null;
}

const NOWRAP = { whiteSpace: "nowrap" } as const;

/** A refusal of the filters (4xx) says why; anything else (network, server) is the catalogue's failure. */
function refusalOr(error: unknown, fallback: string): string {
  const status = error instanceof TRPCClientError ? (error.data as { httpStatus?: number } | undefined)?.httpStatus : 0;
  return status && status >= 400 && status < 500 ? (error as Error).message : fallback;
}
const STATUS_OPTIONS = (Object.keys(STATUS_LABELS) as TransactionStatus[]).map((value) => ({
  value,
  label: STATUS_LABELS[value],
}));
const METHOD_OPTIONS = (Object.keys(METHOD_LABELS) as PaymentMethodKey[]).map((value) => ({
  value,
  label: METHOD_LABELS[value],
}));

/**
 * Payment transactions (spec §2 admin screen 3): filters (status, method, start, end), the table
 * 20 a page with totals, confirm and cancel (each confirmed first) on pending rows only, who
 * confirmed a paid row; and the paid sales by day or month for the same period.
 */
export function PaymentTransactions() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [filters, setFilters] = useState<Filters>({ status: null, method: null, startDate: null, endDate: null });
  const [page, setPage] = useState(1);
  const [granularity, setGranularity] = useState<"day" | "month">("day");
  const input = {
    page,
    ...(filters.status ? { status: filters.status } : {}),
    ...(filters.method ? { method: filters.method } : {}),
    ...(filters.startDate ? { startDate: filters.startDate } : {}),
    ...(filters.endDate ? { endDate: filters.endDate } : {}),
  };
  const list = useQuery({ ...trpc.adminPayments.list.queryOptions(input), placeholderData: keepPreviousData });
  const sales = useQuery(
    trpc.adminPayments.sales.queryOptions({
      granularity,
      ...(filters.startDate ? { from: filters.startDate } : {}),
      ...(filters.endDate ? { to: filters.endDate } : {}),
    }),
  );
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: trpc.adminPayments.list.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.adminPayments.sales.queryKey() });
  };
  const confirm = useMutation(
    trpc.adminPayments.confirm.mutationOptions({
      onSuccess: () => notifications.show({ color: "green", message: PAYMENT_TEXT.confirmed }),
      onError: (e) => notifications.show({ color: "red", message: errorMessage(e, PAYMENT_TEXT.confirmFailed) }),
      onSettled: refresh,
    }),
  );
  const cancel = useMutation(
    trpc.adminPayments.cancel.mutationOptions({
      onSuccess: () => notifications.show({ color: "green", message: PAYMENT_TEXT.cancelled }),
      onError: (e) => notifications.show({ color: "red", message: errorMessage(e, PAYMENT_TEXT.cancelFailed) }),
      onSettled: refresh,
    }),
  );

  const setFilter = <K extends keyof Filters>(key: K, value: Filters[K]) => {
    setFilters((f) => ({ ...f, [key]: value }));
    setPage(1);
  };

  const describe = (t: AdminTransaction) =>
    `取引 ${t.transactionId}（${t.user.name || t.user.userID}・${yen(t.amount)}・${pointsText(t.points)}）`;
  const askConfirm = async (t: AdminTransaction) => {
    const ok = await confirmAction({
      title: "入金の確認",
      message: `${describe(t)}の入金を確認し、ポイントを付与しますか？`,
      confirmLabel: "入金を確認する",
      danger: false,
    });
    if (ok) confirm.mutate({ id: t.id });
  };
  const askCancel = async (t: AdminTransaction) => {
    const ok = await confirmAction({
      title: "取引のキャンセル",
      message: `${describe(t)}をキャンセルしますか？ポイントは付与されません。`,
      confirmLabel: "取引をキャンセルする",
    });
    if (ok) cancel.mutate({ id: t.id });
  };

  const data = list.data;
  const rows = data?.transactions ?? [];
  const busyId = confirm.isPending ? confirm.variables?.id : cancel.isPending ? cancel.variables?.id : undefined;

  return (
    <Stack gap="md">
      <Title order={2}>決済取引</Title>
      <Card withBorder padding="sm">
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} role="group" aria-label="絞り込み">
          <Select
            label="ステータス"
            placeholder="すべて"
            data={STATUS_OPTIONS}
            value={filters.status}
            onChange={(v) => setFilter("status", v as TransactionStatus | null)}
            clearable
          />
          <Select
            label="支払方法"
            placeholder="すべて"
            data={METHOD_OPTIONS}
            value={filters.method}
            onChange={(v) => setFilter("method", v as PaymentMethodKey | null)}
            clearable
          />
          <DateInput
            label="開始日"
            placeholder="例: 2026年11月1日"
            valueFormat={JAPANESE_DATE_FORMAT}
            dateParser={parseTypedDate}
            value={filters.startDate}
            onChange={(v) => setFilter("startDate", v)}
            clearable
          />
          <DateInput
            label="終了日"
            placeholder="例: 2026年11月30日"
            valueFormat={JAPANESE_DATE_FORMAT}
            dateParser={parseTypedDate}
            value={filters.endDate}
            onChange={(v) => setFilter("endDate", v)}
            minDate={filters.startDate ?? undefined}
            clearable
          />
        </SimpleGrid>
      </Card>

      {data && (
        <SimpleGrid cols={3} spacing="xs" aria-label="合計" role="group" data-testid="transaction-totals">
          <Total label="件数" value={`${Number(data.totals.count).toLocaleString("ja-JP")}件`} />
          <Total label="金額合計" value={yen(data.totals.amount)} />
          <Total label="ポイント合計" value={pointsText(data.totals.points)} />
        </SimpleGrid>
      )}

      <ListStates
        isLoading={list.isLoading}
        isError={list.isError}
        errorText={refusalOr(list.error, PAYMENT_TEXT.transactionsFetchFailed)}
        onRetry={() => void list.refetch()}
        isEmpty={rows.length === 0}
        emptyText="条件に一致する取引はありません"
      >
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
                          onClick={() => void askConfirm(t)}
                          loading={busyId === t.id && confirm.isPending}
                          disabled={busyId === t.id}
                          aria-label={`入金確認（取引 ${t.transactionId}）`}
                        >
                          入金確認
                        </Button>
                        <Button
                          size="compact-xs"
                          color="red"
                          variant="light"
                          onClick={() => void askCancel(t)}
                          loading={busyId === t.id && cancel.isPending}
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
        <Text size="xs" c="dimmed" ta="center">
          {TRANSACTIONS_PAGE_SIZE}件ずつ表示（全{Number(data?.pagination.total ?? 0).toLocaleString("ja-JP")}件）
        </Text>
        <PagePagination total={data?.pagination.totalPages ?? 1} value={page} onChange={setPage} />
      </ListStates>

      <PaymentNotifications />

      <Card withBorder padding="md" component="section" aria-labelledby="sales-heading">
        <Stack gap="sm">
          <Group justify="space-between">
            <Title order={3} size="h4" id="sales-heading">
              売上（支払済）
            </Title>
            <SegmentedControl
              aria-label="集計単位"
              value={granularity}
              onChange={(v) => setGranularity(v as "day" | "month")}
              data={[
                { value: "day", label: "日別" },
                { value: "month", label: "月別" },
              ]}
            />
          </Group>
          <ListStates
            isLoading={sales.isLoading}
            isError={sales.isError}
            errorText={refusalOr(sales.error, PAYMENT_TEXT.salesFetchFailed)}
            onRetry={() => void sales.refetch()}
            isEmpty={(sales.data?.length ?? 0) === 0}
            emptyText="この期間の売上はありません"
          >
            <SalesChart rows={sales.data ?? []} granularity={granularity} />
          </ListStates>
        </Stack>
      </Card>
    </Stack>
  );
}

function Total({ label, value }: { label: string; value: string }) {
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
