import { MESSAGE_BODY_MAX, MSG } from "@enmusubi/shared";
import { Button, Group, Modal, Stack, Text, Textarea } from "@mantine/core";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { EmojiPicker, type EmojiPickerSize, useInsertAtCaret } from "./EmojiPicker";
import { SchedulePicker } from "./SchedulePicker";
import { NO_SCHEDULE, type Schedule, scheduleApplies, scheduleTime } from "./schedule";

/** Text kept elsewhere (the member's draft per partner): read on opening, written as typed, cleared once sent. */
export interface ComposeDraft {
  text: string;
  setText(next: string): void;
  clear(): void;
}

export interface ComposeResult {
  body: string;
  /** Set when the schedule applies (ticked and in the future); otherwise the message goes now. */
  scheduledAt: Date | null;
}

/**
 * The reply / send dialog both shells use: textarea, emoji picker inserting at the caret, optional
 * schedule (the button then reads 予約), a cost hint. Blank text disables sending (spec §5).
 * `onSubmit` answers true to close the dialog (success), false to keep it open (failure). With a
 * `draft` the text is the draft's: closing (Escape, キャンセル) keeps it, a send clears it.
 */
export function ComposeDialog({
  opened,
  onClose,
  title,
  children,
  emojiSize = "large",
  allowSchedule = true,
  submitLabel = "送信",
  costNote,
  extraInvalid,
  onSubmit,
  initialBody = "",
  draft,
}: {
  opened: boolean;
  onClose: () => void;
  title: string;
  /** Shown above the textarea: the recipient, the message answered, recipient checkboxes … */
  children?: ReactNode;
  emojiSize?: EmojiPickerSize;
  allowSchedule?: boolean;
  submitLabel?: string;
  /** e.g. 「送信には48ptが必要です」 */
  costNote?: ReactNode;
  /** A reason (shown) the form cannot be sent besides blank text, e.g. no recipient. */
  extraInvalid?: string | null;
  onSubmit: (result: ComposeResult) => Promise<boolean>;
  initialBody?: string;
  draft?: ComposeDraft;
}) {
  const [ownBody, setOwnBody] = useState(initialBody);
  const body = draft ? draft.text : ownBody;
  const setBody = draft ? draft.setText : setOwnBody;
  const [schedule, setSchedule] = useState<Schedule>(NO_SCHEDULE);
  const [busy, setBusy] = useState(false);
  const [touched, setTouched] = useState(false);
  const ref = useRef<HTMLTextAreaElement>(null);
  const insert = useInsertAtCaret(ref, body, setBody);

  useEffect(() => {
    if (opened) {
      setOwnBody(initialBody);
      setSchedule(NO_SCHEDULE);
      setBusy(false);
      setTouched(false);
    }
  }, [opened, initialBody]);

  const blank = body.trim() === "";
  const scheduled = allowSchedule && scheduleApplies(schedule);
  const submit = async () => {
    setTouched(true);
    if (blank || extraInvalid || busy) return;
    setBusy(true);
    try {
      const done = await onSubmit({ body: body.trim(), scheduledAt: scheduled ? scheduleTime(schedule) : null });
      if (done) {
        draft?.clear();
        onClose();
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened={opened} onClose={busy ? () => {} : onClose} title={title} centered size="lg">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Stack gap="sm">
          {children}
          <Textarea
            ref={ref}
            label="メッセージ"
            data-autofocus
            rows={5}
            resize="vertical"
            maxLength={MESSAGE_BODY_MAX}
            value={body}
            onChange={(event) => {
              setBody(event.currentTarget.value);
              setTouched(true);
            }}
            error={touched && blank ? MSG.messageRequired : undefined}
            description={`${body.length.toLocaleString("ja-JP")} / ${MESSAGE_BODY_MAX.toLocaleString("ja-JP")}文字${draft ? "（下書きは自動で保存されます）" : ""}`}
            disabled={busy}
          />
          <EmojiPicker size={emojiSize} onPick={insert} disabled={busy} />
          {allowSchedule && <SchedulePicker value={schedule} onChange={setSchedule} disabled={busy} />}
          {costNote && (
            <Text size="sm" c="dimmed">
              {costNote}
            </Text>
          )}
          {extraInvalid && (
            <Text size="sm" c="red" data-testid="compose-invalid">
              {extraInvalid}
            </Text>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={busy}>
              キャンセル
            </Button>
            <Button type="submit" loading={busy} disabled={blank || !!extraInvalid}>
              {scheduled ? "予約" : submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
