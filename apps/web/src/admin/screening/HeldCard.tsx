import { SCREENING_FLAG_HOURS } from "@enmusubi/shared";
import { Badge, Button, Card, Group, Stack, Text } from "@mantine/core";
import { formatDateTime, formatPoints } from "../../lib/format";
import { LongText } from "../../ui/LongText";
import { SCREENING_TEXT } from "./text";
import { ACTION_COLORS, type HeldItem, personLabel } from "./types";

function Line({ label, children }: { label: string; children: string }) {
  return (
    <Group gap={6} wrap="nowrap" align="flex-start">
      <Text size="sm" c="dimmed" w={72} style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text size="sm" fw={600} style={{ minWidth: 0, overflowWrap: "anywhere" }}>
        {children}
      </Text>
    </Group>
  );
}

/**
 * One held message or board post in 「投稿・メッセージ確認」: what it is, who wrote it to whom, the
 * text as written (plain text), the rules it matched (category and the matching part), the points
 * it was charged, and 公開する / 却下する while it waits. A member held or refused often lately is
 * flagged 要注意.
 */
export function HeldCard({
  item,
  busy,
  onRelease,
  onReject,
}: {
  item: HeldItem;
  busy: boolean;
  onRelease(): void;
  onReject(): void;
}) {
  const kind = SCREENING_TEXT.holdKinds[item.kind];
  const what = item.title ? `「${item.title}」` : `${personLabel(item.author)}の${kind}`;
  return (
    <Card
      withBorder
      padding="sm"
      component="article"
      aria-label={`${kind} ${personLabel(item.author)} ${formatDateTime(item.createdAt)}`}
      data-testid="held-card"
      data-status={item.status}
    >
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap="xs" wrap="wrap">
            <Badge color="gray" variant="outline">
              {kind}
            </Badge>
            {item.status !== "held" && (
              <Badge color={item.status === "released" ? "teal" : "red"} variant="light">
                {SCREENING_TEXT.holdStatuses[item.status]}
              </Badge>
            )}
            {item.flagged && (
              <Badge color="red" variant="filled" data-testid="held-flag">
                要注意
              </Badge>
            )}
          </Group>
          <Text size="xs" c="dimmed">
            {formatDateTime(item.createdAt)}
          </Text>
        </Group>
        <Line label={item.kind === "message" ? "差出人" : "投稿者"}>{personLabel(item.author)}</Line>
        {item.recipient && <Line label="宛先">{personLabel(item.recipient)}</Line>}
        <Text size="xs" c={item.flagged ? "red" : "dimmed"} data-testid="held-recent">
          直近{SCREENING_FLAG_HOURS}時間の保留・拒否 {item.recentScreenings.toLocaleString("ja-JP")}件
        </Text>
        <Card withBorder padding="xs" bg="gray.0">
          <Stack gap={4}>
            {item.title && (
              <Text fw={700} size="sm" style={{ overflowWrap: "anywhere" }} data-testid="held-title">
                {item.title}
              </Text>
            )}
            <div data-testid="held-body">
              <LongText text={item.body} />
            </div>
          </Stack>
        </Card>
        {item.matches.length > 0 && (
          <Group gap={6} wrap="wrap" aria-label="一致したルール" role="list">
            {item.matches.map((m, i) => (
              <Badge
                // The same rule can match twice; the order is the server's.
                key={`${m.ruleId}-${i}`}
                role="listitem"
                color={ACTION_COLORS[m.action]}
                variant="light"
                tt="none"
                maw="100%"
                data-testid="held-match"
              >
                {SCREENING_TEXT.categories[m.category]}：{m.excerpt}
              </Badge>
            ))}
          </Group>
        )}
        <Text size="xs" c="dimmed">
          {item.chargedPoints > 0 ? `消費ポイント ${formatPoints(item.chargedPoints)}` : "ポイントの消費なし"}
        </Text>
        {item.status === "held" ? (
          <Group justify="flex-end" gap="xs" wrap="wrap">
            <Button
              color="red"
              variant="light"
              size="xs"
              disabled={busy}
              onClick={onReject}
              aria-label={`${what}を却下する`}
            >
              却下する
            </Button>
            <Button size="xs" disabled={busy} onClick={onRelease} aria-label={`${what}を公開する`}>
              公開する
            </Button>
          </Group>
        ) : (
          <Text size="xs" c="dimmed" style={{ overflowWrap: "anywhere" }}>
            対応日時 {formatDateTime(item.decidedAt)}
            {item.reason ? ` ／ 却下の理由: ${item.reason}` : ""}
          </Text>
        )}
      </Stack>
    </Card>
  );
}
