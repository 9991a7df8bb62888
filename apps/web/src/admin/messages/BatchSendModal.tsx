import { bulkSent, MSG } from "@enmusubi/shared";
import { Button, Checkbox, Group, Modal, ScrollArea, Stack, Text, TextInput } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { NO_SCHEDULE, type Schedule } from "../../features/messages";
import { displayName } from "../../lib/display-name";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { ComposeFields } from "./ComposeFields";
import { type ScheduledSource, scheduledTime, useCreateScheduled } from "./scheduledApi";

const RECIPIENT_PAGE = 200;

/**
 * Batch send (spec §2 admin 6, 7): member checkboxes with select-all and clear-all, the body with
 * emojis, optional schedule. Needs a body and at least one recipient (spec §5).
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
  useEffect(() => {
    if (opened) {
      setSelected(new Set());
      setBody("");
      setFilter("");
      setSchedule(NO_SCHEDULE);
      setError(null);
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

  const submit = () => {
    if (selected.size === 0) return setError(MSG.recipientsRequired);
    if (!body.trim()) return setError(MSG.messageRequired);
    setError(null);
    const recipientIds = [...selected];
    const at = scheduledTime(schedule.enabled, schedule.at);
    const failed = (e: unknown) => notifications.show({ color: "red", message: errorMessage(e, MSG.bulkSendFailed) });
    if (at) {
      create.mutate(
        { type: "batch", recipientIds, content: body, scheduledAt: at, source },
        {
          onSuccess: () => {
            notifications.show({ color: "green", message: MSG.messageScheduled });
            onClose();
          },
          onError: failed,
        },
      );
      return;
    }
    send.mutate(
      { recipientIds, body },
      {
        onSuccess: (result) => {
          notifications.show({ color: "green", message: bulkSent(result.sent) });
          void queryClient.invalidateQueries({ queryKey: trpc.adminMessages.pathKey() });
          onClose();
        },
        onError: failed,
      },
    );
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
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            キャンセル
          </Button>
          <Button onClick={submit} loading={send.isPending || create.isPending}>
            {scheduledTime(schedule.enabled, schedule.at) ? "予約" : "送信"}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
