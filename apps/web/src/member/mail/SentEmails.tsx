import { MSG } from "@enmusubi/shared";
import { Badge, Button, Group, Stack, Title } from "@mantine/core";
import { useState } from "react";
import { type MemberMessage, MessageCard, MessageDetailModal } from "../../features/messages";
import { refusalOr } from "../../lib/trpc";
import { ConversationLink } from "../conversations/ConversationLink";
import { BulkSendDialog } from "./BulkSendDialog";
import { MailListStates, PartnerSearch } from "./MailListStates";
import { useMailPage } from "./mailbox";
import { ScheduledList } from "./ScheduledList";

/**
 * 送信メッセージ (spec §2): paged on the server with a recipient search (decision 0029), the read / unread
 * marker as the server has it (既読 once the recipient opened or marked it), detail, bulk send,
 * every scheduled message of the member.
 */
export function SentEmails() {
  const { query, page, setPage, partner, search } = useMailPage("sent");
  const [detail, setDetail] = useState<MemberMessage | null>(null);
  const [bulk, setBulk] = useState(false);
  const shown = query.data?.messages ?? [];

  return (
    <Stack gap="md">
      <Group justify="space-between" gap="sm">
        <Title order={2}>送信メッセージ</Title>
        <Button onClick={() => setBulk(true)}>一括送信</Button>
      </Group>
      <PartnerSearch label="宛先のニックネームで検索" value={partner} onSearch={search} total={query.data?.total} />
      <MailListStates
        isLoading={query.isLoading}
        isError={query.isError}
        error={query.error}
        errorText={refusalOr(query.error, MSG.sentFetchFailed)}
        onRetry={() => void query.refetch()}
        isEmpty={shown.length === 0}
        emptyText={
          partner ? "このニックネームの宛先への送信メッセージはありません" : "送信済みのメッセージはありません"
        }
        page={page}
        totalPages={query.data?.totalPages}
        onPage={setPage}
      >
        {shown.map((message) => (
          <MessageCard
            key={message.id}
            message={message}
            party={message.to}
            partyLabel="宛先"
            onOpen={() => setDetail(message)}
            actions={<ConversationLink party={message.to} />}
            status={
              <Badge size="xs" variant="light" color={message.isRead ? "gray" : "pink"} data-testid="read-marker">
                {message.isRead ? "既読" : "未読"}
              </Badge>
            }
          />
        ))}
      </MailListStates>
      <ScheduledList />
      <MessageDetailModal message={detail} onClose={() => setDetail(null)} />
      <BulkSendDialog opened={bulk} onClose={() => setBulk(false)} />
    </Stack>
  );
}
