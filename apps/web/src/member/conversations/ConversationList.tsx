import { CONVERSATION_PAGE_SIZE, MSG, PARTNER_SEARCH_MAX } from "@enmusubi/shared";
import { Avatar, Badge, Button, Group, Stack, Text, TextInput, Title } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router-dom";
import { partyName } from "../../features/messages";
import type { RouterOutputs } from "../../lib/api-types";
import { formatDateTime } from "../../lib/format";
import { useTRPC } from "../../lib/trpc";
import { ListStates } from "../../ui/ListStates";
import { PagePagination } from "../../ui/PagePagination";
import classes from "./conversations.module.css";

type Line = RouterOutputs["messages"]["conversations"]["conversations"][number];

/** What a line says of the newest message: the member's own with 「あなた:」, a sealed one by its preview. */
function previewOf(line: Line): string {
  const m = line.lastMessage;
  const text = m.locked ? m.body : m.sealed ? (m.preview ?? "") : m.body;
  const oneLine = text.replace(/\s+/g, " ").trim();
  return m.from.id === line.partner.id ? oneLine : `あなた: ${oneLine}`;
}

function ConversationLine({ line }: { line: Line }) {
  const name = partyName(line.partner);
  const unread = line.unreadCount > 0;
  return (
    <Link
      to={`/user/messages/${line.partner.id}`}
      className={`${classes.line} ${unread ? classes.unreadLine : ""}`}
      data-testid="conversation-line"
    >
      <Avatar src={line.partner.photoLink} alt="" radius="xl" size={48} color="pink">
        {name.slice(0, 1)}
      </Avatar>
      <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
            <Text fw={700} truncate component="span">
              {name}
            </Text>
            {line.partner.role === "admin" && (
              <Badge size="xs" color="grape" variant="light">
                運営
              </Badge>
            )}
          </Group>
          <Text size="xs" c="dimmed" component="time" dateTime={new Date(line.lastMessage.createdAt).toISOString()}>
            {formatDateTime(line.lastMessage.createdAt)}
          </Text>
        </Group>
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Text size="sm" c="dimmed" truncate component="span" data-testid="conversation-preview">
            {previewOf(line)}
          </Text>
          {unread && (
            <Badge color="pink" variant="filled" data-testid="conversation-unread" style={{ flexShrink: 0 }}>
              未読 {line.unreadCount}
            </Badge>
          )}
        </Group>
      </Stack>
    </Link>
  );
}

/**
 * メッセージ: one line per partner, newest activity first, paged on the server: photo,
 * name, the newest message's line, the unread count and the time; a line opens the conversation.
 * The name search is the server's.
 */
export function ConversationList() {
  const trpc = useTRPC();
  const [page, setPage] = useState(1);
  const [draft, setDraft] = useState("");
  const [q, setQ] = useState("");
  const list = useQuery({
    ...trpc.messages.conversations.queryOptions({ page, limit: CONVERSATION_PAGE_SIZE, ...(q ? { q } : {}) }),
    placeholderData: keepPreviousData,
  });
  const data = list.data;
  return (
    <Stack gap="md">
      <Title order={2}>メッセージ</Title>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setQ(draft.trim());
          setPage(1);
        }}
      >
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <TextInput
            label="ニックネームで探す"
            value={draft}
            maxLength={PARTNER_SEARCH_MAX}
            onChange={(event) => setDraft(event.currentTarget.value)}
            style={{ flex: 1, maxWidth: 320 }}
          />
          <Button type="submit" variant="light">
            検索
          </Button>
        </Group>
      </form>
      <Text size="sm" c="dimmed" aria-live="polite" data-testid="conversation-count">
        {data ? `${data.total.toLocaleString("ja-JP")}件${data.totalCapped ? "以上" : ""}` : ""}
      </Text>
      <ListStates
        isLoading={list.isLoading}
        isError={list.isError}
        error={list.error}
        errorText={MSG.conversationsFetchFailed}
        onRetry={() => void list.refetch()}
        isEmpty={(data?.conversations.length ?? 0) === 0}
        emptyText={q ? "このニックネームのお相手とのメッセージはありません" : "まだメッセージはありません"}
      >
        <Stack
          gap="xs"
          component="ul"
          aria-label="メッセージのお相手"
          style={{ listStyle: "none", padding: 0, margin: 0 }}
        >
          {data?.conversations.map((line) => (
            <li key={line.partner.id}>
              <ConversationLine line={line} />
            </li>
          ))}
        </Stack>
        {data && <PagePagination total={data.totalPages} value={page} onChange={setPage} scrollToTop mt="md" />}
      </ListStates>
    </Stack>
  );
}
