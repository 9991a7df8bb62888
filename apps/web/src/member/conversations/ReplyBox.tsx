import { MESSAGE_BODY_MAX, MSG } from "@enmusubi/shared";
import { Alert, Button, Group, Paper, Stack, Text, Textarea } from "@mantine/core";
import { useRef, useState } from "react";
import {
  EmojiPicker,
  NO_SCHEDULE,
  type PartyLike,
  type Schedule,
  SchedulePicker,
  scheduleApplies,
  scheduleTime,
  useInsertAtCaret,
} from "../../features/messages";
import { confirmAction } from "../../lib/confirm";
import { formatPoints } from "../../lib/format";
import { costFor, useSendMail } from "../mail/useSend";
import { useDraft } from "../useDraft";
import { SendLockNotice, useSendLock } from "../verification/useSendLock";

/**
 * The reply box under a conversation (decision 0030): the compose dialog's textarea, emoji picker and
 * schedule picker, inline. The text is a draft kept per partner (useDraft) until it is sent or
 * discarded (discarding asks first). Sending goes through the mail screens' send (useSendMail):
 * the price shown is send_message per member recipient (free to the operator), confirmed, and
 * charged by messages.send; a schedule goes to scheduled.create. `replyTo`: the partner's newest
 * message, marked replied by the send.
 */
export function ReplyBox({
  memberId,
  partner,
  closedReason,
  replyTo,
}: {
  memberId: string;
  partner: PartyLike;
  /** Why nothing can be sent to this partner (gone, or cannot read), shown instead of sending. */
  closedReason: string | null;
  replyTo: string | null;
}) {
  const draft = useDraft(memberId, partner.id);
  const [schedule, setSchedule] = useState<Schedule>(NO_SCHEDULE);
  const [busy, setBusy] = useState(false);
  const ref = useRef<HTMLTextAreaElement>(null);
  const insert = useInsertAtCaret(ref, draft.text, draft.setText);
  const { perMember, submit } = useSendMail();
  const sendLock = useSendLock();
  const cost = costFor([partner], perMember);
  const blank = draft.text.trim() === "";
  const scheduled = scheduleApplies(schedule);
  const blocked = closedReason ?? sendLock;

  const send = async () => {
    if (blank || blocked || busy) return;
    setBusy(true);
    try {
      const done = await submit({
        recipients: [partner],
        result: { body: draft.text.trim(), scheduledAt: scheduled ? scheduleTime(schedule) : null },
        source: "user:sent",
        ...(replyTo ? { replyTo: { id: replyTo, markRead: false } } : {}),
        successText: MSG.messageSent,
        scheduledText: MSG.messageScheduled,
        failureText: MSG.sendFailedMember,
      });
      if (done) {
        draft.clear();
        setSchedule(NO_SCHEDULE);
      }
    } finally {
      setBusy(false);
    }
  };

  const discard = async () => {
    const ok = await confirmAction({
      title: "下書きの破棄",
      message: "書きかけのメッセージを破棄しますか？",
      confirmLabel: "破棄する",
    });
    if (ok) draft.clear();
  };

  return (
    <Paper withBorder p="sm" component="section" aria-label="メッセージを書く" data-testid="reply-box">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void send();
        }}
      >
        <Stack gap="xs">
          {closedReason && (
            <Alert color="gray" variant="light" role="note" data-testid="reply-closed">
              <Text size="sm">{closedReason}</Text>
            </Alert>
          )}
          {!closedReason && sendLock && <SendLockNotice />}
          <Textarea
            ref={ref}
            label="メッセージ"
            rows={4}
            resize="vertical"
            maxLength={MESSAGE_BODY_MAX}
            value={draft.text}
            onChange={(event) => draft.setText(event.currentTarget.value)}
            description={`${draft.text.length.toLocaleString("ja-JP")} / ${MESSAGE_BODY_MAX.toLocaleString("ja-JP")}文字（下書きは自動で保存されます）`}
            disabled={busy || !!closedReason}
          />
          <EmojiPicker size="large" onPick={insert} disabled={busy || !!closedReason} />
          <SchedulePicker value={schedule} onChange={setSchedule} disabled={busy || !!closedReason} />
          <Group justify="space-between" gap="xs" wrap="wrap">
            <Text size="sm" c="dimmed">
              {cost > 0 ? `送信には${formatPoints(cost)}が必要です` : "この送信にポイントは必要ありません"}
            </Text>
            <Group gap="xs">
              <Button variant="default" onClick={() => void discard()} disabled={busy || blank}>
                下書きを破棄
              </Button>
              <Button type="submit" loading={busy} disabled={blank || !!blocked}>
                {scheduled ? "予約" : "送信"}
              </Button>
            </Group>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
