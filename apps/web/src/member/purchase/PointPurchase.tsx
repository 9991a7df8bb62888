import { MSG, POINT_VALIDITY_YEARS, purchaseConfirmation } from "@enmusubi/shared";
import { Alert, Anchor, Button, Card, Group, List, NumberInput, Radio, Stack, Table, Text, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { Link } from "react-router-dom";
import { amountError, limitsText, pointsFor, pointsText, rateText, yen } from "../../features/payments/calc";
import { PAYMENT_TEXT } from "../../features/payments/messages";
import { PaymentInstructions } from "../../features/payments/PaymentInstructions";
import { METHOD_LABELS, type PaymentMethodKey } from "../../features/payments/StatusBadge";
import { CANCELLATION_RULES, CREDIT_TIMING, validityText } from "../../features/payments/terms";
import type { Transaction } from "../../features/payments/types";
import { errorMessage, useTRPC, useTRPCClient } from "../../lib/trpc";
import { ListStates } from "../../ui/ListStates";
import { PurchaseHistory } from "./PurchaseHistory";

const FETCH_FAILED = PAYMENT_TEXT.fetchFailed;
const CREATE_FAILED = PAYMENT_TEXT.createFailed;

/** Amounts offered as one-tap choices, kept to those inside the limits. */
const PRESETS = [1000, 3000, 5000, 10000, 30000, 50000];

type Step =
  | { kind: "form" }
  | { kind: "confirm"; amount: number; points: number; method: PaymentMethodKey }
  | { kind: "done"; transaction: Transaction };

/**
 * Point purchase (spec §2 member; §4 purchase flow; §5): payment method, amount within the
 * settings' limits and the points it buys, a final confirmation with what 特商法 requires before
 * an order, then the payment code and barcode (SmartPit) or the bank details, and the history.
 */
export function PointPurchase() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const settings = useQuery(trpc.purchase.settings.queryOptions());
  const [step, setStep] = useState<Step>({ kind: "form" });
  const [amount, setAmount] = useState<number | string>("");
  const [method, setMethod] = useState<PaymentMethodKey | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [quoting, setQuoting] = useState(false);

  const create = useMutation(
    trpc.purchase.create.mutationOptions({
      onSuccess: (transaction) => {
        setStep({ kind: "done", transaction });
        void queryClient.invalidateQueries({ queryKey: trpc.purchase.history.queryKey() });
      },
      onError: (e) => setError(errorMessage(e, CREATE_FAILED)),
    }),
  );

  const data = settings.data;
  const methods: PaymentMethodKey[] = data
    ? [
        ...(data.methods.smartPit ? (["smart_pit"] as const) : []),
        ...(data.methods.bankTransfer ? (["bank_transfer"] as const) : []),
      ]
    : [];
  const chosen = method ?? methods[0] ?? null;
  const open = !!data && data.exchange.isActive && methods.length > 0;

  const toConfirm = async () => {
    if (!data || !chosen) return;
    const problem = amountError(amount, data);
    if (problem) return setError(problem);
    setError(null);
    setQuoting(true);
    try {
      // The server's figure is the one ordered; the live figure above is the same formula.
      const quote = await client.purchase.quote.query({ amount: amount as number });
      setStep({ kind: "confirm", amount: quote.amount, points: quote.points, method: chosen });
    } catch (e) {
      setError(errorMessage(e, FETCH_FAILED));
    } finally {
      setQuoting(false);
    }
  };

  const restart = () => {
    setStep({ kind: "form" });
    setError(null);
    create.reset();
  };

  return (
    <Stack gap="md">
      <Title order={2}>ポイント購入</Title>
      <ListStates
        isLoading={settings.isLoading}
        isError={settings.isError}
        errorText={FETCH_FAILED}
        onRetry={() => void settings.refetch()}
        isEmpty={false}
        emptyText=""
      >
        {data && step.kind === "form" && (
          <Card withBorder padding="md">
            <Stack gap="md">
              <Text fw={700} data-testid="purchase-rate">
                {rateText(data.exchange)}
              </Text>
              <Text size="sm">{limitsText(data)}</Text>
              {!open ? (
                <Alert color="yellow" role="status">
                  {data.exchange.isActive ? PAYMENT_TEXT.noPaymentMethod : MSG.exchangeInactive}
                </Alert>
              ) : (
                <>
                  <Radio.Group label="支払方法" value={chosen} onChange={(v) => setMethod(v as PaymentMethodKey)}>
                    <Stack gap="xs" mt={6}>
                      {methods.map((m) => (
                        <Radio key={m} value={m} label={METHOD_LABELS[m]} />
                      ))}
                    </Stack>
                  </Radio.Group>
                  <NumberInput
                    label="購入金額（円・税込）"
                    description={`${yen(data.minimumPurchase)}〜${yen(data.maximumPurchase)}`}
                    value={amount}
                    onChange={(v) => {
                      setAmount(v);
                      setError(null);
                    }}
                    min={data.minimumPurchase}
                    max={data.maximumPurchase}
                    clampBehavior="none"
                    allowDecimal={false}
                    allowNegative={false}
                    thousandSeparator=","
                    suffix=" 円"
                    inputMode="numeric"
                    error={error ?? undefined}
                  />
                  <Group gap="xs" aria-label="金額を選ぶ" role="group">
                    {PRESETS.filter((p) => p >= data.minimumPurchase && p <= data.maximumPurchase).map((p) => (
                      <Button
                        key={p}
                        size="compact-sm"
                        variant={amount === p ? "filled" : "default"}
                        aria-pressed={amount === p}
                        onClick={() => {
                          setAmount(p);
                          setError(null);
                        }}
                      >
                        {yen(p)}
                      </Button>
                    ))}
                  </Group>
                  <Text aria-live="polite" data-testid="purchase-computed-points">
                    付与ポイント：
                    <Text span fw={700} c="pink.8">
                      {pointsText(typeof amount === "number" ? pointsFor(amount, data.exchange) : 0)}
                    </Text>
                  </Text>
                  <Group justify="flex-end">
                    <Button onClick={() => void toConfirm()} loading={quoting} disabled={!chosen}>
                      確認画面へ進む
                    </Button>
                  </Group>
                </>
              )}
            </Stack>
          </Card>
        )}
        {step.kind === "confirm" && (
          <ConfirmOrder
            step={step}
            error={error}
            pending={create.isPending}
            onBack={() => {
              setError(null);
              setStep({ kind: "form" });
            }}
            onOrder={() => {
              setError(null);
              create.mutate({ amount: step.amount, paymentMethod: step.method });
            }}
          />
        )}
        {step.kind === "done" && (
          <Card withBorder padding="md">
            <Stack gap="md">
              <StepHeading>お申込みを受け付けました</StepHeading>
              <PaymentInstructions transaction={step.transaction} />
              <Group justify="flex-end">
                <Button variant="default" onClick={restart}>
                  続けて購入する
                </Button>
              </Group>
            </Stack>
          </Card>
        )}
      </ListStates>
      <PurchaseHistory />
    </Stack>
  );
}

/** A step's heading takes the focus when the step opens, so keyboard and screen-reader users start there. */
function StepHeading({ children }: { children: ReactNode }) {
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
function ConfirmOrder({
  step,
  error,
  pending,
  onBack,
  onOrder,
}: {
  step: { amount: number; points: number; method: PaymentMethodKey };
  error: string | null;
  pending: boolean;
  onBack(): void;
  onOrder(): void;
}) {
  const rows: [string, ReactNode][] = [
    ["商品", "縁結びポイント"],
    ["付与ポイント", pointsText(step.points)],
    ["お支払い金額（税込）", yen(step.amount)],
    ["支払方法", METHOD_LABELS[step.method]],
    [
      "お支払い期限",
      step.method === "smart_pit"
        ? "お申込み後に表示される支払期限まで（支払番号・バーコードでお支払いください）"
        : "お申込み後に表示される振込先へ、お早めにお振り込みください",
    ],
    ["ポイントの付与時期", CREDIT_TIMING],
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
            購入を確定する
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
