import { MSG } from "@enmusubi/shared";
import { Button, Group, Modal, Paper, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { formatDateTime } from "../../lib/format";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { ComposeFields, NO_SCHEDULE, type ScheduleState } from "./ComposeFields";
import { scheduledTime, useCreateScheduled } from "./scheduledApi";
import { type AdminMessage, partyName } from "./types";

/**
 * The administrator answers a member's message from the inbox (spec §2 admin 7): sent as the
 * administrator to the member, now or scheduled. Disabled while blank.
 */
export function ReplyModal({ message, onClose }: { message: AdminMessage | null; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [body, setBody] = useState("");
  const [schedule, setSchedule] = useState<ScheduleState>(NO_SCHEDULE);
  useEffect(() => {
    if (message) {
      setBody("");
      setSchedule(NO_SCHEDULE);
    }
  }, [message]);
  const send = useMutation(trpc.adminMessages.send.mutationOptions());
  const create = useCreateScheduled();

  const submit = () => {
    if (!message || !body.trim()) return;
    const failed = (e: unknown) => notifications.show({ color: "red", message: errorMessage(e, MSG.replyFailed) });
    const at = scheduledTime(schedule.enabled, schedule.at);
    if (at) {
      create.mutate(
        {
          type: "reply",
          recipientIds: [message.from.id],
          content: body,
          scheduledAt: at,
          source: "admin:inbox",
          relatedMessageId: message.id,
          markAsReplied: true,
          markAsRead: true,
        },
        {
          onSuccess: () => {
            notifications.show({ color: "green", message: MSG.replyScheduled });
            onClose();
          },
          onError: failed,
        },
      );
      return;
    }
    send.mutate(
      { recipientIds: [message.from.id], body },
      {
        onSuccess: () => {
          notifications.show({ color: "green", message: MSG.messageSent });
          void queryClient.invalidateQueries({ queryKey: trpc.adminMessages.pathKey() });
          onClose();
        },
        onError: failed,
      },
    );
  };

  return (
    <Modal opened={message !== null} onClose={onClose} title="返信" centered size="lg">
      {message && (
        <Stack gap="sm">
          <Paper withBorder p="xs">
            <Text size="xs" c="dimmed">
              {partyName(message.from)}（{message.from.userID}） ・ {formatDateTime(message.createdAt)}
            </Text>
            <Text size="sm" lineClamp={4} style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
              {message.body}
            </Text>
          </Paper>
          <ComposeFields
            label="返信メッセージ"
            body={body}
            onBody={setBody}
            schedule={schedule}
            onSchedule={setSchedule}
            autoFocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              キャンセル
            </Button>
            <Button onClick={submit} disabled={!body.trim()} loading={send.isPending || create.isPending}>
              {scheduledTime(schedule.enabled, schedule.at) ? "予約" : "返信する"}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
