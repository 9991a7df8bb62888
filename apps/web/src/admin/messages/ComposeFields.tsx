import { MESSAGE_BODY_MAX } from "@enmusubi/shared";
import { Button, Checkbox, Collapse, Stack, Textarea, TextInput } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { useId, useRef } from "react";
import { EmojiPicker, insertAtCaret } from "./EmojiPicker";

export interface ScheduleState {
  enabled: boolean;
  at: string;
}

export const NO_SCHEDULE: ScheduleState = { enabled: false, at: "" };

/** `YYYY-MM-DDTHH:mm` in local time, for a datetime-local input. */
export function localDateTimeValue(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/**
 * The message body with its emoji picker (60 in 10 columns) and, when `schedule` is given, the
 * optional scheduled-send checkbox with its date-time (spec §2, §5).
 */
export function ComposeFields({
  body,
  onBody,
  schedule,
  onSchedule,
  label = "メッセージ",
  error,
  autoFocus,
}: {
  body: string;
  onBody: (body: string) => void;
  schedule?: ScheduleState;
  onSchedule?: (schedule: ScheduleState) => void;
  label?: string;
  error?: string | null;
  autoFocus?: boolean;
}) {
  const textarea = useRef<HTMLTextAreaElement>(null);
  const [emojiOpen, emoji] = useDisclosure(false);
  const pickerId = useId();
  return (
    <Stack gap="xs">
      <Textarea
        ref={textarea}
        label={label}
        value={body}
        onChange={(e) => onBody(e.currentTarget.value)}
        autosize
        minRows={4}
        maxRows={10}
        maxLength={MESSAGE_BODY_MAX}
        error={error}
        data-autofocus={autoFocus || undefined}
      />
      <div>
        <Button
          size="compact-sm"
          variant="subtle"
          onClick={emoji.toggle}
          aria-expanded={emojiOpen}
          aria-controls={pickerId}
        >
          {emojiOpen ? "絵文字を閉じる" : "絵文字を挿入"}
        </Button>
        <Collapse expanded={emojiOpen} id={pickerId}>
          {emojiOpen && (
            <EmojiPicker
              onPick={(e) => {
                onBody(insertAtCaret(textarea.current, body, e));
                textarea.current?.focus();
              }}
            />
          )}
        </Collapse>
      </div>
      {schedule && onSchedule && (
        <Stack gap={4}>
          <Checkbox
            label="予約送信する"
            checked={schedule.enabled}
            onChange={(e) => {
              const enabled = e.currentTarget.checked;
              onSchedule({
                enabled,
                at: schedule.at || localDateTimeValue(new Date(Date.now() + 60 * 60 * 1000)),
              });
            }}
          />
          {schedule.enabled && (
            <TextInput
              type="datetime-local"
              label="送信日時"
              description="未来の日時を指定すると予約されます。過去の日時では今すぐ送信されます。"
              value={schedule.at}
              onChange={(e) => onSchedule({ ...schedule, at: e.currentTarget.value })}
              w={260}
            />
          )}
        </Stack>
      )}
    </Stack>
  );
}
