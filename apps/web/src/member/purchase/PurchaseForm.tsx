import { MSG } from "@enmusubi/shared";
import { Alert, Anchor, Button, Card, Group, NumberInput, Radio, Stack, Text } from "@mantine/core";
import { Link } from "react-router-dom";
import { BONUS_TEXT, bonusBadge, campaignEndText } from "../../features/payments/bonus-text";
import { limitsText, pointsFor, pointsText, rateText, yen } from "../../features/payments/calc";
import { METHOD_LABELS, type PaymentMethodKey } from "../../features/payments/StatusBadge";
import { PAYMENTS_TEXT } from "../../features/payments/text";
import type { RouterOutputs } from "../../lib/api-types";
import type { BonusQuote } from "./ConfirmOrder";

type PurchaseSettings = RouterOutputs["purchase"]["settings"];

/**
 * The campaign running for the chosen method, from the packs' quotes (each names the campaign that
 * applies to it): its name and end, shown once above the packs.
 */
function CampaignBanner({ quotes }: { quotes: BonusQuote[] }) {
  const campaign = quotes.flatMap((q) => q.items).find((i) => i.kind === "campaign");
  if (!campaign?.endsAt) return null;
  return (
    <Alert color="pink" role="status" title={`${campaign.label} 実施中`} data-testid="campaign-banner">
      <Text size="sm">{campaignEndText(campaign.endsAt)}のお申込みが対象です。</Text>
    </Alert>
  );
}

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
  packs,
  packBonus,
  amountBonus,
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
  /** The one-tap amounts inside the limits (PURCHASE_PACKS). */
  packs: readonly number[];
  /** Each pack's quote for the chosen method, once read (decision 0047). */
  packBonus: ReadonlyMap<number, BonusQuote>;
  /** The typed amount's quote, when the amount can be ordered. */
  amountBonus: BonusQuote | null;
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
            <CampaignBanner quotes={[...packBonus.values()]} />
            <Group gap="xs" aria-label="金額を選ぶ" role="group" align="flex-start">
              {packs.map((p) => {
                const bonus = packBonus.get(p)?.bonusPoints ?? 0;
                return (
                  <Stack key={p} gap={2} align="center" data-testid="purchase-pack">
                    <Button
                      size="compact-sm"
                      variant={amount === p ? "filled" : "default"}
                      aria-pressed={amount === p}
                      aria-describedby={bonus > 0 ? `pack-bonus-${p}` : undefined}
                      onClick={() => onAmount(p)}
                    >
                      {yen(p)}
                    </Button>
                    {bonus > 0 && (
                      <Text id={`pack-bonus-${p}`} size="xs" fw={700} c="pink.8">
                        {bonusBadge(bonus)}
                      </Text>
                    )}
                  </Stack>
                );
              })}
            </Group>
            <Text aria-live="polite" data-testid="purchase-computed-points">
              付与ポイント：
              <Text span fw={700} c="pink.8">
                {pointsText(typeof amount === "number" ? pointsFor(amount, settings.exchange) : 0)}
              </Text>
              {amountBonus && amountBonus.bonusPoints > 0 && (
                <Text span fw={700} c="pink.8" ml={6}>
                  {bonusBadge(amountBonus.bonusPoints)}
                </Text>
              )}
            </Text>
            {amountBonus?.items.some((i) => i.kind === "first_purchase") && (
              <Text size="xs" c="dimmed">
                {BONUS_TEXT.firstPurchaseNote}
              </Text>
            )}
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
