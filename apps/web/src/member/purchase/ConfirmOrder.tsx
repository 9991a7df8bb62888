import { POINT_VALIDITY_YEARS, purchaseConfirmation } from "@enmusubi/shared";
import { Alert, Anchor, Button, Card, Group, List, Stack, Table, Text, Title } from "@mantine/core";
import { type ReactNode, useEffect, useRef } from "react";
import { Link } from "react-router-dom";
import { BONUS_TEXT, bonusValidityText, campaignEndText } from "../../features/payments/bonus-text";
import { pointsText, yen } from "../../features/payments/calc";
import { METHOD_LABELS, type PaymentMethodKey } from "../../features/payments/StatusBadge";
import { CANCELLATION_RULES, CREDIT_TIMING, validityText } from "../../features/payments/terms";
import { PAYMENTS_TEXT } from "../../features/payments/text";
import type { RouterOutputs } from "../../lib/api-types";

/** `purchase.bonusQuote`: the points and the bonus an order placed now is credited (decision 0047). */
export type BonusQuote = RouterOutputs["purchase"]["bonusQuote"];

/** The bonus rows of the confirmation: each bonus with its points (a campaign with its end), the total, the validity. */
function bonusRows(bonus: BonusQuote): [string, ReactNode][] {
  if (bonus.bonusPoints === 0) return [];
  return [
    [
      "ボーナスポイント",
      <Stack key="bonus" gap={2} data-testid="confirm-bonus">
        {bonus.items.map((item) => (
          <Text key={item.kind} size="sm">
            {item.label}：+{pointsText(item.points)}
            {item.kind === "campaign" && item.endsAt ? `（${campaignEndText(item.endsAt)}のお申込みが対象）` : ""}
          </Text>
        ))}
        {bonus.items.some((i) => i.kind === "first_purchase") && (
          <Text size="xs" c="dimmed">
            {BONUS_TEXT.firstPurchaseNote}
          </Text>
        )}
      </Stack>,
    ],
    ["合計付与ポイント", pointsText(bonus.totalPoints)],
    ["ボーナスの有効期限", bonusValidityText(bonus.bonusValidityDays)],
  ];
}

/** A step's heading takes the focus when the step opens, so keyboard and screen-reader users start there. */
export function StepHeading({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return (
    <Title order={3} size="h4" ref={ref} tabIndex={-1} style={{ outline: "none" }}>
      {children}
    </Title>
  );
}

/** The final confirmation (特商法 art. 12-6): everything the order binds the member to, before it is placed. */
export function ConfirmOrder({
  step,
  error,
  pending,
  onBack,
  onOrder,
}: {
  step: { amount: number; points: number; method: PaymentMethodKey; bonus: BonusQuote };
  error: string | null;
  pending: boolean;
  onBack(): void;
  onOrder(): void;
}) {
  const rows: [string, ReactNode][] = [
    ["商品", "縁結びポイント"],
    ["付与ポイント", pointsText(step.points)],
    ...bonusRows(step.bonus),
    ["お支払い金額（税込）", yen(step.amount)],
    ["支払方法", METHOD_LABELS[step.method]],
    [
      "お支払い期限",
      step.method === "card"
        ? PAYMENTS_TEXT.cardDeadline
        : step.method === "smart_pit"
          ? "お申込み後に表示される支払期限まで（支払番号・バーコードでお支払いください）"
          : "お申込み後に表示される振込先へ、お早めにお振り込みください",
    ],
    ["ポイントの付与時期", step.method === "card" ? PAYMENTS_TEXT.cardCreditTiming : CREDIT_TIMING],
    ["有効期限", validityText(POINT_VALIDITY_YEARS)],
    [
      "キャンセル・返金",
      <List key="rules" size="sm" spacing={2}>
        {CANCELLATION_RULES.map((rule) => (
          <List.Item key={rule}>{rule}</List.Item>
        ))}
      </List>,
    ],
  ];
  return (
    <Card withBorder padding="md">
      <Stack gap="md">
        <StepHeading>ご注文内容の確認</StepHeading>
        <Table variant="vertical" withTableBorder layout="fixed" data-testid="purchase-confirmation">
          <Table.Tbody>
            {rows.map(([label, value]) => (
              <Table.Tr key={label}>
                <Table.Th w={{ base: 110, sm: 170 }}>{label}</Table.Th>
                <Table.Td>{value}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Text size="sm">
          <Anchor component={Link} to="/legal/transaction-law" target="_blank" rel="noopener">
            特定商取引法に基づく表記
          </Anchor>
          ・
          <Anchor component={Link} to="/legal/terms-of-service" target="_blank" rel="noopener">
            利用規約
          </Anchor>
          をご確認のうえ、お申込みください。
        </Text>
        <Text fw={700}>{purchaseConfirmation(step.points, step.amount)}</Text>
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onBack} disabled={pending}>
            戻る
          </Button>
          <Button onClick={onOrder} loading={pending}>
            {step.method === "card" ? PAYMENTS_TEXT.cardOrder : "購入を確定する"}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
