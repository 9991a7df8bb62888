import { MSG } from "@enmusubi/shared";
import { Badge, Button, Stack, Title } from "@mantine/core";
import { useMemo, useState } from "react";
import { type MemberMessage, MessageCard, MessageDetailModal, partyName } from "../../features/messages";
import { BlockButton, ReportButton } from "../../features/safety";
import { ConversationLink } from "../conversations/ConversationLink";
import { MailListStates, PartyFilter } from "./MailListStates";
import { partiesOf, useBox } from "./mailbox";
import { ReplyDialog } from "./ReplyDialog";
import { ScheduledList } from "./ScheduledList";
import { useOpenMessage } from "./useOpenMessage";

/** 受信メール (spec §2): read inbox messages only; sender filter, reply, detail, this screen's scheduled list. */
export function ReceivedEmails() {
  const inbox = useBox("inbox");
  const [sender, setSender] = useState<string | null>(null);
  const { detail, close, open, pendingId } = useOpenMessage();
  const [replying, setReplying] = useState<MemberMessage | null>(null);
  const all = useMemo(() => (inbox.data?.messages ?? []).filter((m) => m.isRead), [inbox.data]);
  const shown = sender ? all.filter((m) => m.from.id === sender) : all;

  return (
    <Stack gap="md">
      <Title order={2}>受信メール</Title>
      <PartyFilter
        label="差出人で絞り込み"
        parties={partiesOf(all, "from")}
        value={sender}
        onChange={setSender}
        count={shown.length}
      />
      <MailListStates
        isLoading={inbox.isLoading}
        isError={inbox.isError}
        errorText={MSG.receivedFetchFailed}
        onRetry={() => void inbox.refetch()}
        isEmpty={shown.length === 0}
        emptyText={sender ? "この差出人の受信メッセージはありません" : "受信済みのメッセージはありません"}
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
      <ScheduledList source="user:received" />
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
