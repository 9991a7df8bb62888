import { ADMIN_MESSAGE_PAGE_SIZE_DEFAULT } from "@enmusubi/shared";
import { Button, Group, Paper, Select, Stack, Text, Title } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { useTRPC } from "../../lib/trpc";
import { BatchSendModal } from "./BatchSendModal";
import { type BoxConfig, BoxTable, isRead } from "./BoxTable";
import { MessageDetailModal } from "./MessageDetailModal";
import { Pager } from "./Pager";
import { ReplyModal } from "./ReplyModal";
import { ScheduledPanel } from "./ScheduledPanel";
import { type AdminMessage, partyName, totalLabel } from "./types";

/** How many recent messages feed the counterpart filter's options. */
const COUNTERPART_SOURCE_LIMIT = 500;

const BOXES: Record<"sent" | "inbox", BoxConfig> = {
  sent: {
    box: "sent",
    title: "送信済みメッセージ",
    counterpartLabel: "受信者",
    source: "admin:sent",
    counterpart: (m) => m.to,
  },
  inbox: {
    box: "inbox",
    title: "受信メッセージ",
    counterpartLabel: "送信者",
    source: "admin:inbox",
    counterpart: (m) => m.from,
  },
};

/**
 * Sent messages (spec §2 admin 6) and inbox messages (admin 7): a recipient / sender filter, the
 * list, detail, batch send, the screen's scheduled entries; the inbox also replies.
 */
function MessageBoxPage({ config }: { config: BoxConfig }) {
  const trpc = useTRPC();
  const [counterpartId, setCounterpartId] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const [detail, setDetail] = useState<AdminMessage | null>(null);
  const [replyTo, setReplyTo] = useState<AdminMessage | null>(null);
  const [batch, setBatch] = useState(false);

  const list = useQuery({
    ...trpc.adminMessages.list.queryOptions({
      box: config.box,
      page,
      limit: ADMIN_MESSAGE_PAGE_SIZE_DEFAULT,
      ...(counterpartId ? { counterpartId } : {}),
    }),
    placeholderData: keepPreviousData,
  });
  const recent = useQuery(
    trpc.adminMessages.list.queryOptions({ box: config.box, page: 1, limit: COUNTERPART_SOURCE_LIMIT }),
  );
  const options = useMemo(() => {
    const seen = new Map<string, string>();
    for (const m of recent.data?.messages ?? []) {
      const p = config.counterpart(m);
      if (!seen.has(p.id)) seen.set(p.id, `${partyName(p)}（${p.userID}）`);
    }
    return [...seen].map(([value, label]) => ({ value, label }));
  }, [recent.data, config]);

  const data = list.data;
  const unread = config.box === "inbox" ? data?.messages.filter((m) => !isRead(m)).length : undefined;
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2}>{config.title}</Title>
          <Text c="dimmed" size="sm" data-testid="message-total">
            {data ? totalLabel(data) : "—"}
            {unread !== undefined && data && ` ・ このページの未読 ${unread}件`}
          </Text>
        </div>
        <Button onClick={() => setBatch(true)}>一括送信</Button>
      </Group>

      <Paper withBorder p="sm">
        <Select
          label={`${config.counterpartLabel}で絞り込み`}
          placeholder="すべて"
          data={options}
          value={counterpartId}
          onChange={(v) => {
            setCounterpartId(v);
            setPage(1);
          }}
          searchable
          clearable
          nothingFoundMessage="該当なし"
          maw={360}
        />
      </Paper>

      {list.isError && (
        <Group gap="xs" role="alert">
          <Text c="red">メッセージの取得に失敗しました。</Text>
          <Button size="compact-sm" variant="light" onClick={() => void list.refetch()}>
            再試行
          </Button>
        </Group>
      )}
      <BoxTable config={config} messages={data?.messages} onDetail={setDetail} onReply={setReplyTo} />
      {list.isLoading && <Text c="dimmed">読み込み中...</Text>}
      {data && <Pager page={page} totalPages={data.totalPages} onChange={setPage} label={`${config.title}のページ`} />}

      <ScheduledPanel source={config.source} />

      <MessageDetailModal message={detail} onClose={() => setDetail(null)} />
      <ReplyModal message={replyTo} onClose={() => setReplyTo(null)} />
      <BatchSendModal opened={batch} onClose={() => setBatch(false)} source={config.source} />
    </Stack>
  );
}

export function SentMessages() {
  return <MessageBoxPage config={BOXES.sent} />;
}

export function InboxMessages() {
  return <MessageBoxPage config={BOXES.inbox} />;
}
