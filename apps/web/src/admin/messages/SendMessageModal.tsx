import { MSG } from "@enmusubi/shared";
import { Button, Group, Modal, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { NO_SCHEDULE, type Schedule } from "../../features/messages";
import { displayName } from "../../lib/display-name";
import { errorMessage, useTRPC } from "../../lib/trpc";
import type { AdminUser } from "../users/types";
import { ComposeFields } from "./ComposeFields";
import { type ScheduledSource, scheduledTime, useCreateScheduled } from "./scheduledApi";

/** The member written to: a row of the user list. */
export type Recipient = Pick<AdminUser, "id" | "name" | "userID">;

/**
 * An administrator writes to one member now or at a scheduled time (spec §2 admin 1 "send
 * message" modal). Send is disabled while the body is blank (spec §5).
 */
export function SendMessageModal({
  recipient,
  onClose,
  source,
}: {
  recipient: Recipient | null;
  onClose: () => void;
  source: ScheduledSource;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [body, setBody] = useState("");
  const [schedule, setSchedule] = useState<Schedule>(NO_SCHEDULE);
  useEffect(() => {
    if (recipient) {
      setBody("");
      setSchedule(NO_SCHEDULE);
    }
  }, [recipient]);

  const send = useMutation(trpc.adminMessages.send.mutationOptions());
  const create = useCreateScheduled();
  const pending = send.isPending || create.isPending;

  const submit = () => {
    if (!recipient || !body.trim()) return;
    const at = scheduledTime(schedule.enabled, schedule.at);
    if (at) {
      create.mutate(
        { type: "direct", recipientIds: [recipient.id], content: body, scheduledAt: at, source },
        {
          onSuccess: () => {
            notifications.show({ color: "green", message: MSG.messageScheduled });
            onClose();
          },
          onError: (error) => notifications.show({ color: "red", message: errorMessage(error, MSG.sendFailedAdmin) }),
        },
      );
      return;
    }
    send.mutate(
      { recipientIds: [recipient.id], body },
      {
        onSuccess: () => {
          notifications.show({ color: "green", message: MSG.messageSent });
          void queryClient.invalidateQueries({ queryKey: trpc.adminMessages.pathKey() });
          onClose();
        },
        onError: (error) => notifications.show({ color: "red", message: errorMessage(error, MSG.sendFailedAdmin) }),
      },
    );
  };

  const scheduled = scheduledTime(schedule.enabled, schedule.at) !== null;
  return (
    <Modal opened={recipient !== null} onClose={onClose} title="メッセージを送信" centered size="lg">
      {recipient && (
        <Stack gap="sm">
          <Text size="sm">
            宛先: {displayName(recipient)}（{recipient.userID}）
          </Text>
          <ComposeFields body={body} onBody={setBody} schedule={schedule} onSchedule={setSchedule} autoFocus />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              キャンセル
            </Button>
            <Button onClick={submit} disabled={!body.trim()} loading={pending}>
              {scheduled ? "予約" : "送信"}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
