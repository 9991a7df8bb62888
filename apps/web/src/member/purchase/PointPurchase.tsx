import { PURCHASE_PACKS } from "@enmusubi/shared";
import { Button, Card, Group, Stack, Title } from "@mantine/core";
import { keepPreviousData, useMutation, useQueries, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useSearchParams } from "react-router-dom";
import { amountError } from "../../features/payments/calc";
import { PaymentInstructions } from "../../features/payments/PaymentInstructions";
import type { PaymentMethodKey } from "../../features/payments/StatusBadge";
import { PAYMENTS_TEXT } from "../../features/payments/text";
import type { Transaction } from "../../features/payments/types";
import { errorMessage, useTRPC, useTRPCClient } from "../../lib/trpc";
import { ListStates } from "../../ui/ListStates";
import { CardResult } from "./CardResult";
import { type BonusQuote, ConfirmOrder, StepHeading } from "./ConfirmOrder";
import { PurchaseForm } from "./PurchaseForm";
import { PurchaseHistory } from "./PurchaseHistory";

const FETCH_FAILED = PAYMENTS_TEXT.fetchFailed;
const CREATE_FAILED = PAYMENTS_TEXT.createFailed;

type Step =
  | { kind: "form" }
  | { kind: "confirm"; amount: number; points: number; method: PaymentMethodKey; bonus: BonusQuote }
  | { kind: "done"; transaction: Transaction }
  | { kind: "redirecting" };

/** Where the browser goes for a card order: the processor's payment page (a seam for the tests). */
export const goToCheckout = { assign: (url: string) => window.location.assign(url) };

/**
 * Point purchase (spec §2 member; §4 purchase flow; §5): payment method, amount within the
 * settings' limits and the points it buys, a final confirmation with what 特商法 requires before
 * an order, then the payment code and barcode (SmartPit) or the bank details, and the history.
 * A card order (decision 0046) goes to the processor's payment page; the processor sends the member
 * back here with `?order=`, and the card's result with the balance is shown.
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
  const [search, setSearch] = useSearchParams();
  const returnedOrder = search.get("order");

  const create = useMutation(
    trpc.purchase.create.mutationOptions({
      onSuccess: (transaction) => {
        if (transaction.card) {
          setStep({ kind: "redirecting" });
          goToCheckout.assign(transaction.card.checkoutUrl);
          return;
        }
        setStep({ kind: "done", transaction });
        void queryClient.invalidateQueries({ queryKey: trpc.purchase.history.queryKey() });
      },
      onError: (e) => setError(errorMessage(e, CREATE_FAILED)),
    }),
  );

  const data = settings.data;
  const methods: PaymentMethodKey[] = data
    ? [
        // The card first: recommended, credited at once.
        ...(data.methods.card ? (["card"] as const) : []),
        ...(data.methods.smartPit ? (["smart_pit"] as const) : []),
        ...(data.methods.bankTransfer ? (["bank_transfer"] as const) : []),
      ]
    : [];
  const chosen = method ?? methods[0] ?? null;
  const open = !!data && data.exchange.isActive && methods.length > 0;
  // The bonus of each pack for the chosen method, as the server would credit an order placed now
  // (decision 0047): 「+500pt ボーナス」 under the pack, the campaign's end above them.
  const packs = data
    ? PURCHASE_PACKS.filter((p) => p >= data.minimumPurchase && p <= data.maximumPurchase)
    : ([] as number[]);
  const packQuotes = useQueries({
    queries: packs.map((p) => ({
      ...trpc.purchase.bonusQuote.queryOptions({ amount: p, paymentMethod: chosen ?? "smart_pit" }),
      enabled: open && !!chosen,
    })),
  });
  // The form is first drawn with the packs' bonus lines (answered or failed): drawn before them it
  // grew as each came, and pushed the history down (Lighthouse's CLS 0.31 on a phone). The history
  // is laid out when the form is, for the same reason; its query starts at once either way. Later
  // changes (another method's bonuses) follow the member's own input, and the form stays.
  const showsForm = !!data && !returnedOrder && step.kind === "form";
  const quotesPending = showsForm && open && !!chosen && packQuotes.some((q) => q.isPending);
  const [drawn, setDrawn] = useState(false);
  const settled = drawn || (!settings.isLoading && !quotesPending);
  useEffect(() => {
    if (settled && !drawn) setDrawn(true);
  }, [settled, drawn]);
  const bonusOf = new Map<number, BonusQuote>();
  packs.forEach((p, i) => {
    const q = packQuotes[i]?.data;
    if (q) bonusOf.set(p, q);
  });
  const typed = typeof amount === "number" && data && !amountError(amount, data) ? amount : null;
  const typedQuote = useQuery({
    ...trpc.purchase.bonusQuote.queryOptions({ amount: typed ?? 0, paymentMethod: chosen ?? "smart_pit" }),
    enabled: open && !!chosen && typed !== null,
    placeholderData: keepPreviousData,
  });

  const toConfirm = async () => {
    if (!data || !chosen) return;
    const problem = amountError(amount, data);
    if (problem) return setError(problem);
    setError(null);
    setQuoting(true);
    try {
      // The server's figures are the ones ordered: the points at the rate and the bonus an order
      // placed now gets (the live figures above are the same).
      const quote = await client.purchase.bonusQuote.query({ amount: amount as number, paymentMethod: chosen });
      setStep({ kind: "confirm", amount: quote.amount, points: quote.points, method: chosen, bonus: quote });
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
        isLoading={!settled}
        isError={settings.isError}
        error={settings.error}
        errorText={FETCH_FAILED}
        onRetry={() => void settings.refetch()}
        isEmpty={false}
        emptyText=""
      >
        {returnedOrder && (
          <CardResult
            order={returnedOrder}
            onBack={() => {
              setSearch({}, { replace: true });
              restart();
            }}
          />
        )}
        {step.kind === "redirecting" && (
          <Card withBorder padding="md" role="status">
            {PAYMENTS_TEXT.cardRedirecting}
          </Card>
        )}
        {showsForm && (
          <PurchaseForm
            settings={data}
            open={open}
            methods={methods}
            chosen={chosen}
            onMethod={setMethod}
            amount={amount}
            onAmount={(v) => {
              setAmount(v);
              setError(null);
            }}
            error={error}
            quoting={quoting}
            onConfirm={() => void toConfirm()}
            packs={packs}
            packBonus={bonusOf}
            amountBonus={typed !== null && typedQuote.data?.amount === typed ? typedQuote.data : null}
          />
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
      <div hidden={!settled}>
        <PurchaseHistory />
      </div>
    </Stack>
  );
}
