import { Checkbox, Stack, TextInput } from "@mantine/core";
import { formatDateTime } from "../../lib/format";
import { type Schedule, scheduleApplies, scheduleTime, toLocalInput } from "./schedule";

/**
 * Optional scheduled sending: a checkbox and a date-time. A time not in the future sends at once
 * (spec §4), which the hint under the field says.
 */
export function SchedulePicker({
  value,
  onChange,
  disabled,
}: {
  value: Schedule;
  onChange: (next: Schedule) => void;
  disabled?: boolean;
}) {
  const at = scheduleTime(value);
  const past = value.enabled && at !== null && !scheduleApplies(value);
  return (
    <Stack gap={6}>
      <Checkbox
        label="予約送信する"
        checked={value.enabled}
        disabled={disabled}
        onChange={(event) => {
          const enabled = event.currentTarget.checked;
          // Ticking proposes one hour from now, so the field never starts empty.
          const next = value.at || toLocalInput(new Date(Date.now() + 60 * 60 * 1000));
          onChange({ enabled, at: enabled ? next : value.at });
        }}
      />
      {value.enabled && (
        <TextInput
          type="datetime-local"
          label="送信日時"
          value={value.at}
          min={toLocalInput(new Date())}
          disabled={disabled}
          onChange={(event) => onChange({ ...value, at: event.currentTarget.value })}
          description={
            at === null
              ? "日時を指定してください"
              : past
                ? "過去の日時のため、すぐに送信されます"
                : `${formatDateTime(at)} に送信されます`
          }
        />
      )}
    </Stack>
  );
}
