import { TRANSACTIONS_PAGE_SIZE } from "@enmusubi/shared";
import { Card, Group, SegmentedControl, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import { useState } from "react";
import { pointsText, yen } from "../../features/payments/calc";
import { SalesChart } from "../../features/payments/SalesChart";
import { PAYMENTS_TEXT } from "../../features/payments/text";
import type { AdminTransaction } from "../../features/payments/types";
import { confirmAction } from "../../lib/confirm";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { ListStates } from "../../ui/ListStates";
import { PagePagination } from "../../ui/PagePagination";
import { PaymentNotifications } from "./PaymentNotifications";
import { type Filters, TransactionFilters } from "./TransactionFilters";
import { Total, TransactionTable } from "./TransactionTable";

/** A refusal of the filters (4xx) says why; anything else (network, server) is the catalogue's failure. */
function refusalOr(error: unknown, fallback: string): string {
  const status = error instanceof TRPCClientError ? (error.data as { httpStatus?: number } | undefined)?.httpStatus : 0;
  return status && status >= 400 && status < 500 ? (error as Error).message : fallback;
}
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
      onSuccess: () => notifications.show({ color: "green", message: PAYMENTS_TEXT.confirmed }),
      onError: (e) => notifications.show({ color: "red", message: errorMessage(e, PAYMENTS_TEXT.confirmFailed) }),
      onSettled: refresh,
    }),
  );
  const cancel = useMutation(
    trpc.adminPayments.cancel.mutationOptions({
      onSuccess: () => notifications.show({ color: "green", message: PAYMENTS_TEXT.cancelled }),
      onError: (e) => notifications.show({ color: "red", message: errorMessage(e, PAYMENTS_TEXT.cancelFailed) }),
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
      <TransactionFilters filters={filters} onChange={setFilter} />

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
        errorText={refusalOr(list.error, PAYMENTS_TEXT.transactionsFetchFailed)}
        onRetry={() => void list.refetch()}
        isEmpty={rows.length === 0}
        emptyText="条件に一致する取引はありません"
      >
        <TransactionTable
          rows={rows}
          busyId={busyId}
          confirming={confirm.isPending}
          cancelling={cancel.isPending}
          onConfirm={(t) => void askConfirm(t)}
          onCancel={(t) => void askCancel(t)}
        />
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
            errorText={refusalOr(sales.error, PAYMENTS_TEXT.salesFetchFailed)}
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
