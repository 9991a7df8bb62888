import { MSG } from "@enmusubi/shared";
import { Button, Group, Modal, Paper, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { NO_SCHEDULE, type Schedule } from "../../features/messages";
import { formatDateTime } from "../../lib/format";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { ComposeFields } from "./ComposeFields";
import { scheduledTime, useCreateScheduled } from "./scheduledApi";
import { type AdminMessage, partyName } from "./types";

/**
 * The administrator answers a member's message from the inbox (spec §2 admin 7): sent as the
 * administrator to the member, now or scheduled, and the member's message is marked replied and
 * read. Disabled while blank.
 */
export function ReplyModal({ message, onClose }: { message: AdminMessage | null; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [body, setBody] = useState("");
  const [schedule, setSchedule] = useState<Schedule>(NO_SCHEDULE);
  useEffect(() => {
    if (message) {
      setBody("");
      setSchedule(NO_SCHEDULE);
    }
  }, [message]);
  const create = useCreateScheduled();
  const send = useMutation(trpc.adminMessages.send.mutationOptions());

  const submit = () => {
    if (!message || !body.trim()) return;
    const at = scheduledTime(schedule.enabled, schedule.at);
    const done = {
      onSuccess: () => {
        notifications.show({ color: "green", message: at ? MSG.replyScheduled : MSG.messageSent });
        if (!at) void queryClient.invalidateQueries({ queryKey: trpc.adminMessages.pathKey() });
        onClose();
      },
      onError: (e: unknown) => notifications.show({ color: "red", message: errorMessage(e, MSG.replyFailed) }),
    };
    if (!at) {
      // Now: the reply and the member's message marked read and replied, in one transaction (spec §4).
      send.mutate({ recipientIds: [message.from.id], body, replyToId: message.id }, done);
      return;
    }
    // Later: the server's scheduler sends it and marks the message then.
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
      done,
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
            <Button onClick={submit} disabled={!body.trim()} loading={create.isPending || send.isPending}>
              {scheduledTime(schedule.enabled, schedule.at) ? "予約" : "返信する"}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
