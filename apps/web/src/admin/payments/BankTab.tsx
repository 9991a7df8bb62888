import { bankSettingsInput } from "@enmusubi/shared";
import { Select, SimpleGrid, Stack, Switch, TextInput } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { type FieldErrors, validate } from "../../lib/forms";
import { useTRPC } from "../../lib/trpc";
import { MethodStatus, type PaymentSettingsData, SaveRow, useSaveHandlers } from "./SettingsParts";

const ACCOUNT_TYPES = ["普通", "当座", "貯蓄"];

export function BankTab({ initial }: { initial: PaymentSettingsData["bank"] }) {
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
