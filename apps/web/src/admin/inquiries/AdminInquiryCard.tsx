import { MSG } from "@enmusubi/shared";
import { Badge, Button, Card, Group, Paper, Stack, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { RouterOutputs } from "../../lib/api-types";
import { displayName } from "../../lib/display-name";
import { formatDateTime } from "../../lib/format";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { LongText } from "../../ui/LongText";

export type Inquiry = RouterOutputs["adminInquiries"]["list"]["inquiries"][number];

/** One inquiry: title, read badge, poster and date, the message, the reply history, 既読にする and 返信. */
export function AdminInquiryCard({ inquiry, onReply }: { inquiry: Inquiry; onReply: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const markRead = useMutation(
    trpc.adminInquiries.markRead.mutationOptions({
      onSuccess: () => {
        notifications.show({ color: "green", message: MSG.inquiryMarkedRead });
        void queryClient.invalidateQueries({ queryKey: trpc.adminInquiries.list.pathKey() });
      },
      onError: (e) => notifications.show({ color: "red", message: errorMessage(e, MSG.inquiryMarkReadFailed) }),
    }),
  );
  const poster = displayName(inquiry.author);

  return (
    <Card withBorder padding="md" data-testid="admin-inquiry-card" bg={inquiry.isRead ? undefined : "orange.0"}>
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" gap="xs">
          <Title order={3} size="h5" style={{ overflowWrap: "anywhere" }}>
            {inquiry.title}
          </Title>
          <Badge
            color={inquiry.isRead ? "gray" : "orange"}
            variant={inquiry.isRead ? "light" : "filled"}
            style={{ flexShrink: 0 }}
          >
            {inquiry.isRead ? "既読" : "未読"}
          </Badge>
        </Group>
        <Text size="xs" c="dimmed">
          投稿者: {poster}（{inquiry.author.userID}） ・ {formatDateTime(inquiry.createdAt)}
        </Text>
        <LongText text={inquiry.message} />
        {inquiry.replies.length > 0 && (
          <Stack gap={4} component="section" aria-label={`「${inquiry.title}」への返信履歴`}>
            <Text size="sm" fw={600}>
              返信履歴（{inquiry.replies.length}件）
            </Text>
            {inquiry.replies.map((reply) => (
              <Paper key={reply.id} withBorder p="xs" bg="gray.0">
                <Text size="xs" c="dimmed" mb={2}>
                  {reply.admin.name ?? "管理者"}（{reply.admin.userID}） ・ {formatDateTime(reply.createdAt)}
                </Text>
                <LongText text={reply.reply} />
              </Paper>
            ))}
          </Stack>
        )}
        <Group gap="xs" justify="flex-end">
          {!inquiry.isRead && (
            <Button
              variant="light"
              size="compact-sm"
              onClick={() => markRead.mutate({ id: inquiry.id })}
              loading={markRead.isPending}
              aria-label={`「${inquiry.title}」を既読にする`}
            >
              既読にする
            </Button>
          )}
          <Button size="compact-sm" onClick={onReply} aria-label={`「${inquiry.title}」に返信`}>
            返信
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
