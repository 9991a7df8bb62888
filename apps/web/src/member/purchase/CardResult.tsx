import { Alert, Button, Card, Group, Loader, Stack, Table, Text } from "@mantine/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { pointsText, yen } from "../../features/payments/calc";
import { PAYMENTS_TEXT } from "../../features/payments/text";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { StepHeading } from "./ConfirmOrder";

/** How often, and how many times, the page asks whether the processor's result has arrived. */
const POLL_MS = 1500;
const POLL_TIMES = 40;

/**
 * The card payment's result (decision 0046), shown when the processor sends the member back
 * (`/user/point-purchase?order=…`): the order's status and the balance now. The notification that
 * credits may arrive a moment after the member: while the order is pending the page asks again.
 * Once paid, the header's balance is set from the answer and the history refreshed, without a
 * reload (the live stream, decision 0031, says 「…ptが加算されました」 as well).
 */
export function CardResult({ order, onBack }: { order: string; onBack(): void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const asked = useRef(0);
  const result = useQuery({
    ...trpc.purchase.cardResult.queryOptions({ id: order }),
    refetchInterval: (query) => {
      if (query.state.data?.status !== "pending") return false;
      asked.current += 1;
      return asked.current < POLL_TIMES ? POLL_MS : false;
    },
  });
  const data = result.data;
  const paid = data?.status === "paid";
  const balance = data?.balance;
  useEffect(() => {
    if (!paid || balance === undefined) return;
    queryClient.setQueryData(trpc.profile.me.queryKey(), (user) => (user ? { ...user, points: balance } : user));
    void queryClient.invalidateQueries({ queryKey: trpc.purchase.history.queryKey() });
  }, [paid, balance, queryClient, trpc]);

  return (
    <Card withBorder padding="md" data-testid="card-result">
      <Stack gap="md">
        <StepHeading>{PAYMENTS_TEXT.cardResultTitle}</StepHeading>
        {result.isError && (
          <Alert color="red" role="alert">
            {errorMessage(result.error, PAYMENTS_TEXT.fetchFailed)}
          </Alert>
        )}
        {data?.status === "pending" &&
          (asked.current < POLL_TIMES ? (
            <Group gap="xs" role="status">
              <Loader size="sm" aria-hidden />
              <Text>{PAYMENTS_TEXT.cardResultWaiting}</Text>
            </Group>
          ) : (
            <Alert color="yellow" role="status">
              {PAYMENTS_TEXT.cardResultSlow}
            </Alert>
          ))}
        {paid && (
          <>
            <Alert color="green" role="status" title={PAYMENTS_TEXT.cardResultPaid} data-testid="card-result-paid">
              {PAYMENTS_TEXT.cardResultAmount}：{yen(data.amount)}
            </Alert>
            <Table variant="vertical" withTableBorder layout="fixed">
              <Table.Tbody>
                <Table.Tr>
                  <Table.Th w={{ base: 130, sm: 170 }}>{PAYMENTS_TEXT.cardResultPoints}</Table.Th>
                  <Table.Td>{pointsText(data.points)}</Table.Td>
                </Table.Tr>
                {data.bonusPoints > 0 && (
                  <Table.Tr>
                    <Table.Th>{PAYMENTS_TEXT.cardResultBonus}</Table.Th>
                    <Table.Td data-testid="card-result-bonus">+{pointsText(data.bonusPoints)}</Table.Td>
                  </Table.Tr>
                )}
                <Table.Tr>
                  <Table.Th>{PAYMENTS_TEXT.cardResultBalance}</Table.Th>
                  <Table.Td data-testid="card-result-balance">{pointsText(data.balance)}</Table.Td>
                </Table.Tr>
              </Table.Tbody>
            </Table>
          </>
        )}
        {(data?.status === "failed" || data?.status === "cancelled") && (
          <Alert color="yellow" role="status" data-testid="card-result-failed">
            {PAYMENTS_TEXT.cardResultFailed}
          </Alert>
        )}
        {data?.status === "refunded" && (
          <Alert color="gray" role="status">
            {PAYMENTS_TEXT.cardResultRefunded}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onBack}>
            {PAYMENTS_TEXT.cardResultBack}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
