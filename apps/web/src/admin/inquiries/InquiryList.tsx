import { INQUIRY_REPLY_MAX, MSG } from "@enmusubi/shared";
import {
  Badge,
  Button,
  Card,
  Group,
  Modal,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  Title,
} from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { RouterOutputs } from "../../lib/api-types";
import { countLabel } from "../../lib/count-label";
import { displayName } from "../../lib/display-name";
import { formatDateTime } from "../../lib/format";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { ListStates } from "../../ui/ListStates";
import { LongText } from "../../ui/LongText";
import { PagePagination } from "../../ui/PagePagination";

type Inquiry = RouterOutputs["adminInquiries"]["list"]["inquiries"][number];

const PAGE_SIZE = 20;
const TEXT_STYLE = { whiteSpace: "pre-wrap", overflowWrap: "anywhere" } as const;

/**
 * お問い合わせ一覧 (spec §2 admin 2): total and unread counts, cards (title, poster, date, read
 * badge, expandable message, reply history), mark-as-read and the reply modal. Paged on the server.
 * A failed fetch shows an error with retry, never sample inquiries.
 */
export function InquiryList() {
  const trpc = useTRPC();
  const [page, setPage] = useState(1);
  const [filter, setFilter] = useState<"all" | "unread">("all");
  const [replying, setReplying] = useState<Inquiry | null>(null);
  const list = useQuery({
    ...trpc.adminInquiries.list.queryOptions({ page, limit: PAGE_SIZE, unreadOnly: filter === "unread" }),
    placeholderData: keepPreviousData,
  });
  const data = list.data;

  return (
    <Stack gap="md">
      <Title order={2}>お問い合わせ一覧</Title>
      <SimpleGrid cols={{ base: 2, sm: 4 }}>
        <Card withBorder padding="sm">
          <Text size="sm" c="dimmed">
            総数
          </Text>
          <Text size="xl" fw={700} data-testid="inquiry-total">
            {data ? countLabel(data.totalAll, data.totalAllCapped) : "—"}
          </Text>
        </Card>
        <Card withBorder padding="sm">
          <Text size="sm" c="dimmed">
            未読
          </Text>
          <Text size="xl" fw={700} c="orange" data-testid="inquiry-unread">
            {data ? countLabel(data.unread, data.unreadCapped) : "—"}
          </Text>
        </Card>
      </SimpleGrid>
      <SegmentedControl
        aria-label="表示するお問い合わせ"
        value={filter}
        onChange={(v) => {
          setFilter(v as "all" | "unread");
          setPage(1);
        }}
        data={[
          { value: "all", label: "すべて" },
          { value: "unread", label: "未読のみ" },
        ]}
        style={{ alignSelf: "flex-start" }}
      />
      <ListStates
        isLoading={list.isLoading}
        isError={list.isError}
        errorText={MSG.inquiryFetchFailed}
        onRetry={() => void list.refetch()}
        isEmpty={(data?.inquiries.length ?? 0) === 0}
        emptyText={filter === "unread" ? "未読のお問い合わせはありません" : "お問い合わせはありません"}
      >
        <Stack gap="sm" component="ul" style={{ listStyle: "none", padding: 0, margin: 0 }} aria-label="お問い合わせ">
          {data?.inquiries.map((inquiry) => (
            <li key={inquiry.id}>
              <AdminInquiryCard inquiry={inquiry} onReply={() => setReplying(inquiry)} />
            </li>
          ))}
        </Stack>
      </ListStates>
      {data && (
        <PagePagination value={page} onChange={setPage} total={data.totalPages} names="ページ目" centered={false} />
      )}
      <ReplyInquiryModal inquiry={replying} onClose={() => setReplying(null)} />
    </Stack>
  );
}

function AdminInquiryCard({ inquiry, onReply }: { inquiry: Inquiry; onReply: () => void }) {
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

function ReplyInquiryModal({ inquiry, onClose }: { inquiry: Inquiry | null; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [reply, setReply] = useState("");
  useEffect(() => {
    if (inquiry) setReply("");
  }, [inquiry]);
  const send = useMutation(
    trpc.adminInquiries.reply.mutationOptions({
      onSuccess: () => {
        notifications.show({ color: "green", message: MSG.inquiryReplied });
        void queryClient.invalidateQueries({ queryKey: trpc.adminInquiries.list.pathKey() });
        onClose();
      },
      onError: (e) => notifications.show({ color: "red", message: errorMessage(e, MSG.inquiryReplyFailed) }),
    }),
  );
  const length = reply.trim().length;
  const tooLong = length > INQUIRY_REPLY_MAX;

  return (
    <Modal opened={inquiry !== null} onClose={onClose} title="お問い合わせへの返信" centered size="lg">
      {inquiry && (
        <Stack gap="sm">
          <Paper withBorder p="xs">
            <Text size="sm" fw={600} style={{ overflowWrap: "anywhere" }}>
              {inquiry.title}
            </Text>
            <Text size="xs" c="dimmed">
              {displayName(inquiry.author)}（{inquiry.author.userID}） ・ {formatDateTime(inquiry.createdAt)}
            </Text>
            <Text size="sm" lineClamp={4} style={TEXT_STYLE}>
              {inquiry.message}
            </Text>
          </Paper>
          <Textarea
            label="返信内容"
            rows={6}
            value={reply}
            onChange={(e) => setReply(e.currentTarget.value)}
            description={`${length} / ${INQUIRY_REPLY_MAX}文字 ・ 送信すると会員にメールでお知らせします`}
            error={tooLong ? MSG.inquiryReplyTooLong : undefined}
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              キャンセル
            </Button>
            <Button
              onClick={() => send.mutate({ id: inquiry.id, reply })}
              disabled={length === 0 || tooLong}
              loading={send.isPending}
            >
              返信を送信
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
