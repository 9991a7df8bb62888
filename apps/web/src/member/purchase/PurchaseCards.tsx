import { Button, Card, Group, SimpleGrid, Stack, Text } from "@mantine/core";
import type { ReactNode } from "react";
import { bonusBadge } from "../../features/payments/bonus-text";
import { pointsText, yen } from "../../features/payments/calc";
import { METHOD_LABELS, StatusBadge } from "../../features/payments/StatusBadge";
import type { Transaction } from "../../features/payments/types";
import { formatDateTime } from "../../lib/format";

/** What a purchase offers after its status: a pending order's payment details again, or when it was paid. */
export function PaymentCell({
  transaction: t,
  onShow,
  size = "compact-xs",
}: {
  transaction: Transaction;
  onShow(t: Transaction): void;
  /** "xs" on a phone's card (a finger's target). */
  size?: "compact-xs" | "xs";
}) {
  if (t.status === "pending" && (t.smartPit || t.bank))
    return (
      <Button
        size={size}
        variant="light"
        onClick={() => onShow(t)}
        aria-label={`表示（取引 ${t.transactionId} のお支払い方法）`}
      >
        表示
      </Button>
    );
  return (
    <Text span size="sm" c="dimmed">
      {t.status === "paid" ? formatDateTime(t.confirmedAt) : "—"}
    </Text>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      {children}
    </div>
  );
}

/**
 * The purchase history on a phone: one card per purchase with its date and status on top, then the
 * amount, points, method and transaction ID, every figure in view (the table cut the amount and hid
 * the status at 375 px).
 */
export function PurchaseCards({ rows, onShow }: { rows: Transaction[]; onShow(t: Transaction): void }) {
  return (
    <Stack gap="xs" component="ul" aria-labelledby="purchase-history-heading" p={0} m={0} style={{ listStyle: "none" }}>
      {rows.map((t) => (
        <Card key={t.id} component="li" withBorder padding="sm" data-testid="purchase-history-row">
          <Stack gap={6}>
            <Group justify="space-between" gap="xs" wrap="nowrap">
              <Text size="sm" fw={600}>
                {formatDateTime(t.createdAt)}
              </Text>
              <StatusBadge status={t.status} />
            </Group>
            <SimpleGrid cols={2} spacing="xs" verticalSpacing={4}>
              <Field label="金額">
                <Text fw={700}>{yen(t.amount)}</Text>
              </Field>
              <Field label="ポイント">
                <Text fw={700}>{pointsText(t.points)}</Text>
                {t.bonusPoints > 0 && (
                  <Text size="xs" c="pink.8" fw={700}>
                    {bonusBadge(t.bonusPoints)}
                  </Text>
                )}
              </Field>
            </SimpleGrid>
            <Field label="支払方法">
              <Text size="sm">{METHOD_LABELS[t.paymentMethod]}</Text>
            </Field>
            <Group justify="space-between" gap="xs" wrap="wrap">
              <Text size="xs" c="dimmed" ff="monospace" style={{ overflowWrap: "anywhere" }}>
                取引ID {t.transactionId}
              </Text>
              {t.status === "pending" && <PaymentCell transaction={t} onShow={onShow} size="xs" />}
              {t.status === "paid" && (
                <Text size="xs" c="dimmed">
                  入金確認 {formatDateTime(t.confirmedAt)}
                </Text>
              )}
            </Group>
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}
