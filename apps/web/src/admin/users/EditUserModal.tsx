import { adminUserUpdateInput, MSG } from "@enmusubi/shared";
import { Button, Modal, SimpleGrid, Stack, TextInput } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { PhotoPicker } from "../../features/photos/PhotoPicker";
import { asNumber, type FieldErrors, validate } from "../../lib/forms";
import { errorMessage, useTRPCClient } from "../../lib/trpc";
import { FormActions } from "../../ui/FormActions";
import { PasswordField } from "../../ui/PasswordField";
import { PointsInput } from "../../ui/PointsInput";
import type { AdminUser } from "./types";

interface Form {
  name: string;
  email: string;
  points: number | string;
  sendPoints: number | string;
  password: string;
  passwordConfirmation: string;
  photoLink: string;
  /** A new photo chosen here, uploaded on save. */
  newPhoto: string | null;
}

const fromUser = (user: AdminUser): Form => ({
  name: user.name ?? "",
  email: user.email,
  points: user.points,
  sendPoints: user.sendPoints,
  password: "",
  passwordConfirmation: "",
  photoLink: user.photoLink ?? "",
  newPhoto: null,
});

/**
 * User edit (spec §5): name, email, points, sendPoints, optional new password with confirmation,
 * a photo link that may be cleared and an upload area that downscales. A change of points is
 * written to the member's ledger by the server.
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
  const [errors, setErrors] = useState<FieldErrors>({});

  useEffect(() => {
    setForm(user ? fromUser(user) : null);
    setErrors({});
  }, [user]);

  const save = useMutation({
    mutationFn: async (input: { values: ReturnType<typeof toInput>; newPhoto: string | null }) => {
      const photoLink = input.newPhoto
        ? (await client.photos.adminUpload.mutate({ data: input.newPhoto })).photoLink
        : input.values.photoLink;
      return client.adminUsers.update.mutate({ ...input.values, photoLink });
    },
    onSuccess: () => {
      notifications.show({ color: "green", message: MSG.userUpdated });
      onSaved();
      onClose();
    },
    onError: (error) => {
      const text = `${MSG.userUpdateFailedPrefix}${errorMessage(error, error instanceof Error ? error.message : "")}`;
      setErrors({ _form: text });
      notifications.show({ color: "red", message: text });
    },
  });

  const toInput = (f: Form) => ({
    id: user?.id ?? "",
    name: f.name,
    email: f.email,
    points: asNumber(f.points),
    sendPoints: asNumber(f.sendPoints),
    password: f.password,
    passwordConfirmation: f.passwordConfirmation,
    photoLink: f.photoLink.trim(),
  });

  const submit = () => {
    if (!form) return;
    const values = toInput(form);
    const result = validate(adminUserUpdateInput, values);
    if (!result.ok) return setErrors(result.errors);
    setErrors({});
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
          <TextInput
            label="写真のURL（空にすると写真を削除します）"
            value={form.newPhoto ? "（新しい写真を保存時にアップロードします）" : form.photoLink}
            onChange={(e) => set("photoLink", e.currentTarget.value)}
            disabled={!!form.newPhoto}
            error={errors.photoLink}
            rightSection={
              form.photoLink && !form.newPhoto ? (
                <Button
                  size="compact-xs"
                  variant="subtle"
                  onClick={() => set("photoLink", "")}
                  aria-label="写真のURLをクリア"
                >
                  ×
                </Button>
              ) : null
            }
          />
          <PhotoPicker
            label="写真をアップロード"
            current={form.newPhoto ?? (form.photoLink || null)}
            onChange={(photo) =>
              photo ? set("newPhoto", photo) : setForm((f) => f && { ...f, newPhoto: null, photoLink: "" })
            }
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
