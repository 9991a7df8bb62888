import { Badge, Button, Group, Text } from "@mantine/core";
import { partyName } from "../../features/messages";
import type { RouterOutputs } from "../../lib/api-types";
import { formatDateTime } from "../../lib/format";
import { LockedMessageAction } from "../verification/LockedMessageAction";
import classes from "./conversations.module.css";
import { CONVERSATIONS_TEXT } from "./text";

export type Thread = RouterOutputs["messages"]["thread"];
export type ThreadMessage = Thread["messages"][number];
export type ThreadScheduled = Thread["scheduled"][number];
export type ThreadHeld = Thread["held"][number];

const Time = ({ at }: { at: Date }) => (
  <Text size="xs" c="dimmed" component="time" dateTime={new Date(at).toISOString()}>
    {formatDateTime(at)}
  </Text>
);

/**
 * One message of a conversation: the member's on the right with 既読 / 未読, the partner's on the
 * left. Another member's message not opened yet shows its preview line and a button to open it
 * (paid: the caller asks the price first); one locked until the member is verified, the way to verify.
 */
export function MessageBubble({
  message,
  mine,
  onOpen,
  opening,
}: {
  message: ThreadMessage;
  mine: boolean;
  onOpen: () => void;
  opening: boolean;
}) {
  const sealed = message.sealed && !message.locked;
  const who = mine ? "あなた" : `${partyName(message.from)}さん`;
  return (
    <article
      className={`${classes.row} ${mine ? classes.mine : classes.theirs} ${sealed ? classes.sealed : ""}`}
      aria-label={`${who} ${formatDateTime(message.createdAt)}`}
      data-testid="bubble"
      data-mine={mine || undefined}
      data-sealed={sealed || undefined}
    >
      <div className={classes.bubble} data-testid="bubble-body">
        {sealed ? (message.preview ?? "") : message.body}
      </div>
      {sealed && (
        <Button
          size="compact-sm"
          onClick={onOpen}
          loading={opening}
          aria-label={`${who}からの未読メッセージを開いて読む`}
        >
          開いて読む
        </Button>
      )}
      {message.locked && <LockedMessageAction />}
      <Group gap={6}>
        {!mine && message.from.role === "admin" && (
          <Badge size="xs" color="grape" variant="light">
            運営
          </Badge>
        )}
        {sealed && (
          <Badge size="xs" color="pink" variant="filled">
            未読
          </Badge>
        )}
        <Time at={message.createdAt} />
        {mine && (
          <Text size="xs" c={message.isRead ? "dimmed" : "pink.8"} data-testid="read-marker">
            {message.isRead ? "既読" : "未読"}
          </Text>
        )}
      </Group>
    </article>
  );
}

/** The member's scheduled message to the partner, after the last message: 予約 and when (or why it failed). */
export function ScheduledBubble({
  entry,
  onCancel,
  cancelling,
}: {
  entry: ThreadScheduled;
  onCancel: () => void;
  cancelling: boolean;
}) {
  const failed = entry.status === "failed";
  return (
    <article
      className={`${classes.row} ${classes.mine} ${classes.scheduled}`}
      aria-label={`予約 ${formatDateTime(entry.scheduledAt)}`}
      data-testid="scheduled-bubble"
    >
      <div className={classes.bubble}>{entry.content}</div>
      <Group gap={6}>
        <Badge size="xs" color={failed ? "red" : "blue"} variant="light">
          {failed ? "送信失敗" : "予約"}
        </Badge>
        <Text size="xs" c="dimmed">
          {formatDateTime(entry.scheduledAt)} 送信予定
        </Text>
        <Button size="compact-xs" variant="subtle" onClick={onCancel} loading={cancelling}>
          予約を取り消す
        </Button>
      </Group>
      {failed && entry.lastError && (
        <Text size="xs" c="red">
          {entry.lastError}
        </Text>
      )}
    </article>
  );
}

/**
 * The member's message a screening rule kept for review, after the last message: their own bubble
 * marked 確認中 (or, rejected, お届けできませんでした with the points returned). Only the sender sees it.
 */
export function HeldBubble({ item }: { item: ThreadHeld }) {
  const text = CONVERSATIONS_TEXT.held[item.status];
  const rejected = item.status === "rejected";
  return (
    <article
      className={`${classes.row} ${classes.mine} ${rejected ? classes.rejected : classes.held}`}
      aria-label={`あなた ${formatDateTime(item.createdAt)} ${text.badge}`}
      data-testid="held-bubble"
      data-status={item.status}
    >
      <div className={classes.bubble}>{item.body}</div>
      <Group gap={6}>
        <Badge size="xs" color={rejected ? "gray" : "orange"} variant="light" data-testid="held-badge">
          {text.badge}
        </Badge>
        <Time at={item.createdAt} />
      </Group>
      <Text size="xs" c="dimmed">
        {text.note}
      </Text>
    </article>
  );
}
