import { MSG, type ScheduledSource } from "@enmusubi/shared";
import { Group, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  ComposeDialog,
  type ComposeResult,
  confirmCost,
  type EmojiPickerSize,
  useSendCost,
} from "../../features/messages";
import { formatPoints } from "../../lib/format";
import { emitPointsDeducted } from "../../lib/points";
import { useTRPC } from "../../lib/trpc";
import { notifyFailure } from "../../ui/notify-failure";
import { notifySent } from "../mail/useSend";
import { useCurrentUser } from "../useCurrentUser";
import { useDraft } from "../useDraft";
import { SendLockNotice, useSendLock } from "../verification/useSendLock";
import { ProfilePhoto } from "./ProfilePhoto";
import { displayName, type PublicProfile } from "./types";

export type DiscoverySource = Extract<ScheduledSource, "user:search" | "user:favorite">;

/**
 * The message popup of the search and favourites screens (spec §2): the shared compose dialog
 * (emoji picker, optional schedule); sending costs send_message, confirmed first (spec §5, §6). The
 * text is the member's draft to the recipient, shared with their conversation (useDraft).
 */
export function SendToMemberDialog({
  recipient,
  onClose,
  source,
  emojiSize,
}: {
  recipient: PublicProfile | null;
  onClose: () => void;
  source: DiscoverySource;
  emojiSize: EmojiPickerSize;
}) {
  const trpc = useTRPC();
  const sendLock = useSendLock();
  const draft = useDraft(useCurrentUser().data?.id, recipient?.id);
  const queryClient = useQueryClient();
  const cost = useSendCost();
  const send = useMutation(trpc.messages.send.mutationOptions());
  const schedule = useMutation(trpc.scheduled.create.mutationOptions());

  const submit = async (result: ComposeResult): Promise<boolean> => {
    if (!recipient) return false;
    const what = result.scheduledAt ? "予約したメッセージの送信" : "メッセージの送信";
    if (!(await confirmCost(cost, what))) return false;
    try {
      if (result.scheduledAt) {
        await schedule.mutateAsync({
          type: "direct",
          recipientIds: [recipient.id],
          content: result.body,
          scheduledAt: result.scheduledAt,
          source,
          markAsReplied: false,
          markAsRead: false,
        });
        notifications.show({ color: "green", message: MSG.messageScheduled });
      } else {
        const sent = await send.mutateAsync({ recipientIds: [recipient.id], body: result.body, markRead: false });
        emitPointsDeducted(sent.remainingPoints);
        notifySent(sent, MSG.messageSent);
      }
      void queryClient.invalidateQueries(trpc.messages.pathFilter());
      void queryClient.invalidateQueries(trpc.scheduled.list.pathFilter());
      return true;
    } catch (error) {
      notifyFailure(error, MSG.sendFailedMember);
      return false;
    }
  };

  return (
    <ComposeDialog
      opened={recipient !== null}
      onClose={onClose}
      title={recipient ? `${displayName(recipient)}さんへメッセージ` : "メッセージ"}
      emojiSize={emojiSize}
      costNote={cost > 0 ? `送信には${formatPoints(cost)}が必要です` : "この送信にポイントは必要ありません"}
      extraInvalid={sendLock}
      draft={draft}
      onSubmit={submit}
    >
      {sendLock && <SendLockNotice />}
      {recipient && (
        <Group gap="sm" wrap="nowrap">
          <ProfilePhoto profile={recipient} size={40} radius={20} />
          <Text fw={600}>{displayName(recipient)}</Text>
        </Group>
      )}
    </ComposeDialog>
  );
}
