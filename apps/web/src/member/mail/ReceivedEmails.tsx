import { MSG } from "@enmusubi/shared";
import { Badge, Button, Stack, Title } from "@mantine/core";
import { useState } from "react";
import { type MemberMessage, MessageCard, MessageDetailModal, partyName } from "../../features/messages";
import { BlockButton, ReportButton } from "../../features/safety";
import { refusalOr } from "../../lib/trpc";
import { ConversationLink } from "../conversations/ConversationLink";
import { MailListStates, PartnerSearch } from "./MailListStates";
import { useMailPage } from "./mailbox";
import { ReplyDialog } from "./ReplyDialog";
import { ScheduledList } from "./ScheduledList";
import { useOpenMessage } from "./useOpenMessage";

/**
 * 受信メッセージ (spec §2): read inbox messages only, asked of the server (box "read": never empty
 * because newer ones are unread), paged on the server with a sender search (decision 0029); reply,
 * detail, every scheduled message of the member.
 */
export function ReceivedEmails() {
  const { query, page, setPage, partner, search } = useMailPage("read");
  const { detail, close, open, pendingId } = useOpenMessage();
  const [replying, setReplying] = useState<MemberMessage | null>(null);
  const shown = query.data?.messages ?? [];

  return (
    <Stack gap="md">
      <Title order={2}>受信メッセージ</Title>
      <PartnerSearch label="差出人のニックネームで検索" value={partner} onSearch={search} total={query.data?.total} />
      <MailListStates
        isLoading={query.isLoading}
        isError={query.isError}
        error={query.error}
        errorText={refusalOr(query.error, MSG.receivedFetchFailed)}
        onRetry={() => void query.refetch()}
        isEmpty={shown.length === 0}
        emptyText={
          partner ? "このニックネームの差出人からの受信メッセージはありません" : "受信済みのメッセージはありません"
        }
        page={page}
        totalPages={query.data?.totalPages}
        onPage={setPage}
      >
        {shown.map((message) => (
          <MessageCard
            key={message.id}
            message={message}
            party={message.from}
            partyLabel="差出人"
            onOpen={() => void open(message)}
            opening={pendingId === message.id}
            status={
              message.hasReply && (
                <Badge size="xs" color="teal" variant="light">
                  返信済み
                </Badge>
              )
            }
            actions={
              <>
                <ConversationLink party={message.from} />
                {!message.hasReply && (
                  <Button size="xs" onClick={() => setReplying(message)}>
                    返信
                  </Button>
                )}
              </>
            }
          />
        ))}
      </MailListStates>
      <ScheduledList />
      <MessageDetailModal
        message={detail}
        onClose={close}
        actions={
          detail && (
            <>
              {detail.from.role === "user" && (
                <>
                  <ReportButton
                    target={{ type: "message", id: detail.id, label: `${partyName(detail.from)}さんからのメッセージ` }}
                  />
                  <BlockButton userId={detail.from.id} name={partyName(detail.from)} onBlocked={close} />
                </>
              )}
              {!detail.hasReply && (
                <Button
                  onClick={() => {
                    setReplying(detail);
                    close();
                  }}
                >
                  返信
                </Button>
              )}
            </>
          )
        }
      />
      <ReplyDialog message={replying} onClose={() => setReplying(null)} source="user:received" />
    </Stack>
  );
}
