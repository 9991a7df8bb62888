import { DEFAULT_NEW_POINT_COST, MSG, pointCostCreateInput } from "@enmusubi/shared";
import { Modal, NumberInput, Stack, Textarea, TextInput } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { asNumber, type FieldErrors, validate } from "../../lib/forms";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { FormActions } from "../../ui/FormActions";

/** The add dialog (spec §2 admin screen 5: it exists, its button is hidden): action, name, cost, description. */
export function AddPointCostModal({ opened, onClose, onAdded }: { opened: boolean; onClose(): void; onAdded(): void }) {
  const trpc = useTRPC();
  const [form, setForm] = useState({
    actionName: "",
    displayName: "",
    pointCost: DEFAULT_NEW_POINT_COST as number | string,
    description: "",
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const create = useMutation(
    trpc.reference.pointCosts.create.mutationOptions({
      onSuccess: () => {
        notifications.show({ color: "green", message: MSG.pointCostAdded });
        onAdded();
        onClose();
      },
      onError: (e) => setErrors({ _form: errorMessage(e, MSG.pointCostAddFailed) }),
    }),
  );
  const submit = () => {
    const result = validate(pointCostCreateInput, {
      ...form,
      pointCost: asNumber(form.pointCost),
    });
    if (!result.ok) return setErrors(result.errors);
    create.mutate(result.data);
  };
  return (
    <Modal opened={opened} onClose={onClose} title="ポイント設定の追加" centered>
      <Stack>
        <TextInput
          label="アクション名"
          placeholder="video_call"
          value={form.actionName}
          onChange={(e) => setForm({ ...form, actionName: e.currentTarget.value })}
          error={errors.actionName}
        />
        <TextInput
          label="表示名"
          value={form.displayName}
          onChange={(e) => setForm({ ...form, displayName: e.currentTarget.value })}
          error={errors.displayName}
        />
        <NumberInput
          label="ポイント"
          min={0}
          allowDecimal={false}
          value={form.pointCost}
          onChange={(v) => setForm({ ...form, pointCost: v })}
          error={errors.pointCost}
        />
        <Textarea
          label="説明"
          value={form.description}
          onChange={(e) => setForm({ ...form, description: e.currentTarget.value })}
          error={errors.description}
        />
        <FormActions
          error={errors._form}
          onCancel={onClose}
          onSubmit={submit}
          submitLabel="追加する"
          loading={create.isPending}
        />
      </Stack>
    </Modal>
  );
}
