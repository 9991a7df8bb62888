import { cardSettingsInput } from "@enmusubi/shared";
import { PasswordInput, Stack, Switch, TextInput } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { type FieldErrors, validate } from "../../lib/forms";
import { useTRPC } from "../../lib/trpc";
import { MethodStatus, type PaymentSettingsData, SaveRow, useSaveHandlers } from "./SettingsParts";
import { CARD_SETTINGS_TEXT as T } from "./text";

/**
 * The card processor (decision 0046): merchant id, secret (never shown, only its mask), the hosted
 * payment page's URL, whether it is offered, and whether a first card payment counts as the age check.
 */
export function CardTab({ initial }: { initial: PaymentSettingsData["card"] }) {
  const trpc = useTRPC();
  const [form, setForm] = useState({
    merchantId: initial.merchantId,
    secret: "",
    paymentUrl: initial.paymentUrl,
    isActive: initial.isActive,
    ageVerification: initial.ageVerification,
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const { error, handlers } = useSaveHandlers();
  const mutation = useMutation(trpc.adminPayments.updateCard.mutationOptions(handlers));
  const submit = () => {
    const { secret, ...rest } = form;
    const result = validate(cardSettingsInput, { ...rest, ...(secret ? { secret } : {}) });
    if (!result.ok) return setErrors(result.errors);
    setErrors({});
    mutation.mutate(result.data);
    setForm((f) => ({ ...f, secret: "" }));
  };
  return (
    <Stack gap="md">
      <MethodStatus method={initial} />
      <TextInput
        label={T.merchantId}
        value={form.merchantId}
        onChange={(e) => setForm({ ...form, merchantId: e.currentTarget.value })}
        error={errors.merchantId}
      />
      <PasswordInput
        label={T.secret}
        description={initial.secretSet ? T.secretSet(initial.secretMasked) : T.secretUnset}
        autoComplete="new-password"
        value={form.secret}
        onChange={(e) => setForm({ ...form, secret: e.currentTarget.value })}
        error={errors.secret}
      />
      <TextInput
        label={T.paymentUrl}
        description={T.paymentUrlHint}
        type="url"
        value={form.paymentUrl}
        onChange={(e) => setForm({ ...form, paymentUrl: e.currentTarget.value })}
        error={errors.paymentUrl}
      />
      <Switch
        label={T.active}
        checked={form.isActive}
        onChange={(e) => setForm({ ...form, isActive: e.currentTarget.checked })}
      />
      <Switch
        label={T.ageVerification}
        description={T.ageVerificationHint}
        checked={form.ageVerification}
        onChange={(e) => setForm({ ...form, ageVerification: e.currentTarget.checked })}
      />
      <SaveRow pending={mutation.isPending} error={error} onSave={submit} />
    </Stack>
  );
}
