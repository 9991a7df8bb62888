import { Button } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { confirmAction } from "../../lib/confirm";
import { useTRPC } from "../../lib/trpc";
import { notifyFailure } from "../../ui/notify-failure";
import { SAFETY_TEXT } from "./text";

/** Refreshes every list a block changes (search, favourites, footprints, board, the blocked list). */
export function useBlockRefresh() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => {
    for (const filter of [
      trpc.members.search.pathFilter(),
      trpc.members.favorites.pathFilter(),
      trpc.members.footprints.pathFilter(),
      trpc.safety.blocked.pathFilter(),
    ]) {
      void queryClient.invalidateQueries(filter);
    }
    // The board's lists (its router's keys start with "board").
    void queryClient.invalidateQueries({
      predicate: (query) => Array.isArray(query.queryKey[0]) && query.queryKey[0][0] === "board",
    });
  };
}

/**
 * ブロック: after a confirmation, neither member sees the other in any list any more and messages
 * between them are refused both ways. `onBlocked` lets the host close what showed the member.
 */
export function BlockButton({
  userId,
  name,
  onBlocked,
  size = "xs",
}: {
  userId: string;
  name: string;
  onBlocked?: () => void;
  size?: "xs" | "sm" | "compact-xs";
}) {
  const trpc = useTRPC();
  const refresh = useBlockRefresh();
  const block = useMutation(trpc.safety.block.mutationOptions());

  const ask = async () => {
    const ok = await confirmAction({
      title: "ブロック",
      message: `${name}さんをブロックしますか？お互いに検索・お気に入り・足あと・掲示板に表示されなくなり、メッセージのやり取りもできなくなります。お気に入りからも削除されます。ブロックはブロックリストから解除できます。`,
      confirmLabel: "ブロックする",
    });
    if (!ok) return;
    try {
      await block.mutateAsync({ userId });
      notifications.show({ color: "green", message: `${name}さんをブロックしました。` });
      onBlocked?.();
    } catch (error) {
      notifyFailure(error, SAFETY_TEXT.blockFailed);
    } finally {
      refresh();
    }
  };

  return (
    <Button
      size={size}
      variant="subtle"
      color="red"
      onClick={() => void ask()}
      loading={block.isPending}
      aria-label={`${name}さんをブロック`}
    >
      ブロック
    </Button>
  );
}
