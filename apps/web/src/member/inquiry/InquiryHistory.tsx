import { MSG } from "@enmusubi/shared";
import { Badge, Button, Card, Collapse, Group, Paper, Stack, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router-dom";
import type { RouterOutputs } from "../../lib/api-types";
import { confirmAction } from "../../lib/confirm";
import { formatDateTime } from "../../lib/format";
import { useTRPC } from "../../lib/trpc";
import { ListStates } from "../../ui/ListStates";
import { LongText } from "../../ui/LongText";
import { notifyFailure } from "../../ui/notify-failure";
import { PagePagination } from "../../ui/PagePagination";

type Inquiry = RouterOutputs["inquiries"]["list"]["inquiries"][number];

const PAGE_SIZE = 10;

/**
 * お問い合わせ履歴 (spec §2): the member's own inquiries, newest first, with the read marker, the
 * desk's replies (a 新しい返信 marker until they are opened) and deletion after confirmation.
 */
export function InquiryHistory() {
  const trpc = useTRPC();
  const [page, setPage] = useState(1);
  const list = useQuery({
    ...trpc.inquiries.list.queryOptions({ page, limit: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const data = list.data;

  return (
    <Stack gap="md">
      <Group justify="space-between" gap="sm">
        <Title order={2}>お問い合わせ履歴</Title>
        <Button component={Link} to="/user/inquiry" variant="light">
          新しいお問い合わせ
        </Button>
      </Group>
      {data && (
        <Text size="sm" data-testid="inquiry-history-summary">
          {data.total}件
          {data.unreadReplies > 0 && (
            <Text span c="pink" fw={700} ml="sm">
              未読の返信 {data.unreadReplies}件
            </Text>
          )}
        </Text>
      )}
      <ListStates
        isLoading={list.isLoading}
        isError={list.isError}
        error={list.error}
        errorText={MSG.inquiryFetchFailed}
        onRetry={() => void list.refetch()}
        isEmpty={(data?.inquiries.length ?? 0) === 0}
        emptyText="お問い合わせはまだありません"
      >
        <Stack
          gap="sm"
          component="ul"
          style={{ listStyle: "none", padding: 0, margin: 0 }}
          aria-label="お問い合わせ一覧"
        >
          {data?.inquiries.map((inquiry) => (
            <li key={inquiry.id}>
              <InquiryCard inquiry={inquiry} />
            </li>
          ))}
        </Stack>
      </ListStates>
      {data && (
        <PagePagination value={page} onChange={setPage} total={data.totalPages} names="ページ目" centered={false} />
      )}
    </Stack>
  );
}

function InquiryCard({ inquiry }: { inquiry: Inquiry }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.inquiries.list.pathKey() });
  const seen = useMutation(trpc.inquiries.markRepliesSeen.mutationOptions({ onSuccess: () => void refresh() }));
  const remove = useMutation(
    trpc.inquiries.delete.mutationOptions({
      onSuccess: () => {
        notifications.show({ color: "green", message: MSG.inquiryDeleted });
        void refresh();
      },
      onError: (e) => notifyFailure(e, MSG.inquiryDeleteFailed),
    }),
  );

  const toggleReplies = () => {
    const next = !open;
    setOpen(next);
    if (next && inquiry.replyUnread) seen.mutate({ id: inquiry.id });
  };
  const confirmDelete = async () => {
    const ok = await confirmAction({
      title: "お問い合わせの削除",
      message: `「${inquiry.title}」を削除しますか？`,
      irreversible: true,
    });
    if (ok) remove.mutate({ id: inquiry.id });
  };
  const repliesId = `inquiry-replies-${inquiry.id}`;

  return (
    <Card withBorder padding="md" data-testid="inquiry-card">
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" gap="xs">
          <Title order={3} size="h5" style={{ overflowWrap: "anywhere" }}>
            {inquiry.title}
          </Title>
          <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
            {inquiry.replyUnread && (
              <Badge color="pink" variant="filled" data-testid="reply-unread">
                新しい返信
              </Badge>
            )}
            <Badge color={inquiry.isRead ? "gray" : "orange"} variant="light" data-testid="inquiry-read">
              {inquiry.isRead ? "既読" : "未読"}
            </Badge>
          </Group>
        </Group>
        <Text size="xs" c="dimmed">
          送信日時: {formatDateTime(inquiry.createdAt)}
        </Text>
        <LongText text={inquiry.message} />
        <Group justify="space-between" gap="xs">
          {inquiry.replies.length > 0 ? (
            <Button
              variant="subtle"
              size="compact-sm"
              onClick={toggleReplies}
              aria-expanded={open}
              aria-controls={repliesId}
            >
              {open ? "返信を閉じる" : `運営からの返信を見る（${inquiry.replies.length}件）`}
            </Button>
          ) : (
            <Text size="sm" c="dimmed">
              返信はまだありません
            </Text>
          )}
          <Button
            variant="light"
            color="red"
            size="compact-sm"
            onClick={() => void confirmDelete()}
            loading={remove.isPending}
            aria-label={`「${inquiry.title}」を削除`}
          >
            削除
          </Button>
        </Group>
        <Collapse expanded={open} id={repliesId}>
          <Stack gap="xs" mt="xs">
            {inquiry.replies.map((reply) => (
              <Paper key={reply.id} withBorder p="sm" bg="pink.0" data-testid="inquiry-reply">
                <Text size="xs" c="dimmed" mb={4}>
                  {reply.admin.name ?? "運営"}（運営事務局） ・ {formatDateTime(reply.createdAt)}
                </Text>
                <LongText text={reply.reply} />
              </Paper>
            ))}
          </Stack>
        </Collapse>
      </Stack>
    </Card>
  );
}
