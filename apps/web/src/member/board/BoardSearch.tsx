import { BOARD_ENTRY_MINUTES } from "@enmusubi/shared";
import { Group, Stack, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useRef, useState } from "react";
import { BOARD_TEXT } from "../../features/board";
import { emitPointsDeducted } from "../../lib/points";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { ListStates } from "../../ui/ListStates";
import { useCurrentUser } from "../useCurrentUser";
import { BoardEntry } from "./BoardEntry";
import { BoardResults, httpStatus } from "./BoardResults";
import { WindowTimer } from "./WindowTimer";

/**
 * 掲示板検索 (spec §2 message-board-search, §4 board view gating). On arrival: the entry
 * confirmation with its cost, skipped when viewing is free or the paid window is still open;
 * inside: the filters with their chip summary, 10 posts a page with 前へ / 次へ, like / dislike /
 * read with counts, and the time left in the window. When the window closes (the timer, or the
 * server answering 402) the confirmation comes back.
 */
export function BoardSearch() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const me = useCurrentUser();
  const access = useQuery({ ...trpc.board.access.queryOptions(), staleTime: 0 });
  const enter = useMutation(trpc.board.enter.mutationOptions());
  const [short, setShort] = useState(false);
  const [entryFailure, setEntryFailure] = useState<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  const open = !!access.data && (access.data.open || access.data.cost <= 0);
  const refetchAccess = access.refetch;
  const recheck = useCallback(() => void refetchAccess(), [refetchAccess]);

  const doEnter = async () => {
    setEntryFailure(null);
    try {
      const result = await enter.mutateAsync();
      if (result.charged > 0) emitPointsDeducted(result.remainingPoints);
      queryClient.setQueryData(trpc.board.access.queryKey(), (prev) =>
        prev ? { ...prev, open: true, openUntil: result.openUntil } : prev,
      );
      void queryClient.invalidateQueries({ queryKey: trpc.board.list.pathKey() });
      // The confirmation and its button are gone: the keyboard goes on from the heading.
      requestAnimationFrame(() => headingRef.current?.focus());
    } catch (error) {
      if (httpStatus(error) === 402) setShort(true);
      else setEntryFailure(errorMessage(error, BOARD_TEXT.entryFailed));
    }
  };

  const cost = access.data?.cost ?? 0;
  const balance = me.data?.points;
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Title order={2} ref={headingRef} tabIndex={-1}>
          掲示板検索
        </Title>
        {open && access.data?.openUntil && <WindowTimer until={access.data.openUntil} onEnded={recheck} />}
      </Group>
      <ListStates
        isLoading={access.isLoading}
        isError={access.isError}
        error={access.error}
        errorText={errorMessage(access.error, BOARD_TEXT.fetchFailed)}
        onRetry={recheck}
        isEmpty={false}
        emptyText=""
      >
        {open ? (
          <BoardResults onClosed={recheck} />
        ) : (
          <BoardEntry
            cost={cost}
            balance={balance}
            windowMinutes={BOARD_ENTRY_MINUTES}
            short={short || (balance !== undefined && balance < cost)}
            entering={enter.isPending}
            failure={entryFailure}
            onEnter={() => void doEnter()}
          />
        )}
      </ListStates>
    </Stack>
  );
}
