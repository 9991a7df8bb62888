import { type BonusRule, bonusRulesSaveInput, campaignCreateInput, MSG, type PaymentMethod } from "@enmusubi/shared";
import { Alert, Button, Card, Checkbox, Group, Select, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { worthText } from "../../features/payments/bonus-text";
import { yen } from "../../features/payments/calc";
import { METHOD_LABELS } from "../../features/payments/StatusBadge";
import type { RouterOutputs } from "../../lib/api-types";
import { formatDateTime } from "../../lib/format";
import { asNumber, type FieldErrors, validate } from "../../lib/forms";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { ListStates } from "../../ui/ListStates";
import { BonusPreview } from "./BonusPreview";
import { BonusWorthInput, type WorthDraft, worthOf } from "./BonusWorthInput";
import { ADMIN_BONUS_TEXT as T } from "./bonus-text";

type Data = RouterOutputs["adminPayments"]["bonusRules"];

const draftOf = (w: { ratePercent: number | null; fixedPoints: number | null }): WorthDraft =>
  w.fixedPoints !== null ? { kind: "fixed", value: w.fixedPoints } : { kind: "rate", value: w.ratePercent ?? "" };

/** Everything that reads the bonus rules is refreshed after a change. */
function useRefresh() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: trpc.adminPayments.bonusRules.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.purchase.bonusQuote.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.legal.info.queryKey() });
  };
}

/** The first-purchase bonus and the tiers, with the preview of the packs beside them. */
function RulesForm({ data }: { data: Data }) {
  const trpc = useTRPC();
  const refresh = useRefresh();
  const [firstOn, setFirstOn] = useState(data.firstPurchase !== null);
  const [first, setFirst] = useState<WorthDraft>(
    data.firstPurchase ? draftOf(data.firstPurchase) : { kind: "fixed", value: 300 },
  );
  const [tiers, setTiers] = useState<Array<{ minAmount: number | string; worth: WorthDraft }>>(
    data.tiers.map((t) => ({ minAmount: t.minAmount, worth: draftOf(t) })),
  );
  const [errors, setErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<string | null>(null);
  const save = useMutation(
    trpc.adminPayments.saveBonusRules.mutationOptions({
      onSuccess: () => {
        notifications.show({ color: "green", message: T.saved });
        setError(null);
        refresh();
      },
      onError: (e) => setError(errorMessage(e, MSG.bonusSaveFailed)),
    }),
  );
  const values = {
    firstPurchase: firstOn ? worthOf(first) : null,
    tiers: tiers.map((t) => ({ minAmount: asNumber(t.minAmount), ...worthOf(t.worth) })),
  };
  const valid = validate(bonusRulesSaveInput, values);
  // The preview shows what would be in force: the draft while it is valid, its valid parts otherwise.
  const draft: BonusRule[] = [
    ...(values.firstPurchase && validate(bonusRulesSaveInput, { firstPurchase: values.firstPurchase, tiers: [] }).ok
      ? [{ kind: "first_purchase" as const, minAmount: 0, ...values.firstPurchase }]
      : []),
    ...values.tiers
      .filter((t) => validate(bonusRulesSaveInput, { firstPurchase: null, tiers: [t] }).ok)
      .map((t) => ({ kind: "tier" as const, ...t })),
  ].map((r, i) => ({ ...r, id: `draft-${i}`, name: "", paymentMethod: null, startsAt: new Date(0), endsAt: null }));
  const submit = () => {
    if (!valid.ok) return setErrors(valid.errors);
    setErrors({});
    save.mutate(valid.data);
  };
  // A tier's own error: the schema's first message about it (tiers.N).
  const tierError = (i: number) => {
    const result = validate(bonusRulesSaveInput, { firstPurchase: null, tiers: [values.tiers[i]] });
    return errors.tiers !== undefined && !result.ok ? Object.values(result.errors)[0] : undefined;
  };
  return (
    <Stack gap="lg">
      <Stack gap="sm">
        <Title order={3} size="h4">
          {T.rulesHeading}
        </Title>
        <Checkbox label={T.firstPurchase} checked={firstOn} onChange={(e) => setFirstOn(e.currentTarget.checked)} />
        {firstOn && (
          <BonusWorthInput label="初回購入ボーナス" value={first} onChange={setFirst} error={errors.firstPurchase} />
        )}
        <Text fw={600} size="sm">
          {T.tiersHeading}
        </Text>
        {tiers.map((tier, i) => (
          <Group key={i} gap="xs" align="flex-end" wrap="wrap" data-testid="bonus-tier">
            <TextInput
              type="number"
              label={T.tierAmount}
              aria-label={`${i + 1}段階目の${T.tierAmount}`}
              w={160}
              min={1}
              value={String(tier.minAmount)}
              onChange={(e) => {
                const v = e.currentTarget.value;
                setTiers(tiers.map((t, j) => (j === i ? { ...t, minAmount: v === "" ? "" : Number(v) } : t)));
              }}
              error={tierError(i)}
            />
            <BonusWorthInput
              label={`${i + 1}段階目`}
              value={tier.worth}
              onChange={(worth) => setTiers(tiers.map((t, j) => (j === i ? { ...t, worth } : t)))}
            />
            <Button variant="subtle" color="red" size="xs" onClick={() => setTiers(tiers.filter((_, j) => j !== i))}>
              {T.removeTier}
            </Button>
          </Group>
        ))}
        <Group>
          <Button
            variant="default"
            size="xs"
            onClick={() => setTiers([...tiers, { minAmount: "", worth: { kind: "rate", value: 10 } }])}
          >
            {T.addTier}
          </Button>
        </Group>
        {errors.tiers && (
          <Text c="red" size="sm" role="alert">
            {errors.tiers}
          </Text>
        )}
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button onClick={submit} loading={save.isPending}>
            {T.save}
          </Button>
        </Group>
      </Stack>
      <BonusPreview data={data} draft={draft} />
    </Stack>
  );
}

/** Registers a campaign; the server refuses a start in the past and an overlap with its own message. */
function CampaignForm({ data }: { data: Data }) {
  const trpc = useTRPC();
  const refresh = useRefresh();
  const [form, setForm] = useState({ name: "", method: "all", startsAt: "", endsAt: "" });
  const [worth, setWorth] = useState<WorthDraft>({ kind: "rate", value: 10 });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<string | null>(null);
  const create = useMutation(
    trpc.adminPayments.createCampaign.mutationOptions({
      onSuccess: () => {
        notifications.show({ color: "green", message: T.campaignCreated });
        setError(null);
        setForm({ name: "", method: "all", startsAt: "", endsAt: "" });
        refresh();
      },
      onError: (e) => setError(errorMessage(e, MSG.bonusSaveFailed)),
    }),
  );
  const submit = () => {
    const result = validate(campaignCreateInput, {
      name: form.name,
      paymentMethod: form.method === "all" ? null : form.method,
      startsAt: form.startsAt,
      endsAt: form.endsAt,
      ...worthOf(worth),
    });
    if (!result.ok) return setErrors(result.errors);
    setErrors({});
    // The typed date-times are Japan's time (the shared schema reads a time without offset so).
    create.mutate(result.data);
  };
  return (
    <Stack
      gap="sm"
      component="form"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <TextInput
        label={T.campaignName}
        value={form.name}
        onChange={(e) => setForm({ ...form, name: e.currentTarget.value })}
        error={errors.name}
      />
      <Select
        label={T.campaignMethod}
        allowDeselect={false}
        value={form.method}
        onChange={(v) => v && setForm({ ...form, method: v })}
        data={[
          { value: "all", label: T.allMethods },
          ...data.methods.map((m) => ({
            value: m.method,
            label: `${METHOD_LABELS[m.method]}${m.usable ? "" : T.methodNotOffered}`,
          })),
        ]}
      />
      <Group grow align="flex-start">
        <TextInput
          type="datetime-local"
          label={T.campaignStart}
          value={form.startsAt}
          onChange={(e) => setForm({ ...form, startsAt: e.currentTarget.value })}
          error={errors.startsAt}
        />
        <TextInput
          type="datetime-local"
          label={T.campaignEnd}
          value={form.endsAt}
          onChange={(e) => setForm({ ...form, endsAt: e.currentTarget.value })}
          error={errors.endsAt}
        />
      </Group>
      <BonusWorthInput label="キャンペーンボーナス" value={worth} onChange={setWorth} error={errors.ratePercent} />
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button type="submit" loading={create.isPending}>
          {T.createCampaign}
        </Button>
      </Group>
    </Stack>
  );
}

function CampaignList({ data }: { data: Data }) {
  const trpc = useTRPC();
  const refresh = useRefresh();
  const [error, setError] = useState<string | null>(null);
  const end = useMutation(
    trpc.adminPayments.endCampaign.mutationOptions({
      onSuccess: () => {
        notifications.show({ color: "green", message: T.campaignEnded });
        setError(null);
        refresh();
      },
      onError: (e) => setError(errorMessage(e, MSG.bonusSaveFailed)),
    }),
  );
  if (data.campaigns.length === 0) return <Text c="dimmed">{T.noCampaigns}</Text>;
  return (
    <Stack gap="xs">
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      <Table.ScrollContainer minWidth={720}>
        <Table striped aria-label={T.campaignsHeading}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{T.campaignName}</Table.Th>
              <Table.Th>{T.campaignMethod}</Table.Th>
              <Table.Th>期間</Table.Th>
              <Table.Th>ボーナス</Table.Th>
              <Table.Th>状態</Table.Th>
              <Table.Th ta="right">付与件数</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.campaigns.map((c) => (
              <Table.Tr key={c.id} data-testid="campaign-row">
                <Table.Td>{c.name}</Table.Td>
                <Table.Td>{c.paymentMethod ? METHOD_LABELS[c.paymentMethod as PaymentMethod] : T.allMethods}</Table.Td>
                <Table.Td>
                  {formatDateTime(c.startsAt)}〜{formatDateTime(c.endsAt)}
                </Table.Td>
                <Table.Td>{worthText(c)}</Table.Td>
                <Table.Td>{T.states[c.state]}</Table.Td>
                <Table.Td ta="right">{c.granted.toLocaleString("ja-JP")}</Table.Td>
                <Table.Td>
                  {c.state !== "ended" && (
                    <Button
                      size="compact-xs"
                      variant="light"
                      color="red"
                      loading={end.isPending && end.variables?.id === c.id}
                      onClick={() => end.mutate({ id: c.id })}
                      aria-label={`${c.state === "scheduled" ? T.withdrawCampaign : T.endCampaign}（${c.name}）`}
                    >
                      {c.state === "scheduled" ? T.withdrawCampaign : T.endCampaign}
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}

/**
 * 購入ボーナス (decision 0047), beside 決済設定: the first-purchase bonus and the amount tiers with a
 * preview of the purchase screen's packs, and the campaigns. Every change is audited by the server;
 * what cannot be changed (the past, an overlap) is refused with its message.
 */
export function PurchaseBonuses() {
  const trpc = useTRPC();
  const rules = useQuery(trpc.adminPayments.bonusRules.queryOptions());
  const data = rules.data;
  return (
    <Stack gap="md">
      <Title order={2}>{T.title}</Title>
      <Text size="sm">{T.intro}</Text>
      <ListStates
        isLoading={rules.isLoading}
        isError={rules.isError}
        errorText={MSG.bonusFetchFailed}
        onRetry={() => void rules.refetch()}
        isEmpty={false}
        emptyText=""
      >
        {data && (
          <>
            <Card withBorder padding="md">
              {/* Remounted after a save, so the form starts from what is now in force. */}
              <RulesForm key={JSON.stringify([data.firstPurchase, data.tiers])} data={data} />
            </Card>
            <Card withBorder padding="md">
              <Stack gap="md">
                <Title order={3} size="h4">
                  {T.campaignsHeading}
                </Title>
                <CampaignList data={data} />
                <CampaignForm data={data} />
              </Stack>
            </Card>
            <Text size="xs" c="dimmed">
              購入可能額：{yen(data.minimumPurchase)}〜{yen(data.maximumPurchase)}
            </Text>
          </>
        )}
      </ListStates>
    </Stack>
  );
}
