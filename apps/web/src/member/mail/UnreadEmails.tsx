import { MSG } from "@enmusubi/shared";
import { Button, Stack, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { type MemberMessage, MessageCard, MessageDetailModal, partyName } from "../../features/messages";
import { BlockButton, ReportButton } from "../../features/safety";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { ConversationLink } from "../conversations/ConversationLink";
import { LockedMessageAction } from "../verification/LockedMessageAction";
import { MailListStates, PartyFilter } from "./MailListStates";
import { partiesOf, useBox, useRefreshMail } from "./mailbox";
import { ReplyDialog } from "./ReplyDialog";
import { ScheduledList } from "./ScheduledList";
import { useOpenMessage } from "./useOpenMessage";

/**
 * 未読メール (spec §2): messages from administrators plus the unread ones, newest first; sender
 * filter and count; reply (hidden once replied), mark as read, detail on click; unread highlighted.
 */
export function UnreadEmails() {
  const trpc = useTRPC();
  const unread = useBox("unread");
  const inbox = useBox("inbox");
  const refresh = useRefreshMail();
  const [sender, setSender] = useState<string | null>(null);
  const { detail, close, open, pendingId } = useOpenMessage();
  const [replying, setReplying] = useState<MemberMessage | null>(null);
  const markRead = useMutation(trpc.messages.markRead.mutationOptions());

  const all = useMemo(() => {
    const byId = new Map<string, MemberMessage>();
    for (const m of unread.data?.messages ?? []) byId.set(m.id, m);
    for (const m of inbox.data?.messages ?? []) if (m.from.role === "admin" && !byId.has(m.id)) byId.set(m.id, m);
    return [...byId.values()].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  }, [unread.data, inbox.data]);
  const shown = sender ? all.filter((m) => m.from.id === sender) : all;

  const onMarkRead = (message: MemberMessage) =>
    markRead.mutate(
      { id: message.id },
      {
        onSuccess: () => {
          notifications.show({ color: "green", message: MSG.markedRead });
          refresh();
        },
        onError: (error) => notifications.show({ color: "red", message: errorMessage(error, MSG.markReadFailed) }),
      },
    );

  return (
    <Stack gap="md">
      <Title order={2}>未読メール</Title>
      <PartyFilter
        label="差出人で絞り込み"
        parties={partiesOf(all, "from")}
        value={sender}
        onChange={setSender}
        count={shown.length}
      />
      <MailListStates
        isLoading={unread.isLoading || inbox.isLoading}
        isError={unread.isError || inbox.isError}
        errorText={MSG.unreadFetchFailed}
        onRetry={() => {
          void unread.refetch();
          void inbox.refetch();
        }}
        isEmpty={shown.length === 0}
        emptyText={sender ? "この差出人の未読メッセージはありません" : "未読メッセージはありません"}
      >
        {shown.map((message) => (
          <MessageCard
            key={message.id}
            message={message}
            party={message.from}
            partyLabel="差出人"
            highlightUnread
            onOpen={() => void open(message)}
            opening={pendingId === message.id}
            actions={
              // Locked until the member is verified (decision 0006): the way to verify, not failing buttons.
              message.locked ? (
                <>
                  <ConversationLink party={message.from} />
                  <LockedMessageAction />
                </>
              ) : (
                <>
                  <ConversationLink party={message.from} />
                  {!message.hasReply && (
                    <Button size="xs" onClick={() => setReplying(message)}>
                      返信
                    </Button>
                  )}
                  {!message.isRead && (
                    <Button
                      size="xs"
                      variant="default"
                      onClick={() => onMarkRead(message)}
                      loading={markRead.isPending && markRead.variables?.id === message.id}
                    >
                      既読にする
                    </Button>
                  )}
                </>
              )
            }
          />
        ))}
      </MailListStates>
      <ScheduledList source="user:unread" />
      <MessageDetailModal
        message={detail}
        onClose={close}
        actions={
          detail &&
          !detail.locked && (
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
      <ReplyDialog message={replying} onClose={() => setReplying(null)} source="user:unread" />
    </Stack>
  );
}
