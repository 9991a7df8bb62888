import { MIN_AGE, MSG, SELF_INTRODUCTION_MAX, yearsBefore } from "@enmusubi/shared";
import { Select, SimpleGrid, Textarea } from "@mantine/core";
import { DateInput } from "@mantine/dates";
import { JAPANESE_DATE_FORMAT, parseTypedDate } from "../lib/dates";
import type { FieldErrors } from "../lib/forms";
import { PasswordField } from "../ui/PasswordField";
import type { useReferenceLists } from "./useReferenceLists";

/** The edit form: the profile fields, a password change, and the staged photo. */
export interface Form {
  name: string;
  birthday: string;
  address: string | null;
  occupationId: string | null;
  annualIncomeId: string | null;
  /** 自己紹介 (≤ SELF_INTRODUCTION_MAX characters). */
  selfIntroduction: string;
  currentPassword: string;
  newPassword: string;
  newPasswordConfirmation: string;
  /** undefined: unchanged; null: remove on save; a data URL: upload on save (spec §4). */
  photo: string | null | undefined;
}

/** The latest birthday allowed: the server's rule (18 on today's Japanese day), as YYYY-MM-DD. */
const latestBirthday = (): string => yearsBefore(new Date(), MIN_AGE);

/** Where the calendar opens when no birthday is set: 30 years ago. */
function defaultCalendarDate(): string {
  return `${new Date().getFullYear() - 30}-01-01`;
}

type SetField = <K extends keyof Form>(key: K, value: Form[K]) => void;

/** Birthday (18 or over), prefecture, occupation and income, with the lists' fetch failures shown. */
export function ProfileFields({
  form,
  errors,
  set,
  prefectureOptions,
  lists: { occupations, annualIncomes },
}: {
  form: Form;
  errors: FieldErrors;
  set: SetField;
  prefectureOptions: string[];
  lists: ReturnType<typeof useReferenceLists>;
}) {
  return (
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
  );
}

/**
 * 自己紹介: a multi-line text with a live character count; other members see it in the paid
 * profile detail only. Longer text is refused on save with the catalogue's message.
 */
export function SelfIntroductionField({ form, errors, set }: { form: Form; errors: FieldErrors; set: SetField }) {
  const length = form.selfIntroduction.trim().length;
  return (
    <Textarea
      label="自己紹介"
      description={`${length.toLocaleString("ja-JP")} / ${SELF_INTRODUCTION_MAX.toLocaleString("ja-JP")}文字（プロフィール詳細に表示されます）`}
      placeholder="趣味や休日の過ごし方、どんな方とお話ししたいかなど"
      rows={6}
      value={form.selfIntroduction}
      onChange={(e) => set("selfIntroduction", e.currentTarget.value)}
      error={errors.selfIntroduction}
    />
  );
}

/** パスワードの変更: current, new, and the new one again (only when changing it). */
export function PasswordFields({ form, errors, set }: { form: Form; errors: FieldErrors; set: SetField }) {
  return (
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
  );
}
