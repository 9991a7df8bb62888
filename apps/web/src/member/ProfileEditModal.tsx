import { MSG, PREFECTURES, profileUpdateInput } from "@enmusubi/shared";
import { Divider, Modal, Stack, Text, TextInput } from "@mantine/core";
import { useMounted } from "@mantine/hooks";
import { notifications } from "@mantine/notifications";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { applyPhotoChange, PhotoChangeCancelled } from "../features/photos/applyPhotoChange";
import { PhotoPicker } from "../features/photos/PhotoPicker";
import { type FieldErrors, validate } from "../lib/forms";
import { saveSession } from "../lib/session";
import { errorMessage, useTRPC, useTRPCClient } from "../lib/trpc";
import { FormActions } from "../ui/FormActions";
import { type Form, PasswordFields, ProfileFields, SelfIntroductionField } from "./ProfileEditFields";
import { PendingBadge, ProfileReviewNotice } from "./ProfileReviewNotice";
import type { CurrentUser } from "./useCurrentUser";
import { useReferenceLists } from "./useReferenceLists";

const fromUser = (user: CurrentUser): Form => ({
  name: user.name ?? "",
  birthday: user.birthday ?? "",
  address: user.address,
  occupationId: user.occupation?.id ?? null,
  annualIncomeId: user.annualIncome?.id ?? null,
  selfIntroduction: user.selfIntroduction,
  currentPassword: "",
  newPassword: "",
  newPasswordConfirmation: "",
  photo: undefined,
});

/**
 * The member's profile edit modal (spec §2, §4), fed with the occupation and annual-income lists.
 * Choosing or removing a photo is staged and applied only on save; if that upload fails the
 * member is asked whether to save the rest. Validation is the server's schema, run here first:
 * name required (≤ 50), 自己紹介 ≤ 1,000, birthday a real date and 18 or over, address a prefecture, a new
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
    onSuccess: (result, { photo }) => {
      if (result.token) saveSession({ token: result.token, role: "user" });
      queryClient.setQueryData(trpc.profile.me.queryKey(), result.user);
      // A new photo or 自己紹介 waits for the profile review (decision 0044); the member's own answers say so.
      const waits = typeof photo === "string" || result.submitted.photo || result.submitted.introduction;
      notifications.show({ color: "green", message: waits ? MSG.profileUpdatedPendingReview : MSG.profileUpdated });
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
      selfIntroduction: form.selfIntroduction,
      ...(form.newPassword ? { currentPassword: form.currentPassword, newPassword: form.newPassword } : {}),
    };
    const result = validate(profileUpdateInput, input);
    const fieldErrors: FieldErrors = result.ok ? {} : { ...result.errors };
    // The member's name is a nickname (decision 0043): its errors say so.
    if (fieldErrors.name === MSG.nameTooLong) fieldErrors.name = MSG.nicknameTooLong;
    if (!form.name.trim()) fieldErrors.name = MSG.nicknameRequired;
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
  const preview = form.photo === undefined ? user.photoUrl : form.photo;

  return (
    <Modal opened={opened && mounted} onClose={onClose} title="プロフィールを編集" centered size="lg">
      <Stack>
        <ProfileReviewNotice user={user} />
        {form.photo === undefined && <PendingBadge state={user.review.photo} />}
        <PhotoPicker current={preview} onChange={(photo) => set("photo", photo)} />
        {form.photo !== undefined && (
          <Text size="xs" c="dimmed">
            写真の変更は「保存する」を押すと保存され、審査のあとほかの会員に表示されます。
          </Text>
        )}
        <TextInput
          label="ニックネーム"
          description={MSG.nicknameAdvice}
          required
          maxLength={50}
          value={form.name}
          onChange={(e) => set("name", e.currentTarget.value)}
          error={errors.name}
        />
        <ProfileFields
          form={form}
          errors={errors}
          set={set}
          prefectureOptions={prefectureOptions}
          lists={{ occupations, annualIncomes }}
        />
        <SelfIntroductionField form={form} errors={errors} set={set} />
        <Divider label="パスワードの変更（変更する場合のみ）" labelPosition="left" />
        <PasswordFields form={form} errors={errors} set={set} />
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
