import type { ScheduledSource } from "@enmusubi/shared";
import { SCHEDULER_POLL_MS } from "@enmusubi/shared";
import { Alert, Badge, Button, Card, Group, Stack, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { MessagePreview, partyName } from "../../features/messages";
import { formatDateTime } from "../../lib/format";
import { useTRPC } from "../../lib/trpc";
import { useCancelScheduled } from "./useCancelScheduled";

/**
 * The member's scheduled messages (spec §4): pending ones with their time, failed ones with their
 * error; each can be cancelled after confirmation. Hidden while there are none. With `source`, the
 * ones scheduled from that screen (search, favourites); without, every one of the member's (the
 * three mail screens: a reply scheduled from 未読 shows on 受信 and 送信 too).
 */
export function ScheduledList({ source }: { source?: ScheduledSource }) {
  const trpc = useTRPC();
  // While entries wait, follow them at the scheduler's pace (spec §9: 5 s): sent ones leave, failed ones show their error.
  const list = useQuery({
    ...trpc.scheduled.list.queryOptions(source ? { source } : {}),
    refetchInterval: (query) => ((query.state.data?.length ?? 0) > 0 ? SCHEDULER_POLL_MS : false),
  });
  const { cancelScheduled, cancellingId } = useCancelScheduled();
  if (list.isError)
    return (
      <Alert color="red" title="予約メッセージの取得に失敗しました" role="alert">
        <Button size="xs" variant="white" color="red" mt="xs" onClick={() => void list.refetch()}>
          再試行
        </Button>
      </Alert>
    );
  const entries = list.data ?? [];
  if (entries.length === 0) return null;
  return (
    <Stack gap="xs" component="section" aria-labelledby={`scheduled-${source ?? "all"}`}>
      <Title order={3} size="h5" id={`scheduled-${source ?? "all"}`}>
        予約中のメッセージ（{entries.length}件）
      </Title>
      {entries.map((entry) => (
        <Card key={entry.id} withBorder padding="sm" data-testid="scheduled-entry">
          <Group justify="space-between" gap="xs" mb={4}>
            <Text size="sm" fw={600}>
              宛先: {entry.recipients.map((r) => partyName(r)).join("、")}
            </Text>
            <Group gap={6}>
              {entry.status === "failed" ? (
                <Badge color="red" variant="light">
                  送信失敗
                </Badge>
              ) : (
                <Badge color="blue" variant="light">
                  予約中
                </Badge>
              )}
              <Text size="xs" c="dimmed">
                {formatDateTime(entry.scheduledAt)} 送信予定
              </Text>
            </Group>
          </Group>
          <MessagePreview body={entry.content} />
          {entry.status === "failed" && entry.lastError && (
            <Text size="sm" c="red" mt={4}>
              {entry.lastError}
            </Text>
          )}
          <Group justify="flex-end" mt={6}>
            <Button
              size="xs"
              variant="default"
              onClick={() => void cancelScheduled(entry.id)}
              loading={cancellingId === entry.id}
            >
              予約を取り消す
            </Button>
          </Group>
        </Card>
      ))}
    </Stack>
  );
}
