import { ADMIN_MESSAGE_PAGE_SIZE_DEFAULT } from "@enmusubi/shared";
import { Avatar, Badge, Button, Group, Paper, Select, Stack, Table, Text, Title } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { formatDateTime } from "../../lib/format";
import { useTRPC } from "../../lib/trpc";
import { BatchSendModal } from "./BatchSendModal";
import { MessageDetailModal } from "./MessageDetailModal";
import { Pager } from "./Pager";
import { ReplyModal } from "./ReplyModal";
import { ScheduledPanel } from "./ScheduledPanel";
import { type AdminMessage, type AdminMessageParty, partyName, totalLabel, UNREAD_ROW } from "./types";

/** How many recent messages feed the counterpart filter's options. */
const COUNTERPART_SOURCE_LIMIT = 500;

interface BoxConfig {
  box: "sent" | "inbox";
  title: string;
  counterpartLabel: string;
  source: "admin:sent" | "admin:inbox";
  counterpart: (m: AdminMessage) => AdminMessageParty;
}

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

/** In the admin inbox a message counts read if it is read or replied (spec §4). */
const isRead = (m: AdminMessage) => m.isRead || m.hasReply;

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
      <Table.ScrollContainer minWidth={680}>
        <Table striped highlightOnHover verticalSpacing="xs" aria-label={`${config.title}の一覧`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{config.counterpartLabel}</Table.Th>
              <Table.Th>内容</Table.Th>
              <Table.Th>日時</Table.Th>
              <Table.Th>状態</Table.Th>
              <Table.Th>操作</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data?.messages.map((m) => {
              const who = config.counterpart(m);
              return (
                <Table.Tr
                  key={m.id}
                  data-message-id={m.id}
                  data-unread={isRead(m) ? undefined : true}
                  style={isRead(m) ? undefined : UNREAD_ROW}
                >
                  <Table.Td maw={220}>
                    <Group gap={6} wrap="nowrap">
                      <Avatar src={who.photoLink} alt={partyName(who)} radius="xl" size="sm" color="pink">
                        {partyName(who).slice(0, 1)}
                      </Avatar>
                      <Stack gap={0} style={{ minWidth: 0 }}>
                        <Text size="sm" truncate>
                          {partyName(who)}
                        </Text>
                        <Text size="xs" c="dimmed" ff="monospace" truncate>
                          {who.userID}
                        </Text>
                      </Stack>
                    </Group>
                  </Table.Td>
                  <Table.Td maw={360}>
                    <Text size="sm" lineClamp={2} style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
                      {m.body}
                    </Text>
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: "nowrap" }}>{formatDateTime(m.createdAt)}</Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <Badge size="sm" variant="light" color={isRead(m) ? "gray" : "pink"}>
                        {isRead(m) ? "既読" : "未読"}
                      </Badge>
                      {m.hasReply && (
                        <Badge size="sm" variant="light" color="teal">
                          返信済み
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <Button size="compact-xs" variant="default" onClick={() => setDetail(m)}>
                        詳細
                      </Button>
                      {config.box === "inbox" && m.from.role === "user" && !m.hasReply && (
                        <Button size="compact-xs" variant="light" onClick={() => setReplyTo(m)}>
                          返信
                        </Button>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              );
            })}
            {data && data.messages.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={5}>
                  <Text c="dimmed" ta="center" py="md">
                    メッセージはありません。
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
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
