import { MSG } from "@enmusubi/shared";
import { Button, Stack, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { type MemberMessage, MessageCard, MessageDetailModal, partyName } from "../../features/messages";
import { BlockButton, ReportButton } from "../../features/safety";
import { refusalOr, useTRPC } from "../../lib/trpc";
import { notifyFailure } from "../../ui/notify-failure";
import { ConversationLink } from "../conversations/ConversationLink";
import { LockedMessageAction } from "../verification/LockedMessageAction";
import { MailListStates, PartnerSearch } from "./MailListStates";
import { useMailPage, useRefreshMail } from "./mailbox";
import { ReplyDialog } from "./ReplyDialog";
import { ScheduledList } from "./ScheduledList";
import { useOpenMessage } from "./useOpenMessage";

/**
 * 未読メッセージ (spec §2): messages from administrators plus the unread ones, newest first, paged on
 * the server (decision 0029); sender search and count; reply (hidden once replied), mark as read,
 * detail on click; unread highlighted; every scheduled message of the member.
 */
export function UnreadEmails() {
  const trpc = useTRPC();
  const { query, page, setPage, partner, search } = useMailPage("unread", { withOperator: true });
  const refresh = useRefreshMail();
  const { detail, close, open, pendingId } = useOpenMessage();
  const [replying, setReplying] = useState<MemberMessage | null>(null);
  const markRead = useMutation(trpc.messages.markRead.mutationOptions());
  const shown = query.data?.messages ?? [];

  const onMarkRead = (message: MemberMessage) =>
    markRead.mutate(
      { id: message.id },
      {
        onSuccess: () => {
          notifications.show({ color: "green", message: MSG.markedRead });
          refresh();
        },
        onError: (error) => notifyFailure(error, MSG.markReadFailed),
      },
    );

  return (
    <Stack gap="md">
      <Title order={2}>未読メッセージ</Title>
      <PartnerSearch label="差出人のニックネームで検索" value={partner} onSearch={search} total={query.data?.total} />
      <MailListStates
        isLoading={query.isLoading}
        isError={query.isError}
        error={query.error}
        errorText={refusalOr(query.error, MSG.unreadFetchFailed)}
        onRetry={() => void query.refetch()}
        isEmpty={shown.length === 0}
        emptyText={partner ? "このニックネームの差出人からの未読メッセージはありません" : "未読メッセージはありません"}
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
      <ScheduledList />
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
