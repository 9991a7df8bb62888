import { adminUserUpdateInput, MSG } from "@enmusubi/shared";
import { Modal, SimpleGrid, Stack, TextInput } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { asNumber, type FieldErrors, validate } from "../../lib/forms";
import { errorMessage, useTRPCClient } from "../../lib/trpc";
import { FormActions } from "../../ui/FormActions";
import { PasswordField } from "../../ui/PasswordField";
import { PointsInput } from "../../ui/PointsInput";
import { type Balances, balanceConflict, balanceConflictText } from "./balance-conflict";
import { type Form, fromUser, UserPhotoFields } from "./EditUserFields";
import type { AdminUser } from "./types";

/**
 * User edit (spec §5): name, email, points, sendPoints, optional new password with confirmation,
 * a photo link that may be cleared and an upload area that downscales. Only what the administrator
 * changed is sent: a rename never touches a balance. A changed balance is sent with the balance it
 * replaces (the figure this form was opened with); when the member's balance moved meanwhile the
 * server refuses it, and the form shows the current figures to decide again.
 */
export function EditUserModal({
  user,
  onClose,
  onSaved,
}: {
  user: AdminUser | null;
  onClose(): void;
  onSaved(): void;
}) {
  const client = useTRPCClient();
  const [form, setForm] = useState<Form | null>(null);
  /** The balances the administrator is looking at: the ones a balance change replaces. */
  const [seen, setSeen] = useState<Balances | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});

  useEffect(() => {
    setForm(user ? fromUser(user) : null);
    setSeen(user ? { points: user.points, sendPoints: user.sendPoints } : null);
    setErrors({});
  }, [user]);

  const save = useMutation({
    mutationFn: async (input: { values: ReturnType<typeof toInput>; newPhoto: string | null }) => {
      const photoLink = input.newPhoto
        ? (await client.photos.adminUpload.mutate({ data: input.newPhoto })).photoLink
        : input.values.photoLink;
      return client.adminUsers.update.mutate({ ...input.values, ...(photoLink !== undefined ? { photoLink } : {}) });
    },
    onSuccess: () => {
      notifications.show({ color: "green", message: MSG.userUpdated });
      onSaved();
      onClose();
    },
    onError: (error) => {
      const current = balanceConflict(error);
      if (current) {
        // Nothing was saved: show the balances as they are now, in the form and in the list.
        const text = balanceConflictText(current);
        setSeen(current);
        setForm((f) => f && { ...f, points: current.points, sendPoints: current.sendPoints });
        setErrors({ _form: text });
        notifications.show({ color: "orange", message: text });
        onSaved();
        return;
      }
      const text = `${MSG.userUpdateFailedPrefix}${errorMessage(error, error instanceof Error ? error.message : "")}`;
      setErrors({ _form: text });
      notifications.show({ color: "red", message: text });
    },
  });

  /** The edit: the fields that differ from what the form was opened with, balances with the figure they replace. */
  const toInput = (f: Form) => {
    const opened = user ? fromUser(user) : f;
    const points = asNumber(f.points);
    const sendPoints = asNumber(f.sendPoints);
    const photoLink = f.photoLink.trim();
    return {
      id: user?.id ?? "",
      ...(f.name !== opened.name ? { name: f.name } : {}),
      ...(f.email !== opened.email ? { email: f.email } : {}),
      ...(points !== seen?.points ? { points, expectedPoints: seen?.points } : {}),
      ...(sendPoints !== seen?.sendPoints ? { sendPoints, expectedSendPoints: seen?.sendPoints } : {}),
      ...(f.password ? { password: f.password, passwordConfirmation: f.passwordConfirmation } : {}),
      ...(photoLink !== opened.photoLink ? { photoLink } : {}),
    };
  };

  const submit = () => {
    if (!form) return;
    const values = toInput(form);
    const result = validate(adminUserUpdateInput, values);
    if (!result.ok) return setErrors(result.errors);
    setErrors({});
    if (Object.keys(values).length === 1 && !form.newPhoto) return onClose();
    save.mutate({ values, newPhoto: form.newPhoto });
  };

  const set = <K extends keyof Form>(key: K, value: Form[K]) => {
    setForm((f) => (f ? { ...f, [key]: value } : f));
    setErrors((e) => ({ ...e, [key]: undefined, _form: undefined }));
  };

  return (
    <Modal opened={!!user} onClose={onClose} title={`ユーザー編集: ${user?.userID ?? ""}`} centered size="lg">
      {form && (
        <Stack>
          <TextInput
            label="名前"
            required
            value={form.name}
            onChange={(e) => set("name", e.currentTarget.value)}
            error={errors.name}
          />
          <TextInput
            label="メールアドレス"
            required
            value={form.email}
            onChange={(e) => set("email", e.currentTarget.value)}
            error={errors.email}
          />
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <PointsInput
              label="ポイント"
              required
              value={form.points}
              onChange={(v) => set("points", v)}
              error={errors.points}
            />
            <PointsInput
              label="送信ポイント"
              required
              value={form.sendPoints}
              onChange={(v) => set("sendPoints", v)}
              error={errors.sendPoints}
            />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <PasswordField
              label="新しいパスワード（変更する場合のみ）"
              value={form.password}
              onChange={(e) => set("password", e.currentTarget.value)}
              error={errors.password}
              autoComplete="new-password"
            />
            <PasswordField
              label="パスワード（確認）"
              value={form.passwordConfirmation}
              onChange={(e) => set("passwordConfirmation", e.currentTarget.value)}
              error={errors.passwordConfirmation}
              autoComplete="new-password"
            />
          </SimpleGrid>
          <UserPhotoFields
            form={form}
            error={errors.photoLink}
            set={set}
            onRemovePhoto={() => setForm((f) => f && { ...f, newPhoto: null, photoLink: "" })}
          />
          <FormActions
            error={errors._form}
            onCancel={onClose}
            onSubmit={submit}
            submitLabel="更新する"
            loading={save.isPending}
          />
        </Stack>
      )}
    </Modal>
  );
}
