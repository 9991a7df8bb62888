import { bulkSendQuestion, bulkSendStopped, bulkSent, MSG } from "@enmusubi/shared";
import { Button, Checkbox, Group, Modal, Progress, ScrollArea, Stack, Text, TextInput } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { NO_SCHEDULE, type Schedule } from "../../features/messages";
import { confirmAction } from "../../lib/confirm";
import { displayName } from "../../lib/display-name";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { ComposeFields } from "./ComposeFields";
import { type ScheduledSource, scheduledTime, useCreateScheduled } from "./scheduledApi";

const RECIPIENT_PAGE = 200;
/**
 * A send to more recipients than this goes out in parts of this many, one server call each, so
 * the screen can say how far it is (n / N). Each part is sent whole or not at all; a failed part
 * stops the rest (docs/decisions/0036).
 */
export const BATCH_CHUNK = 20;

/**
 * Batch send (spec §2 admin 6, 7): member checkboxes with select-all and clear-all, the body with
 * emojis, optional schedule. Needs a body and at least one recipient (spec §5). It asks before it
 * sends, naming the number of recipients, and shows its progress on long runs (decision 0036).
 */
export function BatchSendModal({
  opened,
  onClose,
  source,
}: {
  opened: boolean;
  onClose: () => void;
  source: ScheduledSource;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [filter, setFilter] = useState("");
  const [body, setBody] = useState("");
  const [schedule, setSchedule] = useState<Schedule>(NO_SCHEDULE);
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  useEffect(() => {
    if (opened) {
      setSelected(new Set());
      setBody("");
      setFilter("");
      setSchedule(NO_SCHEDULE);
      setError(null);
      setProgress(null);
    }
  }, [opened]);

  const users = useQuery({
    ...trpc.adminUsers.list.queryOptions({ field: "userID", search: "", page: 1, pageSize: RECIPIENT_PAGE }),
    enabled: opened,
    placeholderData: keepPreviousData,
  });
  const members = (users.data?.users ?? []).filter((u) => u.role !== "admin");
  const needle = filter.trim().toLowerCase();
  const shown = needle
    ? members.filter((u) => u.userID.toLowerCase().includes(needle) || (u.name ?? "").toLowerCase().includes(needle))
    : members;

  const send = useMutation(trpc.adminMessages.send.mutationOptions());
  const create = useCreateScheduled();

  const sendAll = async (recipientIds: string[]) => {
    const total = recipientIds.length;
    let done = 0;
    setProgress({ done, total });
    try {
      for (let i = 0; i < total; i += BATCH_CHUNK) {
        const part = recipientIds.slice(i, i + BATCH_CHUNK);
        await send.mutateAsync({ recipientIds: part, body });
        done += part.length;
        setProgress({ done, total });
      }
      notifications.show({ color: "green", message: bulkSent(total) });
      onClose();
    } catch (e) {
      const reason = errorMessage(e, MSG.bulkSendFailed);
      notifications.show({
        color: "red",
        message: done > 0 ? `${bulkSendStopped(done, total - done)} ${reason}` : reason,
      });
    } finally {
      setProgress(null);
      void queryClient.invalidateQueries({ queryKey: trpc.adminMessages.pathKey() });
    }
  };

  const submit = async () => {
    if (selected.size === 0) return setError(MSG.recipientsRequired);
    if (!body.trim()) return setError(MSG.messageRequired);
    setError(null);
    const recipientIds = [...selected];
    const at = scheduledTime(schedule.enabled, schedule.at);
    const ok = await confirmAction({
      title: "一括送信の確認",
      message: bulkSendQuestion(recipientIds.length, Boolean(at)),
      confirmLabel: at ? "予約する" : "送信する",
      danger: false,
    });
    if (!ok) return;
    if (at) {
      create.mutate(
        { type: "batch", recipientIds, content: body, scheduledAt: at, source },
        {
          onSuccess: () => {
            notifications.show({ color: "green", message: MSG.messageScheduled });
            onClose();
          },
          onError: (e) => notifications.show({ color: "red", message: errorMessage(e, MSG.bulkSendFailed) }),
        },
      );
      return;
    }
    await sendAll(recipientIds);
  };

  return (
    <Modal opened={opened} onClose={onClose} title="一括送信" centered size="lg">
      <Stack gap="sm">
        <Checkbox.Group
          label={`送信先（${selected.size}人選択中）`}
          value={[...selected]}
          onChange={(values) => setSelected(new Set(values))}
        >
          <Group gap="xs" my={6} wrap="wrap">
            <TextInput
              aria-label="送信先を絞り込む"
              placeholder="名前・ユーザーIDで絞り込み"
              value={filter}
              onChange={(e) => setFilter(e.currentTarget.value)}
              size="xs"
              style={{ flex: 1, minWidth: 160 }}
            />
            <Button
              size="compact-sm"
              variant="light"
              onClick={() => setSelected((prev) => new Set([...prev, ...shown.map((u) => u.id)]))}
            >
              全て選択
            </Button>
            <Button size="compact-sm" variant="default" onClick={() => setSelected(new Set())}>
              全て解除
            </Button>
          </Group>
          <ScrollArea.Autosize mah={220} type="auto" tabIndex={0} aria-label="送信先の一覧">
            {users.isLoading && (
              <Text c="dimmed" size="sm">
                読み込み中...
              </Text>
            )}
            {users.isError && (
              <Group gap="xs">
                <Text c="red" size="sm">
                  ユーザー一覧の取得に失敗しました。
                </Text>
                <Button size="compact-xs" variant="light" onClick={() => void users.refetch()}>
                  再試行
                </Button>
              </Group>
            )}
            {users.data && shown.length === 0 && (
              <Text c="dimmed" size="sm">
                該当するユーザーはいません。
              </Text>
            )}
            <Stack gap={6} p={4}>
              {shown.map((u) => (
                <Checkbox key={u.id} value={u.id} label={`${displayName(u)}（${u.userID}）`} />
              ))}
            </Stack>
          </ScrollArea.Autosize>
        </Checkbox.Group>
        <ComposeFields body={body} onBody={setBody} schedule={schedule} onSchedule={setSchedule} />
        {error && (
          <Text c="red" size="sm" role="alert">
            {error}
          </Text>
        )}
        {progress && progress.total > BATCH_CHUNK && (
          <Stack gap={4} data-testid="batch-progress">
            <Text size="sm" aria-live="polite">
              送信中: {progress.done.toLocaleString("ja-JP")} / {progress.total.toLocaleString("ja-JP")}人
            </Text>
            <Progress
              value={(progress.done / progress.total) * 100}
              aria-label={`送信の進み具合（${progress.done} / ${progress.total}人）`}
            />
          </Stack>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={progress !== null}>
            キャンセル
          </Button>
          <Button onClick={() => void submit()} loading={progress !== null || create.isPending}>
            {scheduledTime(schedule.enabled, schedule.at) ? "予約" : "送信"}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
