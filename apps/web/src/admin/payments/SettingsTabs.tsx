import { exchangeSettingsInput, generalSettingsInput, smartPitSettingsInput } from "@enmusubi/shared";
import { NumberInput, PasswordInput, SimpleGrid, Stack, Switch, Text, TextInput } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { displayRate, rateText } from "../../features/payments/calc";
import { asNumber, type FieldErrors, validate } from "../../lib/forms";
import { useTRPC } from "../../lib/trpc";
import { MethodStatus, type PaymentSettingsData, SaveRow, useSaveHandlers } from "./SettingsParts";

type Num = number | string;

export function ExchangeTab({ initial }: { initial: PaymentSettingsData["exchange"] }) {
  const trpc = useTRPC();
  const [form, setForm] = useState<{ yenAmount: Num; pointAmount: Num; isActive: boolean }>({
    yenAmount: initial.yenAmount,
    pointAmount: initial.pointAmount,
    isActive: initial.isActive,
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const { error, handlers } = useSaveHandlers();
  const mutation = useMutation(trpc.adminPayments.updateExchange.mutationOptions(handlers));
  const save = mutation.mutate;
  const pending = mutation.isPending;
  const values = { ...form, yenAmount: asNumber(form.yenAmount), pointAmount: asNumber(form.pointAmount) };
  const valid = validate(exchangeSettingsInput, values);
  const submit = () => {
    if (!valid.ok) return setErrors(valid.errors);
    setErrors({});
    save(valid.data);
  };
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, xs: 2 }}>
        <NumberInput
          label="金額（円）"
          min={1}
          allowDecimal={false}
          allowNegative={false}
          clampBehavior="none"
          thousandSeparator=","
          value={form.yenAmount}
          onChange={(v) => setForm({ ...form, yenAmount: v })}
          error={errors.yenAmount}
        />
        <NumberInput
          label="付与ポイント"
          min={1}
          allowDecimal={false}
          allowNegative={false}
          clampBehavior="none"
          thousandSeparator=","
          value={form.pointAmount}
          onChange={(v) => setForm({ ...form, pointAmount: v })}
          error={errors.pointAmount}
        />
      </SimpleGrid>
      <Stack gap={2} aria-live="polite">
        <Text size="sm" data-testid="exchange-rate-display">
          レート（ポイント ÷ 円）：
          <Text span fw={700}>
            {valid.ok ? displayRate(valid.data) : "—"}
          </Text>
        </Text>
        {valid.ok && (
          <Text size="sm" c="dimmed">
            購入画面・特商法・利用規約の表示：{rateText(valid.data)}
          </Text>
        )}
      </Stack>
      <Switch
        label="ポイントの購入を受け付ける"
        checked={form.isActive}
        onChange={(e) => setForm({ ...form, isActive: e.currentTarget.checked })}
      />
      <SaveRow pending={pending} error={error} onSave={submit} />
    </Stack>
  );
}

export function SmartPitTab({ initial }: { initial: PaymentSettingsData["smartPit"] }) {
  const trpc = useTRPC();
  const [form, setForm] = useState({ smartPitId: initial.smartPitId, apiKey: "", isActive: initial.isActive });
  const [errors, setErrors] = useState<FieldErrors>({});
  const { error, handlers } = useSaveHandlers();
  const mutation = useMutation(trpc.adminPayments.updateSmartPit.mutationOptions(handlers));
  const save = mutation.mutate;
  const pending = mutation.isPending;
  const submit = () => {
    const result = validate(smartPitSettingsInput, {
      smartPitId: form.smartPitId,
      isActive: form.isActive,
      ...(form.apiKey ? { apiKey: form.apiKey } : {}),
    });
    if (!result.ok) return setErrors(result.errors);
    setErrors({});
    save(result.data);
    setForm((f) => ({ ...f, apiKey: "" }));
  };
  return (
    <Stack gap="md">
      <MethodStatus method={initial} />
      <TextInput
        label="スマートピットID"
        value={form.smartPitId}
        onChange={(e) => setForm({ ...form, smartPitId: e.currentTarget.value })}
        error={errors.smartPitId}
      />
      <PasswordInput
        label="APIキー"
        description={
          initial.apiKeySet ? `登録済み（${initial.apiKeyMasked}）。変更する場合のみ入力してください。` : "未登録です。"
        }
        autoComplete="new-password"
        value={form.apiKey}
        onChange={(e) => setForm({ ...form, apiKey: e.currentTarget.value })}
        error={errors.apiKey}
      />
      <Switch
        label="スマートピット（コンビニ払い）を有効にする"
        checked={form.isActive}
        onChange={(e) => setForm({ ...form, isActive: e.currentTarget.checked })}
      />
      <SaveRow pending={pending} error={error} onSave={submit} />
    </Stack>
  );
}

export function GeneralTab({ initial }: { initial: PaymentSettingsData["general"] }) {
  const trpc = useTRPC();
  const [form, setForm] = useState<{ minimumPurchase: Num; maximumPurchase: Num; bankTransferBalance: Num }>(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const { error, handlers } = useSaveHandlers();
  const mutation = useMutation(trpc.adminPayments.updateGeneral.mutationOptions(handlers));
  const save = mutation.mutate;
  const pending = mutation.isPending;
  const submit = () => {
    const result = validate(generalSettingsInput, {
      minimumPurchase: asNumber(form.minimumPurchase),
      maximumPurchase: asNumber(form.maximumPurchase),
      bankTransferBalance: asNumber(form.bankTransferBalance),
    });
    if (!result.ok) return setErrors(result.errors);
    setErrors({});
    save(result.data);
  };
  const yenField = (key: keyof typeof form, label: string, min: number) => (
    <NumberInput
      label={label}
      min={min}
      allowDecimal={false}
      allowNegative={false}
      clampBehavior="none"
      thousandSeparator=","
      suffix=" 円"
      value={form[key]}
      onChange={(v) => setForm({ ...form, [key]: v })}
      error={errors[key]}
    />
  );
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {yenField("minimumPurchase", "最低購入金額", 100)}
        {yenField("maximumPurchase", "最高購入金額", 1000)}
        {yenField("bankTransferBalance", "銀行振込残高", 0)}
      </SimpleGrid>
      <SaveRow pending={pending} error={error} onSave={submit} />
    </Stack>
  );
}
