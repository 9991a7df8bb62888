import { MSG } from "@enmusubi/shared";
import { Card, Text } from "@mantine/core";
import { ComposeDialog, type MemberMessage, MessagePreview, partyName } from "../../features/messages";
import { formatPoints } from "../../lib/format";
import { useCurrentUser } from "../useCurrentUser";
import { useDraft } from "../useDraft";
import { SendLockNotice, useSendLock } from "../verification/useSendLock";
import type { MailSource } from "./mailbox";
import { costFor, useSendMail } from "./useSend";

/**
 * The reply dialog of the unread and received screens (spec §2): textarea, 60 emojis, optional
 * schedule. Replying to an administrator is free; to a member it costs send_message (confirmed).
 * The original is marked replied, and read too from the unread screen (spec §4). The text is the
 * member's draft to the sender, the one their conversation's reply box shows (useDraft).
 */
export function ReplyDialog({
  message,
  onClose,
  source,
}: {
  message: MemberMessage | null;
  onClose: () => void;
  source: MailSource;
}) {
  const { perMember, submit } = useSendMail();
  const sendLock = useSendLock();
  const recipient = message?.from;
  const draft = useDraft(useCurrentUser().data?.id, recipient?.id);
  const cost = recipient ? costFor([recipient], perMember) : 0;
  return (
    <ComposeDialog
      opened={message !== null}
      onClose={onClose}
      title={recipient ? `${partyName(recipient)}さんへ返信` : "返信"}
      submitLabel="返信"
      emojiSize="large"
      costNote={cost > 0 ? `送信には${formatPoints(cost)}が必要です` : "この返信にポイントは必要ありません"}
      extraInvalid={sendLock}
      draft={draft}
      onSubmit={(result) =>
        message && recipient
          ? submit({
              recipients: [recipient],
              result,
              source,
              replyTo: { id: message.id, markRead: source === "user:unread" },
              successText: MSG.messageSent,
              scheduledText: MSG.replyScheduled,
              failureText: MSG.replyFailed,
            })
          : Promise.resolve(false)
      }
    >
      {sendLock && <SendLockNotice />}
      {message && (
        <Card withBorder padding="xs" bg="gray.0">
          <Text size="xs" c="dimmed" mb={4}>
            返信元のメッセージ
          </Text>
          <MessagePreview body={message.body} />
        </Card>
      )}
    </ComposeDialog>
  );
}
