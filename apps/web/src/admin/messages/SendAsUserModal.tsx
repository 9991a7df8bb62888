import { MESSAGE_HISTORY_COUNT, MSG } from "@enmusubi/shared";
import { Button, Group, Modal, Paper, Stack, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { NO_SCHEDULE, type Schedule } from "../../features/messages";
import { formatDateTime } from "../../lib/format";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { ComposeFields } from "./ComposeFields";
import { scheduledTime, useCreateScheduled } from "./scheduledApi";
import { type AdminMessageParty, partyName } from "./types";

export interface SendAsUserPair {
  from: AdminMessageParty;
  to: AdminMessageParty;
}

/**
 * An administrator writes as a member (spec §2 admin 8 "send-as-user popup"): the last 5 messages
 * between the pair, the body with 60 emojis, optional schedule (button then reads 予約).
 */
export function SendAsUserModal({ pair, onClose }: { pair: SendAsUserPair | null; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [body, setBody] = useState("");
  const [schedule, setSchedule] = useState<Schedule>(NO_SCHEDULE);
  useEffect(() => {
    if (pair) {
      setBody("");
      setSchedule(NO_SCHEDULE);
    }
  }, [pair]);

  const history = useQuery({
    ...trpc.adminMessages.conversation.queryOptions({
      userA: pair?.from.id ?? "",
      userB: pair?.to.id ?? "",
      limit: MESSAGE_HISTORY_COUNT,
    }),
    enabled: pair !== null,
  });
  const send = useMutation(trpc.adminMessages.sendAsUser.mutationOptions());
  const create = useCreateScheduled();
  const at = scheduledTime(schedule.enabled, schedule.at);

  const submit = () => {
    if (!pair || !body.trim()) return;
    const failed = (e: unknown) =>
      notifications.show({ color: "red", message: errorMessage(e, MSG.messageSendFailed) });
    if (at) {
      create.mutate(
        {
          type: "direct",
          recipientIds: [pair.to.id],
          content: body,
          scheduledAt: at,
          source: "admin:email-mgmt",
          senderUserId: pair.from.id,
        },
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
      { fromUserId: pair.from.id, toUserId: pair.to.id, body },
      {
        onSuccess: () => {
          notifications.show({ color: "green", message: MSG.messageSent });
          void queryClient.invalidateQueries({ queryKey: trpc.adminMessages.pathKey() });
          onClose();
        },
        onError: failed,
      },
    );
  };

  return (
    <Modal opened={pair !== null} onClose={onClose} title="ユーザーとして送信" centered size="lg">
      {pair && (
        <Stack gap="sm">
          <Text size="sm">
            送信者: {partyName(pair.from)}（{pair.from.userID}） → 受信者: {partyName(pair.to)}（{pair.to.userID}）
          </Text>
          <section aria-labelledby="send-as-user-history">
            <Title order={3} size="h6" id="send-as-user-history" mb={4}>
              直近{MESSAGE_HISTORY_COUNT}件のやりとり
            </Title>
            {history.isLoading && (
              <Text c="dimmed" size="sm">
                読み込み中...
              </Text>
            )}
            {history.isError && (
              <Group gap="xs">
                <Text c="red" size="sm">
                  履歴の取得に失敗しました。
                </Text>
                <Button size="compact-xs" variant="light" onClick={() => void history.refetch()}>
                  再試行
                </Button>
              </Group>
            )}
            {history.data?.length === 0 && (
              <Text c="dimmed" size="sm">
                まだやりとりはありません。
              </Text>
            )}
            <Stack gap={4} component="ol" style={{ listStyle: "none", padding: 0, margin: 0 }}>
              {history.data?.map((m) => (
                <Paper
                  key={m.id}
                  component="li"
                  withBorder
                  p={6}
                  bg={m.from.id === pair.from.id ? "var(--mantine-color-pink-0)" : undefined}
                  data-testid="history-item"
                >
                  <Text size="xs" c="dimmed">
                    {partyName(m.from)} ・ {formatDateTime(m.createdAt)}
                  </Text>
                  <Text size="sm" style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
                    {m.body}
                  </Text>
                </Paper>
              ))}
            </Stack>
          </section>
          <ComposeFields body={body} onBody={setBody} schedule={schedule} onSchedule={setSchedule} autoFocus />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              キャンセル
            </Button>
            <Button onClick={submit} disabled={!body.trim()} loading={send.isPending || create.isPending}>
              {at ? "予約" : "送信"}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
