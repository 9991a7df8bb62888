import {
  bankSettingsInput,
  exchangeSettingsInput,
  generalSettingsInput,
  smartPitSettingsInput,
} from "@enmusubi/shared";
import {
  Alert,
  Button,
  Card,
  Group,
  NumberInput,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Tabs,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { displayRate, rateText } from "../../features/payments/calc";
import { PAYMENT_TEXT } from "../../features/payments/messages";
import type { RouterOutputs } from "../../lib/api-types";
import { asNumber, type FieldErrors, validate } from "../../lib/forms";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { ListStates } from "../../ui/ListStates";

type Num = number | string;

export type PaymentSettingsData = RouterOutputs["adminPayments"]["getSettings"];

const ACCOUNT_TYPES = ["普通", "当座", "貯蓄"];

/** One tab's save handlers: a notice, its own error; a save refreshes every screen that reads the settings. */
function useSaveHandlers() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  return {
    error,
    handlers: {
      onSuccess: () => {
        notifications.show({ color: "green", message: PAYMENT_TEXT.settingsSaved });
        setError(null);
        void queryClient.invalidateQueries({ queryKey: trpc.adminPayments.getSettings.queryKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.purchase.settings.queryKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.legal.info.queryKey() });
      },
      onError: (e: unknown) => setError(errorMessage(e, PAYMENT_TEXT.settingsSaveFailed)),
    },
  };
}

function SaveRow({ pending, error, onSave }: { pending: boolean; error: string | null; onSave(): void }) {
  return (
    <>
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button onClick={onSave} loading={pending}>
          保存する
        </Button>
      </Group>
    </>
  );
}

/**
 * Whether members are offered the method, as the server reckons it from the saved settings: a
 * method switched on with something missing is not offered, and this says what is missing.
 */
function MethodStatus({ method }: { method: { isActive: boolean; usable?: boolean; missing?: string[] } }) {
  const missing = method.missing ?? [];
  if (method.isActive && missing.length === 0) {
    return (
      <Alert color="green" role="status" data-testid="method-status">
        有効：会員の購入画面に表示されています。
      </Alert>
    );
  }
  return (
    <Alert color={method.isActive ? "yellow" : "gray"} role="status" data-testid="method-status">
      {method.isActive ? "有効になっていますが、" : "無効です。"}
      {missing.length > 0
        ? `次の項目が未設定のため会員には表示されません：${missing.join("、")}`
        : "会員には表示されません。"}
    </Alert>
  );
}

function ExchangeTab({ initial }: { initial: PaymentSettingsData["exchange"] }) {
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

function SmartPitTab({ initial }: { initial: PaymentSettingsData["smartPit"] }) {
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

function BankTab({ initial }: { initial: PaymentSettingsData["bank"] }) {
  const trpc = useTRPC();
  const [form, setForm] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const { error, handlers } = useSaveHandlers();
  const mutation = useMutation(trpc.adminPayments.updateBank.mutationOptions(handlers));
  const save = mutation.mutate;
  const pending = mutation.isPending;
  const submit = () => {
    const result = validate(bankSettingsInput, form);
    if (!result.ok) return setErrors(result.errors);
    setErrors({});
    save(result.data);
  };
  const field = (key: "bankName" | "bankBranchName" | "bankAccountNumber" | "bankAccountName", label: string) => (
    <TextInput
      label={label}
      value={form[key]}
      onChange={(e) => setForm({ ...form, [key]: e.currentTarget.value })}
      error={errors[key]}
    />
  );
  return (
    <Stack gap="md">
      <MethodStatus method={initial} />
      <SimpleGrid cols={{ base: 1, xs: 2 }}>
        {field("bankName", "銀行名")}
        {field("bankBranchName", "支店名")}
        <Select
          label="口座種別"
          data={
            ACCOUNT_TYPES.includes(form.bankAccountType) || !form.bankAccountType
              ? ACCOUNT_TYPES
              : [...ACCOUNT_TYPES, form.bankAccountType]
          }
          value={form.bankAccountType || null}
          onChange={(v) => setForm({ ...form, bankAccountType: v ?? "" })}
          error={errors.bankAccountType}
        />
        {field("bankAccountNumber", "口座番号")}
        {field("bankAccountName", "口座名義")}
      </SimpleGrid>
      <Switch
        label="銀行振込を有効にする"
        checked={form.isActive}
        onChange={(e) => setForm({ ...form, isActive: e.currentTarget.checked })}
      />
      <SaveRow pending={pending} error={error} onSave={submit} />
    </Stack>
  );
}

function GeneralTab({ initial }: { initial: PaymentSettingsData["general"] }) {
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

function Panel({ value, children }: { value: string; children: ReactNode }) {
  return (
    <Tabs.Panel value={value} pt="md">
      <Card withBorder padding="md">
        {children}
      </Card>
    </Tabs.Panel>
  );
}

/**
 * Payment settings (spec §2 admin screen 4): 為替レート, SmartPit, 銀行振込 (the spec's hidden tab,
 * shown here: bank transfer can be switched on) and 一般, each saved on its own with the §5
 * minimums. What is saved is what the purchase screen and the legal pages state.
 */
export function PaymentSettings() {
  const trpc = useTRPC();
  const settings = useQuery(trpc.adminPayments.getSettings.queryOptions());
  const data = settings.data;
  return (
    <Stack gap="md">
      <Title order={2}>決済設定</Title>
      <ListStates
        isLoading={settings.isLoading}
        isError={settings.isError}
        errorText={PAYMENT_TEXT.settingsFetchFailed}
        onRetry={() => void settings.refetch()}
        isEmpty={false}
        emptyText=""
      >
        {data && (
          <Tabs defaultValue="exchange" keepMounted={false}>
            <Tabs.List>
              <Tabs.Tab value="exchange">為替レート</Tabs.Tab>
              <Tabs.Tab value="smartPit">SmartPit</Tabs.Tab>
              <Tabs.Tab value="bank">銀行振込</Tabs.Tab>
              <Tabs.Tab value="general">一般</Tabs.Tab>
            </Tabs.List>
            <Panel value="exchange">
              <ExchangeTab initial={data.exchange} />
            </Panel>
            <Panel value="smartPit">
              <SmartPitTab initial={data.smartPit} />
            </Panel>
            <Panel value="bank">
              <BankTab initial={data.bank} />
            </Panel>
            <Panel value="general">
              <GeneralTab initial={data.general} />
            </Panel>
          </Tabs>
        )}
      </ListStates>
    </Stack>
  );
}
