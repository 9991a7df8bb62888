import { MSG } from "@enmusubi/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { confirmCost, type MemberMessage } from "../../features/messages";
import { emitPointsDeducted } from "../../lib/points";
import { useTRPC } from "../../lib/trpc";
import { notifyFailure } from "../../ui/notify-failure";
import { useRefreshMail } from "./mailbox";

/**
 * Opening a message from a mail list (decision 0027). Another member's message not yet
 * opened is *sealed*: the list shows its preview line only. Opening it asks the server what it
 * costs now (messages.get's openCost: a quote, never a charge), confirms that price — skipped when
 * it is free — then calls messages.open, which charges unread_mail_view once and answers the body.
 * The balance follows through points:deducted (as the profile view), the mail lists are refreshed.
 * Not enough points: the server's catalogue message. Anything else (opened, the operator's, one's
 * own, locked until verification) shows at once.
 */
export function useOpenMessage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = useRefreshMail();
  const openMessage = useMutation(trpc.messages.open.mutationOptions());
  const [detail, setDetail] = useState<MemberMessage | null>(null);
  const [pendingId, setPendingId] = useState<string | null>(null);

  const open = async (message: MemberMessage) => {
    if (!message.sealed || message.locked) {
      setDetail(message);
      return;
    }
    if (pendingId) return;
    setPendingId(message.id);
    try {
      const quote = await queryClient.fetchQuery({
        ...trpc.messages.get.queryOptions({ id: message.id }),
        staleTime: 0,
      });
      if (quote.sealed && !(await confirmCost(quote.openCost, "未読メッセージの閲覧"))) return;
      const result = await openMessage.mutateAsync({ id: message.id });
      emitPointsDeducted(result.remainingPoints);
      setDetail(result.message);
      refresh();
    } catch (error) {
      notifyFailure(error, MSG.messageOpenFailed);
    } finally {
      setPendingId(null);
    }
  };

  return { detail, close: () => setDetail(null), open, pendingId };
}
