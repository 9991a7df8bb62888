import { Avatar, Badge, Card, Group, Stack, Text } from "@mantine/core";
import type { ReactNode } from "react";
import { formatDateTime } from "../../lib/format";
import { MessagePreview } from "./MessageText";
import classes from "./messages.module.css";
import { type MessageLike, type PartyLike, partyName } from "./types";

/**
 * One message in a list (both shells): the other party's photo (named after them) and name, the
 * body's preview (click opens the detail), the time in Japanese and the screen's actions. Unread
 * messages are highlighted and say so in text too. A sealed message (another member's, not opened
 * yet: decision 0027) shows its one-line preview from the server and the 「未読」 marker (「未開封」
 * once marked read without being opened); opening
 * it is the screen's (it costs points).
 */
export function MessageCard({
  message,
  party,
  partyLabel,
  highlightUnread = false,
  status,
  actions,
  onOpen,
  opening = false,
}: {
  message: MessageLike & { sealed?: boolean; preview?: string | null };
  /** The other party: the sender on received screens, the recipient on sent ones. */
  party: PartyLike;
  /** 差出人 / 宛先, read by screen readers before the name. */
  partyLabel: string;
  highlightUnread?: boolean;
  /** Badges beside the time (read marker, replied …). */
  status?: ReactNode;
  actions?: ReactNode;
  onOpen?: () => void;
  /** Opening it is under way (a paid open: quote, confirmation, charge). */
  opening?: boolean;
}) {
  const name = partyName(party);
  const sealed = message.sealed === true;
  // A sealed message's preview line (none while locked until verification: the notice is the body).
  const preview = sealed ? (message.preview ?? null) : null;
  const unread = (highlightUnread && !message.isRead) || sealed;
  // Marked read (the legacy read call, a reply) but never opened: still sealed, so not 「未読」 on
  // 受信 but 「未開封」 (decisions 0027, 0032).
  const unopened = sealed && message.isRead;
  return (
    <Card
      withBorder
      padding="sm"
      radius="md"
      component="article"
      aria-label={`${partyLabel} ${name} ${formatDateTime(message.createdAt)}`}
      className={`${classes.card} ${unread ? classes.unread : ""}`}
      data-testid="message-card"
      data-unread={unread || undefined}
      aria-busy={opening || undefined}
    >
      <Group align="flex-start" wrap="nowrap" gap="sm">
        <Avatar src={party.photoLink} alt={name} radius="xl" size={48} color="pink">
          {name.slice(0, 1)}
        </Avatar>
        <Stack gap={6} style={{ flex: 1, minWidth: 0 }}>
          <Group justify="space-between" gap="xs" wrap="wrap">
            <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
              <Text size="xs" c="dimmed" component="span">
                {partyLabel}
              </Text>
              <Text fw={700} truncate component="span" data-testid="message-party">
                {name}
              </Text>
              {party.role === "admin" && (
                <Badge size="xs" color="grape" variant="light">
                  運営
                </Badge>
              )}
              {unread && (
                <Badge size="xs" color="pink" variant="filled" data-testid="message-state">
                  {unopened ? "未開封" : "未読"}
                </Badge>
              )}
            </Group>
            <Group gap={6}>
              {status}
              <Text size="xs" c="dimmed" component="time" dateTime={new Date(message.createdAt).toISOString()}>
                {formatDateTime(message.createdAt)}
              </Text>
            </Group>
          </Group>
          <MessagePreview
            body={preview ?? message.body}
            onOpen={onOpen}
            // The visible line first, as a word of its own (axe: label-content-name-mismatch).
            label={preview !== null ? `${preview} ${name}さんからの未読メッセージを開く` : undefined}
          />
          {actions && (
            <Group gap="xs" justify="flex-end">
              {actions}
            </Group>
          )}
        </Stack>
      </Group>
    </Card>
  );
}
