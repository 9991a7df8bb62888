import { MESSAGE_BODY_MAX } from "@enmusubi/shared";
import { Stack, Textarea } from "@mantine/core";
import { useRef } from "react";
import { EmojiPicker, type Schedule, SchedulePicker, useInsertAtCaret } from "../../features/messages";

/**
 * The message body with the shared emoji picker (60 in 10 columns, inserting at the caret) and,
 * when `schedule` is given, the shared optional scheduled-send checkbox with its date-time
 * (spec §2, §5).
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
  schedule?: Schedule;
  onSchedule?: (schedule: Schedule) => void;
  label?: string;
  error?: string | null;
  autoFocus?: boolean;
}) {
  const textarea = useRef<HTMLTextAreaElement>(null);
  const insert = useInsertAtCaret(textarea, body, onBody);
  return (
    <Stack gap="xs">
      <Textarea
        ref={textarea}
        label={label}
        value={body}
        onChange={(e) => onBody(e.currentTarget.value)}
        rows={5}
        resize="vertical"
        maxLength={MESSAGE_BODY_MAX}
        error={error}
        data-autofocus={autoFocus || undefined}
      />
      <EmojiPicker size="large" onPick={insert} />
      {schedule && onSchedule && <SchedulePicker value={schedule} onChange={onSchedule} />}
    </Stack>
  );
}
