import { MSG } from "@enmusubi/shared";
import { Badge, Button, Group, Paper, Stack, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { confirmAction } from "../../lib/confirm";
import { formatDateTime } from "../../lib/format";
import { errorMessage } from "../../lib/trpc";
import {
  type ScheduledSource,
  type ScheduledView,
  useAdminPending,
  useCancelScheduled,
  useScheduledList,
} from "./scheduledApi";

const TYPE_LABEL: Record<string, string> = { direct: "個別", batch: "一括", reply: "返信" };

/**
 * Pending scheduled messages with cancel after confirmation (spec §2 admin 1, 6, 7; §4). `all`
 * lists every administrator's pending entries (user management); otherwise the own entries of a
 * screen, failed ones shown with their error.
 */
export function ScheduledPanel({
  source,
  title = "予約中のメッセージ",
}: {
  source: ScheduledSource | "all";
  title?: string;
}) {
  const all = useAdminPending(source === "all");
  const own = useScheduledList(source === "all" ? undefined : source, source !== "all");
  const query = source === "all" ? all : own;
  const cancel = useCancelScheduled();
  const headingId = `scheduled-${source.replace(/\W/g, "-")}`;

  const askCancel = async (entry: ScheduledView) => {
    const ok = await confirmAction({
      title: "予約の取り消し",
      message: `${formatDateTime(entry.scheduledAt)} に予約したメッセージを取り消しますか？`,
      confirmLabel: "取り消す",
    });
    if (!ok) return;
    cancel.mutate(
      { id: entry.id },
      {
        onSuccess: () => notifications.show({ color: "green", message: MSG.scheduledCancelled }),
        onError: (error) =>
          notifications.show({ color: "red", message: errorMessage(error, "予約の取り消しに失敗しました") }),
      },
    );
  };

  return (
    <Paper withBorder p="sm" component="section" aria-labelledby={headingId}>
      <Title order={3} size="h5" id={headingId} mb="xs">
        {title}
      </Title>
      {query.isLoading && (
        <Text c="dimmed" size="sm">
          読み込み中...
        </Text>
      )}
      {query.isError && (
        <Group gap="xs">
          <Text c="red" size="sm">
            予約の取得に失敗しました。
          </Text>
          <Button size="compact-xs" variant="light" onClick={() => void query.refetch()}>
            再試行
          </Button>
        </Group>
      )}
      {query.data && query.data.length === 0 && (
        <Text c="dimmed" size="sm">
          予約中のメッセージはありません。
        </Text>
      )}
      {query.data && query.data.length > 0 && (
        <Stack gap="xs" component="ul" style={{ listStyle: "none", padding: 0, margin: 0 }}>
          {query.data.map((entry) => (
            <Paper key={entry.id} withBorder p="xs" component="li" data-scheduled-id={entry.id}>
              <Group justify="space-between" align="flex-start" wrap="nowrap">
                <Stack gap={2} style={{ minWidth: 0 }}>
                  <Group gap={6}>
                    <Badge size="sm" variant="light">
                      {TYPE_LABEL[entry.type] ?? entry.type}
                    </Badge>
                    {entry.status === "failed" ? (
                      <Badge size="sm" color="red">
                        失敗
                      </Badge>
                    ) : (
                      <Badge size="sm" color="gray" variant="outline">
                        予約中
                      </Badge>
                    )}
                    <Text size="sm">{formatDateTime(entry.scheduledAt)}</Text>
                  </Group>
                  <Text size="sm">
                    送信者: {entry.senderUser ? (entry.senderUser.name ?? "不明") : "管理者"}
                    {" ／ "}宛先: {entry.recipients.map((r) => r.name ?? "不明").join("、") || "—"}
                  </Text>
                  <Text size="sm" lineClamp={2} style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
                    {entry.content}
                  </Text>
                  {entry.status === "failed" && (
                    <Text size="sm" c="red">
                      {entry.lastError ?? MSG.sendFailedAdmin}
                    </Text>
                  )}
                </Stack>
                <Button
                  size="compact-xs"
                  color="red"
                  variant="light"
                  onClick={() => void askCancel(entry)}
                  loading={cancel.isPending && cancel.variables?.id === entry.id}
                >
                  取消
                </Button>
              </Group>
            </Paper>
          ))}
        </Stack>
      )}
    </Paper>
  );
}
