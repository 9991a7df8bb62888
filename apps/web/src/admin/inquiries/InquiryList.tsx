import { MSG } from "@enmusubi/shared";
import { Card, SegmentedControl, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { countLabel } from "../../lib/count-label";
import { useTRPC } from "../../lib/trpc";
import { ListStates } from "../../ui/ListStates";
import { PagePagination } from "../../ui/PagePagination";
import { AdminInquiryCard, type Inquiry } from "./AdminInquiryCard";
import { ReplyInquiryModal } from "./ReplyInquiryModal";

const PAGE_SIZE = 20;
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
