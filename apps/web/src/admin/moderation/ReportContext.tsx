import { REPORT_REASONS } from "@enmusubi/shared";
import { Badge, Card, Group, Stack, Text } from "@mantine/core";
import type { RouterOutputs } from "../../lib/api-types";
import { displayName } from "../../lib/display-name";
import { formatDateTime } from "../../lib/format";

export type Report = RouterOutputs["adminModeration"]["queue"]["reports"][number];
export type Party = Report["reporter"];

export const REASON_LABELS = Object.fromEntries(REPORT_REASONS.map((r) => [r.value, r.label])) as Record<
  Report["reason"],
  string
>;
export const TARGET_LABELS: Record<Report["targetType"], string> = {
  member: "会員",
  message: "メッセージ",
  board_post: "掲示板の投稿",
};

export function partyLabel(p: Party): string {
  const name = displayName(p);
  return p.userID ? `${name}（${p.userID}）` : name;
}

export function PartyLine({ label, party }: { label: string; party: Party }) {
  return (
    <Group gap={6} wrap="wrap">
      <Text size="sm" c="dimmed" w={72}>
        {label}
      </Text>
      <Text size="sm" fw={600}>
        {partyLabel(party)}
      </Text>
      {party.suspendedAt && (
        <Badge size="xs" color="red" variant="light">
          利用停止中
        </Badge>
      )}
      {party.deleted && (
        <Badge size="xs" color="gray" variant="light">
          退会済み
        </Badge>
      )}
    </Group>
  );
}

/** The reported content as the administrator judges it: the message, the post, or the member. */
export function ReportContext({ report }: { report: Report }) {
  const c = report.context;
  const removedBadge = (removed: boolean) =>
    removed && (
      <Badge size="xs" color="gray" variant="filled">
        削除済み
      </Badge>
    );
  if (c.type === "message")
    return (
      <Card withBorder padding="xs" bg="gray.0">
        <Stack gap={4}>
          <PartyLine label="差出人" party={c.from} />
          <PartyLine label="宛先" party={c.to} />
          <Group gap="xs">
            <Text size="xs" c="dimmed">
              {formatDateTime(c.createdAt)}
            </Text>
            {removedBadge(c.removed)}
          </Group>
          <Text size="sm" style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }} data-testid="report-content">
            {c.body}
          </Text>
        </Stack>
      </Card>
    );
  if (c.type === "board_post")
    return (
      <Card withBorder padding="xs" bg="gray.0">
        <Stack gap={4}>
          <PartyLine label="投稿者" party={c.author} />
          <Group gap="xs">
            <Text size="xs" c="dimmed">
              {formatDateTime(c.createdAt)}
            </Text>
            {removedBadge(c.removed)}
          </Group>
          <Text fw={700} size="sm" style={{ overflowWrap: "anywhere" }}>
            {c.title}
          </Text>
          <Text size="sm" style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }} data-testid="report-content">
            {c.content}
          </Text>
        </Stack>
      </Card>
    );
  if (c.type === "member")
    return (
      <Card withBorder padding="xs" bg="gray.0">
        {c.profile ? (
          <Text size="sm" data-testid="report-content">
            {[
              displayName(c.profile),
              c.profile.gender === "male" ? "男性" : "女性",
              c.profile.age !== null ? `${c.profile.age}歳` : null,
              c.profile.prefecture,
              c.profile.occupation?.name,
            ]
              .filter(Boolean)
              .join("・")}
            ／ 登録日 {formatDateTime(c.profile.createdAt)}
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            この会員は退会済みです。
          </Text>
        )}
      </Card>
    );
  return (
    <Text size="sm" c="dimmed">
      報告された内容は存在しません。
    </Text>
  );
}
