import { MSG } from "@enmusubi/shared";
import { Alert, Anchor, Button, Card, Group, NumberInput, Radio, Stack, Text } from "@mantine/core";
import { Link } from "react-router-dom";
import { limitsText, pointsFor, pointsText, rateText, yen } from "../../features/payments/calc";
import { METHOD_LABELS, type PaymentMethodKey } from "../../features/payments/StatusBadge";
import { PAYMENTS_TEXT } from "../../features/payments/text";
import type { RouterOutputs } from "../../lib/api-types";

type PurchaseSettings = RouterOutputs["purchase"]["settings"];

/** Amounts offered as one-tap choices, kept to those inside the limits. */
const PRESETS = [1000, 3000, 5000, 10000, 30000, 50000];

/**
 * Purchases open but no method usable: not a dead end. The member is told purchases are not
 * available now and where to ask; the operator, where a method is configured (決済設定).
 */
function NoPaymentMethod() {
  return (
    <Alert color="yellow" role="status" title={PAYMENTS_TEXT.noPaymentMethod} data-testid="purchase-unavailable">
      <Stack gap={6}>
        <Text size="sm">
          {PAYMENTS_TEXT.noPaymentMethodReason}ご不明な点は
          <Anchor component={Link} to="/user/inquiry" size="sm">
            お問い合わせ
          </Anchor>
          ください。
        </Text>
        <Text size="xs" c="dimmed">
          {PAYMENTS_TEXT.configureMethodHint}
        </Text>
      </Stack>
    </Alert>
  );
}

/**
 * The order form: the rate and limits, or why nothing can be bought; the payment method, the amount
 * (typed or one of the presets) and the points it buys, then 確認画面へ進む.
 */
export function PurchaseForm({
  settings,
  open,
  methods,
  chosen,
  onMethod,
  amount,
  onAmount,
  error,
  quoting,
  onConfirm,
}: {
  settings: PurchaseSettings;
  /** Purchases accepted and at least one method offered. */
  open: boolean;
  methods: PaymentMethodKey[];
  chosen: PaymentMethodKey | null;
  onMethod(method: PaymentMethodKey): void;
  amount: number | string;
  onAmount(amount: number | string): void;
  error: string | null;
  quoting: boolean;
  onConfirm(): void;
}) {
  return (
    <Card withBorder padding="md">
      <Stack gap="md">
        <Text fw={700} data-testid="purchase-rate">
          {rateText(settings.exchange)}
        </Text>
        <Text size="sm">{limitsText(settings)}</Text>
        {!open ? (
          settings.exchange.isActive ? (
            <NoPaymentMethod />
          ) : (
            <Alert color="yellow" role="status">
              {MSG.exchangeInactive}
            </Alert>
          )
        ) : (
          <>
            <Radio.Group label="支払方法" value={chosen} onChange={(v) => onMethod(v as PaymentMethodKey)}>
              <Stack gap="xs" mt={6}>
                {methods.map((m) => (
                  <Radio
                    key={m}
                    value={m}
                    label={METHOD_LABELS[m]}
                    description={m === "card" ? PAYMENTS_TEXT.cardRecommended : undefined}
                  />
                ))}
              </Stack>
            </Radio.Group>
            <NumberInput
              label="購入金額（円・税込）"
              description={`${yen(settings.minimumPurchase)}〜${yen(settings.maximumPurchase)}`}
              value={amount}
              onChange={onAmount}
              min={settings.minimumPurchase}
              max={settings.maximumPurchase}
              clampBehavior="none"
              allowDecimal={false}
              allowNegative={false}
              thousandSeparator=","
              suffix=" 円"
              inputMode="numeric"
              error={error ?? undefined}
            />
            <Group gap="xs" aria-label="金額を選ぶ" role="group">
              {PRESETS.filter((p) => p >= settings.minimumPurchase && p <= settings.maximumPurchase).map((p) => (
                <Button
                  key={p}
                  size="compact-sm"
                  variant={amount === p ? "filled" : "default"}
                  aria-pressed={amount === p}
                  onClick={() => onAmount(p)}
                >
                  {yen(p)}
                </Button>
              ))}
            </Group>
            <Text aria-live="polite" data-testid="purchase-computed-points">
              付与ポイント：
              <Text span fw={700} c="pink.8">
                {pointsText(typeof amount === "number" ? pointsFor(amount, settings.exchange) : 0)}
              </Text>
            </Text>
            <Group justify="flex-end">
              <Button onClick={onConfirm} loading={quoting} disabled={!chosen}>
                確認画面へ進む
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Card>
  );
}
