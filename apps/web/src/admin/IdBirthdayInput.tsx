import { MIN_AGE, yearsBefore } from "@enmusubi/shared";
import { DateInput } from "@mantine/dates";
import { JAPANESE_DATE_FORMAT, parseTypedDate } from "../lib/dates";

/**
 * The birth date an administrator reads from a member's ID (decision 0043): a Japanese date picker
 * whose value is YYYY-MM-DD. Days under 18 are disabled in the calendar; a typed one is refused on
 * submit with the catalogue's message.
 */
export function IdBirthdayInput({
  value,
  onChange,
  error,
  description,
}: {
  value: string;
  onChange(value: string): void;
  error?: string;
  description?: string;
}) {
  return (
    <DateInput
      label="身分証の生年月日"
      required
      valueFormat={JAPANESE_DATE_FORMAT}
      dateParser={parseTypedDate}
      placeholder="例: 1995年4月1日"
      value={value || null}
      onChange={(next) => onChange(next ?? "")}
      excludeDate={(date) => date > yearsBefore(new Date(), MIN_AGE)}
      minDate="1900-01-01"
      defaultLevel="decade"
      defaultDate={value || `${new Date().getFullYear() - 30}-01-01`}
      error={error}
      description={description ?? "身分証に記載された生年月日を入力してください（18歳未満の方は登録できません）"}
      data-testid="id-birthday"
    />
  );
}
