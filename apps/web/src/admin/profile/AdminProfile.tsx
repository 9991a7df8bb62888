import { MSG, type ProfileUpdateInput, profileUpdateInput } from "@enmusubi/shared";
import { Alert, Avatar, Button, Card, Group, Modal, Stack, Text, TextInput, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { applyPhotoChange, PhotoChangeCancelled } from "../../features/photos/applyPhotoChange";
import { PhotoPicker } from "../../features/photos/PhotoPicker";
import { type FieldErrors, validate } from "../../lib/forms";
import { saveSession } from "../../lib/session";
import { errorMessage, useTRPC, useTRPCClient } from "../../lib/trpc";
import { FormActions } from "../../ui/FormActions";
import { PasswordField } from "../../ui/PasswordField";

interface Form {
  name: string;
  currentPassword: string;
  newPassword: string;
  /** undefined: unchanged; null: remove; string: a new photo to upload on save. */
  photo: string | null | undefined;
}

/**
 * Admin profile settings (spec §2 admin screen 11, §5 "Admin profile save"): photo and name, and a
 * popup to change the photo (camera or file), the name and the password. Blank passwords are
 * left out; a new password needs the current one.
 */
export function AdminProfile() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const me = useQuery(trpc.profile.me.queryOptions());
  const [form, setForm] = useState<Form | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});

  const open = () => {
    setErrors({});
    setForm({ name: me.data?.name ?? "", currentPassword: "", newPassword: "", photo: undefined });
  };

  const save = useMutation({
    mutationFn: async ({ photo, input }: { photo: Form["photo"]; input: ProfileUpdateInput }) => {
      await applyPhotoChange(photo, {
        upload: (data) => client.profile.uploadPhoto.mutate({ data }),
        remove: () => client.profile.removePhoto.mutate(),
      });
      return client.profile.update.mutate(input);
    },
    onSuccess: (result) => {
      if (result.token) saveSession({ token: result.token, role: "admin" });
      queryClient.setQueryData(trpc.profile.me.queryKey(), result.user);
      notifications.show({ color: "green", message: MSG.profileUpdated });
      setForm(null);
    },
    onError: (e) => {
      void queryClient.invalidateQueries({ queryKey: trpc.profile.me.queryKey() });
      if (e instanceof PhotoChangeCancelled) return;
      setErrors({ _form: errorMessage(e, MSG.profileUpdateFailed) });
    },
  });

  const submit = () => {
    if (!form) return;
    // The server's rules: name required; a new password (blank = unchanged) needs 6+ characters and the current one.
    const result = validate(profileUpdateInput, {
      name: form.name,
      ...(form.newPassword ? { currentPassword: form.currentPassword, newPassword: form.newPassword } : {}),
    });
    if (!result.ok) return setErrors(result.errors);
    setErrors({});
    save.mutate({ photo: form.photo, input: result.data });
  };

  if (me.isError) return <Alert color="red">{MSG.adminFetchFailed}</Alert>;
  const user = me.data;
  const preview = form?.photo === undefined ? (user?.photoUrl ?? null) : form.photo;

  return (
    <Stack gap="md">
      <Title order={2}>管理者プロフィール</Title>
      <Card withBorder maw={520}>
        <Group wrap="nowrap">
          <Avatar
            src={user?.photoUrl}
            size={96}
            radius="md"
            color="pink"
            alt={user?.name ?? user?.userID ?? ""}
            data-graphic="photo"
          >
            {(user?.name ?? "管").slice(0, 1)}
          </Avatar>
          <Stack gap={4}>
            <Text fw={700} size="lg">
              {user?.name ?? "読み込み中..."}
            </Text>
            <Text size="sm" c="dimmed">
              ID: {user?.userID}
            </Text>
            <Button size="xs" mt="xs" onClick={open} disabled={!user}>
              プロフィールを編集
            </Button>
          </Stack>
        </Group>
      </Card>

      <Modal opened={!!form} onClose={() => setForm(null)} title="プロフィールを編集" centered>
        {form && (
          <Stack>
            <PhotoPicker current={preview} onChange={(photo) => setForm({ ...form, photo })} camera />
            <TextInput
              label="名前"
              required
              value={form.name}
              onChange={(e) => setForm({ ...form, name: e.currentTarget.value })}
              error={errors.name}
            />
            <PasswordField
              label="現在のパスワード"
              value={form.currentPassword}
              onChange={(e) => setForm({ ...form, currentPassword: e.currentTarget.value })}
              autoComplete="current-password"
              error={errors.currentPassword}
            />
            <PasswordField
              label="新しいパスワード"
              description="変更しない場合は空欄のままにしてください"
              value={form.newPassword}
              onChange={(e) => setForm({ ...form, newPassword: e.currentTarget.value })}
              autoComplete="new-password"
              error={errors.newPassword}
            />
            <FormActions
              error={errors._form}
              onCancel={() => setForm(null)}
              onSubmit={submit}
              submitLabel="保存する"
              loading={save.isPending}
            />
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}
