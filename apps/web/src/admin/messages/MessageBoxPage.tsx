import { ADMIN_MESSAGE_PAGE_SIZE_DEFAULT, PARTNER_SEARCH_MAX } from "@enmusubi/shared";
import { Button, Group, Paper, Stack, Text, TextInput, Title } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { refusalOr, useTRPC } from "../../lib/trpc";
import { BatchSendModal } from "./BatchSendModal";
import { type BoxConfig, BoxTable, isRead } from "./BoxTable";
import { MessageDetailModal } from "./MessageDetailModal";
import { Pager } from "./Pager";
import { ReplyModal } from "./ReplyModal";
import { ScheduledPanel } from "./ScheduledPanel";
import { type AdminMessage, totalLabel } from "./types";

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
  const [draft, setDraft] = useState("");
  const [partner, setPartner] = useState("");
  const [page, setPage] = useState(1);
  const [detail, setDetail] = useState<AdminMessage | null>(null);
  const [replyTo, setReplyTo] = useState<AdminMessage | null>(null);
  const [batch, setBatch] = useState(false);

  // The filter is a name (or userID) searched on the server over the whole box (decision 0029), not a
  // choice among the people of the newest messages; a new search starts at page 1.
  const list = useQuery({
    ...trpc.adminMessages.list.queryOptions({
      box: config.box,
      page,
      limit: ADMIN_MESSAGE_PAGE_SIZE_DEFAULT,
      ...(partner ? { partner } : {}),
    }),
    placeholderData: keepPreviousData,
  });
  const search = (value: string) => {
    setDraft(value);
    setPartner(value.trim());
    setPage(1);
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    search(draft);
  };

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

      <Paper withBorder p="sm" component="form" onSubmit={onSubmit}>
        <Group align="flex-end" gap="sm">
          <TextInput
            label={`${config.counterpartLabel}で絞り込み`}
            description="名前またはユーザーIDの一部"
            placeholder="すべて"
            value={draft}
            onChange={(event) => setDraft(event.currentTarget.value)}
            maxLength={PARTNER_SEARCH_MAX}
            w={{ base: "100%", xs: 300 }}
          />
          <Button type="submit" variant="light">
            検索
          </Button>
          {partner && (
            <Button variant="default" onClick={() => search("")}>
              クリア
            </Button>
          )}
        </Group>
      </Paper>

      {list.isError && (
        <Group gap="xs" role="alert">
          <Text c="red">{refusalOr(list.error, "メッセージの取得に失敗しました。")}</Text>
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
