import { MSG } from "@enmusubi/shared";
import { notifications } from "@mantine/notifications";
import { useMutation } from "@tanstack/react-query";
import { confirmAction } from "../../lib/confirm";
import { useTRPC } from "../../lib/trpc";
import { notifyFailure } from "../../ui/notify-failure";
import { useRefreshMail } from "./mailbox";

/**
 * Cancelling one of the member's scheduled messages after confirmation (the mail screens' list and
 * a conversation): says so, refreshes every mail view. `cancellingId`: the entry being cancelled.
 */
export function useCancelScheduled() {
  const trpc = useTRPC();
  const refresh = useRefreshMail();
  const cancel = useMutation(trpc.scheduled.cancel.mutationOptions());
  const cancelScheduled = async (id: string) => {
    const ok = await confirmAction({
      title: "予約の取り消し",
      message: "この予約メッセージを取り消しますか？",
      confirmLabel: "取り消す",
    });
    if (!ok) return;
    try {
      await cancel.mutateAsync({ id });
      notifications.show({ color: "green", message: MSG.scheduledCancelled });
      refresh();
    } catch (error) {
      notifyFailure(error, MSG.genericError);
    }
  };
  return { cancelScheduled, cancellingId: cancel.isPending ? cancel.variables?.id : undefined };
}
