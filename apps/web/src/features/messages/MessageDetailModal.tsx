import { Avatar, Badge, Group, Modal, Stack, Text } from "@mantine/core";
import type { ReactNode } from "react";
import { formatDateTime } from "../../lib/format";
import classes from "./messages.module.css";
import { type MessageLike, type PartyLike, partyName } from "./types";

/** A message in full (both shells): sender, recipient, time, read / replied state, the whole body as text. */
export function MessageDetailModal({
  message,
  onClose,
  actions,
}: {
  message: (MessageLike & { from: PartyLike; to: PartyLike }) | null;
  onClose: () => void;
  actions?: ReactNode;
}) {
  return (
    <Modal opened={message !== null} onClose={onClose} title="メッセージの詳細" centered size="lg">
      {message && (
        <Stack gap="sm">
          {(
            [
              ["差出人", message.from],
              ["宛先", message.to],
            ] as const
          ).map(([label, party]) => (
            <Group key={label} gap="sm" wrap="nowrap">
              <Text size="sm" c="dimmed" w={48}>
                {label}
              </Text>
              <Avatar src={party.photoLink} alt={partyName(party)} radius="xl" size={32} color="pink">
                {partyName(party).slice(0, 1)}
              </Avatar>
              <Text fw={600}>{partyName(party)}</Text>
            </Group>
          ))}
          <Group gap="xs">
            <Text size="sm" c="dimmed" component="time" dateTime={new Date(message.createdAt).toISOString()}>
              {formatDateTime(message.createdAt)}
            </Text>
            <Badge size="sm" variant="light" color={message.isRead ? "gray" : "pink"}>
              {message.isRead ? "既読" : "未読"}
            </Badge>
            {message.hasReply && (
              <Badge size="sm" variant="light" color="teal">
                返信済み
              </Badge>
            )}
          </Group>
          <Text className={classes.fullBody} data-testid="message-detail-body">
            {message.body}
          </Text>
          {actions && (
            <Group justify="flex-end" gap="sm">
              {actions}
            </Group>
          )}
        </Stack>
      )}
    </Modal>
  );
}
