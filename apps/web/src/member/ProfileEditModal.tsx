import { MIN_AGE, MSG, PREFECTURES, profileUpdateInput, yearsBefore } from "@enmusubi/shared";
import { Divider, Modal, Select, SimpleGrid, Stack, Text, TextInput } from "@mantine/core";
import { DateInput } from "@mantine/dates";
import { useMounted } from "@mantine/hooks";
import { notifications } from "@mantine/notifications";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { applyPhotoChange, PhotoChangeCancelled } from "../features/photos/applyPhotoChange";
import { PhotoPicker } from "../features/photos/PhotoPicker";
import { JAPANESE_DATE_FORMAT, parseTypedDate } from "../lib/dates";
import { type FieldErrors, validate } from "../lib/forms";
import { saveSession } from "../lib/session";
import { errorMessage, useTRPC, useTRPCClient } from "../lib/trpc";
import { FormActions } from "../ui/FormActions";
import { PasswordField } from "../ui/PasswordField";
import type { CurrentUser } from "./useCurrentUser";
import { useReferenceLists } from "./useReferenceLists";

interface Form {
  name: string;
  birthday: string;
  address: string | null;
  occupationId: string | null;
  annualIncomeId: string | null;
  currentPassword: string;
  newPassword: string;
  newPasswordConfirmation: string;
  /** undefined: unchanged; null: remove on save; a data URL: upload on save (spec §4). */
  photo: string | null | undefined;
}

const fromUser = (user: CurrentUser): Form => ({
  name: user.name ?? "",
  birthday: user.birthday ?? "",
  address: user.address,
  occupationId: user.occupation?.id ?? null,
  annualIncomeId: user.annualIncome?.id ?? null,
  currentPassword: "",
  newPassword: "",
  newPasswordConfirmation: "",
  photo: undefined,
});

/** The latest birthday allowed: the server's rule (18 on today's Japanese day), as YYYY-MM-DD. */
const latestBirthday = (): string => yearsBefore(new Date(), MIN_AGE);

/** Where the calendar opens when no birthday is set: 30 years ago. */
function defaultCalendarDate(): string {
  return `${new Date().getFullYear() - 30}-01-01`;
}

/**
 * The member's profile edit modal (spec §2, §4), fed with the occupation and annual-income lists.
 * Choosing or removing a photo is staged and applied only on save; if that upload fails the
 * member is asked whether to save the rest. Validation is the server's schema, run here first:
 * name required (≤ 50), birthday a real date and 18 or over, address a prefecture, a new
 * password of 6+ characters equal to its confirmation and with the current password.
 */
export function ProfileEditModal({ user, opened, onClose }: { user: CurrentUser; opened: boolean; onClose(): void }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const { occupations, annualIncomes } = useReferenceLists();
  const [form, setForm] = useState<Form>(() => fromUser(user));
  const [errors, setErrors] = useState<FieldErrors>({});
  // The dashboard loads this dialog on first use, so it mounts already asked to open; it opens one
  // render later, else the modal would not note the focused button to return the focus to.
  const mounted = useMounted();

  useEffect(() => {
    if (opened) {
      setForm(fromUser(user));
      setErrors({});
    }
  }, [opened, user]);

  const set = <K extends keyof Form>(key: K, value: Form[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined, _form: undefined }));
  };

  const save = useMutation({
    mutationFn: async ({
      input,
      photo,
    }: {
      input: Parameters<typeof client.profile.update.mutate>[0];
      photo: Form["photo"];
    }) => {
      await applyPhotoChange(photo, {
        upload: (data) => client.profile.uploadPhoto.mutate({ data }),
        remove: () => client.profile.removePhoto.mutate(),
      });
      return client.profile.update.mutate(input);
    },
    onSuccess: (result) => {
      if (result.token) saveSession({ token: result.token, role: "user" });
      queryClient.setQueryData(trpc.profile.me.queryKey(), result.user);
      notifications.show({ color: "green", message: MSG.profileUpdated });
      onClose();
    },
    onError: (error) => {
      void queryClient.invalidateQueries({ queryKey: trpc.profile.me.queryKey() });
      if (error instanceof PhotoChangeCancelled) return;
      setErrors({ _form: errorMessage(error, MSG.profileUpdateFailed) });
    },
  });

  const submit = () => {
    const input = {
      name: form.name,
      birthday: form.birthday || null,
      address: form.address || null,
      occupationId: form.occupationId,
      annualIncomeId: form.annualIncomeId,
      ...(form.newPassword ? { currentPassword: form.currentPassword, newPassword: form.newPassword } : {}),
    };
    const result = validate(profileUpdateInput, input);
    const fieldErrors: FieldErrors = result.ok ? {} : { ...result.errors };
    if (!form.name.trim()) fieldErrors.name = MSG.nameRequired;
    if (form.newPassword && form.newPassword !== form.newPasswordConfirmation) {
      fieldErrors.newPasswordConfirmation = MSG.passwordMismatch;
    }
    if (Object.keys(fieldErrors).length > 0) return setErrors(fieldErrors);
    setErrors({});
    save.mutate({ input, photo: form.photo });
  };

  const prefectureOptions =
    form.address && !PREFECTURES.includes(form.address as (typeof PREFECTURES)[number])
      ? [form.address, ...PREFECTURES]
      : [...PREFECTURES];
  const preview = form.photo === undefined ? user.photoLink : form.photo;

  return (
    <Modal opened={opened && mounted} onClose={onClose} title="プロフィールを編集" centered size="lg">
      <Stack>
        <PhotoPicker current={preview} onChange={(photo) => set("photo", photo)} />
        {form.photo !== undefined && (
          <Text size="xs" c="dimmed">
            写真の変更は「保存する」を押すと反映されます。
          </Text>
        )}
        <TextInput
          label="名前"
          required
          maxLength={50}
          value={form.name}
          onChange={(e) => set("name", e.currentTarget.value)}
          error={errors.name}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          {/*
            A Japanese date picker (年/月/日, 日曜始まり) whatever the browser's language; the value
            stays YYYY-MM-DD. Days under 18 are disabled in the calendar; a typed one is kept and
            refused on save with the 18+ message.
          */}
          <DateInput
            label="生年月日"
            valueFormat={JAPANESE_DATE_FORMAT}
            dateParser={parseTypedDate}
            placeholder="例: 1995年4月1日"
            value={form.birthday || null}
            onChange={(value) => set("birthday", value ?? "")}
            excludeDate={(date) => date > latestBirthday()}
            minDate="1900-01-01"
            defaultLevel="decade"
            defaultDate={form.birthday || defaultCalendarDate()}
            clearable
            error={errors.birthday}
            description="18歳以上の方のみご利用いただけます"
          />
          <Select
            label="住所（都道府県）"
            placeholder="選択してください"
            data={prefectureOptions}
            value={form.address}
            onChange={(v) => set("address", v)}
            clearable
            searchable
            error={errors.address}
          />
          <Select
            label="職業"
            placeholder={occupations.isError ? MSG.occupationFetchFailed : "選択してください"}
            data={(occupations.data ?? []).map((o) => ({ value: o.id, label: o.name }))}
            value={form.occupationId}
            onChange={(v) => set("occupationId", v)}
            clearable
            error={errors.occupationId ?? (occupations.isError ? MSG.occupationFetchFailed : undefined)}
          />
          <Select
            label="年収"
            placeholder={annualIncomes.isError ? MSG.annualIncomeFetchFailed : "選択してください"}
            data={(annualIncomes.data ?? []).map((i) => ({ value: i.id, label: i.label }))}
            value={form.annualIncomeId}
            onChange={(v) => set("annualIncomeId", v)}
            clearable
            error={errors.annualIncomeId ?? (annualIncomes.isError ? MSG.annualIncomeFetchFailed : undefined)}
          />
        </SimpleGrid>
        <Divider label="パスワードの変更（変更する場合のみ）" labelPosition="left" />
        <SimpleGrid cols={{ base: 1, xs: 3 }}>
          <PasswordField
            label="現在のパスワード"
            value={form.currentPassword}
            onChange={(e) => set("currentPassword", e.currentTarget.value)}
            error={errors.currentPassword}
            autoComplete="current-password"
          />
          <PasswordField
            label="新しいパスワード"
            value={form.newPassword}
            onChange={(e) => set("newPassword", e.currentTarget.value)}
            error={errors.newPassword}
            autoComplete="new-password"
          />
          <PasswordField
            label="新しいパスワード（確認）"
            value={form.newPasswordConfirmation}
            onChange={(e) => set("newPasswordConfirmation", e.currentTarget.value)}
            error={errors.newPasswordConfirmation}
            autoComplete="new-password"
          />
        </SimpleGrid>
        <FormActions
          error={errors._form}
          onCancel={onClose}
          onSubmit={submit}
          submitLabel="保存する"
          loading={save.isPending}
        />
      </Stack>
    </Modal>
  );
}
