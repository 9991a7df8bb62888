import { Modal, Stack, Table, Text, Title } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { bonusBadge } from "../../features/payments/bonus-text";
import { pointsText, yen } from "../../features/payments/calc";
import { PaymentInstructions } from "../../features/payments/PaymentInstructions";
import { METHOD_LABELS, StatusBadge } from "../../features/payments/StatusBadge";
import { PAYMENTS_TEXT } from "../../features/payments/text";
import type { Transaction } from "../../features/payments/types";
import { formatDateTime } from "../../lib/format";
import { useTRPC } from "../../lib/trpc";
import { ListStates } from "../../ui/ListStates";
import { PagePagination } from "../../ui/PagePagination";
import { PaymentCell, PurchaseCards } from "./PurchaseCards";

const NOWRAP = { whiteSpace: "nowrap" } as const;
const POLL_PENDING_MS = 15_000;

/**
 * The member's own purchases, newest first, with their status; a pending order's payment details
 * again. A table on wide screens, a card per purchase on a phone (48em, the shell's narrow width).
 */
export function PurchaseHistory() {
  const trpc = useTRPC();
  const [page, setPage] = useState(1);
  const queryClient = useQueryClient();
  const history = useQuery({
    ...trpc.purchase.history.queryOptions({ page }),
    // While an order waits for its payment, look again now and then: the member sees it paid.
    refetchInterval: (query) =>
      query.state.data?.transactions.some((t) => t.status === "pending") ? POLL_PENDING_MS : false,
  });
  const [shown, setShown] = useState<Transaction | null>(null);
  // Read at the first render: a phone never draws the table first.
  const phone = useMediaQuery("(max-width: 48em)", undefined, { getInitialValueInEffect: false });
  const rows = history.data?.transactions ?? [];
  // An order confirmed since the last look credited points: the header and card show the new balance.
  const paid = rows.filter((t) => t.status === "paid").length;
  const lastPaid = useRef<number | null>(null);
  useEffect(() => {
    if (!history.data) return;
    if (lastPaid.current !== null && paid > lastPaid.current)
      void queryClient.invalidateQueries({ queryKey: trpc.profile.me.queryKey() });
    lastPaid.current = paid;
  }, [paid, history.data, queryClient, trpc]);
  const totalPages = history.data?.pagination.totalPages ?? 1;
  return (
    <Stack gap="sm" component="section" aria-labelledby="purchase-history-heading">
      <Title order={3} size="h4" id="purchase-history-heading">
        購入履歴
      </Title>
      <ListStates
        isLoading={history.isLoading}
        isError={history.isError}
        error={history.error}
        errorText={PAYMENTS_TEXT.fetchFailed}
        onRetry={() => void history.refetch()}
        isEmpty={rows.length === 0}
        emptyText="購入履歴はありません"
      >
        {phone ? (
          <PurchaseCards rows={rows} onShow={setShown} />
        ) : (
          <Table.ScrollContainer minWidth={680}>
            <Table striped aria-labelledby="purchase-history-heading">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th style={NOWRAP}>お申込み日時</Table.Th>
                  <Table.Th>取引ID</Table.Th>
                  <Table.Th ta="right">金額</Table.Th>
                  <Table.Th ta="right">ポイント</Table.Th>
                  <Table.Th>支払方法</Table.Th>
                  <Table.Th>状態</Table.Th>
                  <Table.Th>お支払い</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((t) => (
                  <Table.Tr key={t.id} data-testid="purchase-history-row">
                    <Table.Td style={NOWRAP}>{formatDateTime(t.createdAt)}</Table.Td>
                    <Table.Td ff="monospace" fz="sm">
                      {t.transactionId}
                    </Table.Td>
                    <Table.Td ta="right" style={NOWRAP}>
                      {yen(t.amount)}
                    </Table.Td>
                    <Table.Td ta="right" style={NOWRAP}>
                      {pointsText(t.points)}
                      {t.bonusPoints > 0 && (
                        <Text size="xs" c="pink.8" fw={700}>
                          {bonusBadge(t.bonusPoints)}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td fz="sm">{METHOD_LABELS[t.paymentMethod]}</Table.Td>
                    <Table.Td>
                      <StatusBadge status={t.status} />
                    </Table.Td>
                    <Table.Td>
                      <PaymentCell transaction={t} onShow={setShown} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <PagePagination total={totalPages} value={page} onChange={setPage} />
      </ListStates>
      <Modal opened={!!shown} onClose={() => setShown(null)} title="お支払い方法" centered size="lg">
        {shown && <PaymentInstructions transaction={shown} />}
      </Modal>
    </Stack>
  );
}
