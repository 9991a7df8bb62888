import { MSG } from "@enmusubi/shared";
import { notifications } from "@mantine/notifications";
import { useMutation } from "@tanstack/react-query";
import { type ComposeResult, confirmCost, type PartyLike, useSendCost } from "../../features/messages";
import { emitPointsDeducted } from "../../lib/points";
import { useTRPC } from "../../lib/trpc";
import { notifyFailure } from "../../ui/notify-failure";
import { type MailSource, useRefreshMail } from "./mailbox";

/** Points a send to `recipients` costs: send_message per member recipient, administrators free (spec §6). */
export function costFor(recipients: PartyLike[], perMember: number): number {
  return recipients.filter((r) => r.role !== "admin").length * perMember;
}

/**
 * What a member is told after messages.send: the screen's sent notice, or — when a screening rule
 * kept the message for review (`status: "held"`, decision 0042) — 「確認中」, never why.
 */
export function notifySent(sent: { status: "sent" | "held" }, successText: string): void {
  if (sent.status === "held") notifications.show({ color: "blue", message: MSG.messageHeldForReview });
  else notifications.show({ color: "green", message: successText });
}

/**
 * Sends now (messages.send) or schedules (scheduled.create) after the paid-action confirmation.
 * Resolves true on success (the dialog closes), false on failure or when the member declined.
 */
export function useSendMail() {
  const trpc = useTRPC();
  const refresh = useRefreshMail();
  const perMember = useSendCost();
  const send = useMutation(trpc.messages.send.mutationOptions());
  const schedule = useMutation(trpc.scheduled.create.mutationOptions());

  return {
    perMember,
    async submit(options: {
      recipients: PartyLike[];
      result: ComposeResult;
      source: MailSource;
      replyTo?: { id: string; markRead: boolean };
      successText: string;
      scheduledText: string;
      failureText: string;
    }): Promise<boolean> {
      const { recipients, result, replyTo } = options;
      const cost = costFor(recipients, perMember);
      const what = result.scheduledAt ? "予約したメッセージの送信" : "メッセージの送信";
      if (!(await confirmCost(cost, what))) return false;
      try {
        if (result.scheduledAt) {
          await schedule.mutateAsync({
            type: replyTo ? "reply" : recipients.length > 1 ? "batch" : "direct",
            recipientIds: recipients.map((r) => r.id),
            content: result.body,
            scheduledAt: result.scheduledAt,
            source: options.source,
            relatedMessageId: replyTo?.id,
            markAsReplied: !!replyTo,
            markAsRead: replyTo?.markRead ?? false,
          });
          notifications.show({ color: "green", message: options.scheduledText });
        } else {
          const sent = await send.mutateAsync({
            recipientIds: recipients.map((r) => r.id),
            body: result.body,
            replyToId: replyTo?.id,
            markRead: replyTo?.markRead ?? false,
          });
          emitPointsDeducted(sent.remainingPoints);
          notifySent(sent, options.successText);
        }
        refresh();
        return true;
      } catch (error) {
        notifyFailure(error, options.failureText);
        return false;
      }
    },
  };
}
