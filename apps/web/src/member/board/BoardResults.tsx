import { Group, Stack, Text } from "@mantine/core";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import { useEffect, useState } from "react";
import { BOARD_TEXT, BoardPager, PostCard, ReactionButtons, totalLabel } from "../../features/board";
import { BlockButton, ReportButton } from "../../features/safety";
import { displayName } from "../../lib/display-name";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { ListStates } from "../../ui/ListStates";
import { notifyFailure } from "../../ui/notify-failure";
import { ConversationLink } from "../conversations/ConversationLink";
import { ProfileDetailModal } from "../discovery/ProfileDetailModal";
import { usePaidProfileView } from "../discovery/usePaidView";
import { BoardFilters } from "./BoardFilters";
import { activeFilterChips, type BoardFilterValues, FilterChips, NO_FILTERS } from "./FilterChips";

/** The HTTP status a tRPC failure came with (402: the paid window closed). */
export const httpStatus = (error: unknown): number | undefined =>
  error instanceof TRPCClientError ? (error.data?.httpStatus as number | undefined) : undefined;

/** Spec §8 board search: 400 says the conditions are wrong; a refusal keeps the server's reason. */
function searchErrorText(error: unknown): string {
  const status = httpStatus(error);
  if (status === 400) return BOARD_TEXT.searchBadRequest;
  if (status === 403) return errorMessage(error, BOARD_TEXT.fetchFailed);
  return BOARD_TEXT.fetchFailed;
}

function toInput(filters: BoardFilterValues, page: number) {
  return {
    page,
    keyword: filters.keyword || undefined,
    posterUserID: filters.poster || undefined,
    startDate: filters.startDate || undefined,
    endDate: filters.endDate || undefined,
    excludeSameSex: filters.excludeSameSex,
  };
}

/** The open board: filters, chips, the page of posts and their buttons. */
export function BoardResults({ onClosed }: { onClosed: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [applied, setApplied] = useState<BoardFilterValues>(NO_FILTERS);
  const [page, setPage] = useState(1);
  const [pendingId, setPendingId] = useState<string | null>(null);
  const input = toInput(applied, page);
  const list = useQuery({ ...trpc.board.list.queryOptions(input), placeholderData: keepPreviousData });
  const react = useMutation(trpc.board.react.mutationOptions());
  const read = useMutation(trpc.board.read.mutationOptions());
  // A poster's profile, as profiles are seen (a paid view), and a message to them.
  const paid = usePaidProfileView();

  // The paid window closed under us (402): back to the entry confirmation.
  const closed = httpStatus(list.error) === 402;
  useEffect(() => {
    if (closed) onClosed();
  }, [closed, onClosed]);

  const apply = (values: BoardFilterValues) => {
    setApplied(values);
    setPage(1);
  };

  type Post = NonNullable<typeof list.data>["posts"][number];
  const patch = (id: string, change: Partial<Post>) =>
    queryClient.setQueryData(trpc.board.list.queryKey(input), (prev) =>
      prev ? { ...prev, posts: prev.posts.map((p) => (p.id === id ? { ...p, ...change } : p)) } : prev,
    );

  const onReact = async (post: Post, kind: "like" | "dislike") => {
    setPendingId(post.id);
    try {
      const result = await react.mutateAsync({ id: post.id, kind });
      patch(post.id, { likeCount: result.likes, dislikeCount: result.dislikes, myReaction: result.myReaction });
    } catch (error) {
      if (httpStatus(error) === 402) onClosed();
      notifyFailure(error, kind === "like" ? BOARD_TEXT.likeFailed : BOARD_TEXT.dislikeFailed);
    } finally {
      setPendingId(null);
    }
  };

  const onRead = async (post: Post) => {
    setPendingId(post.id);
    try {
      const result = await read.mutateAsync({ id: post.id });
      patch(post.id, { isRead: true, readerCount: result.readerCount });
    } catch (error) {
      if (httpStatus(error) === 402) onClosed();
      notifyFailure(error, BOARD_TEXT.readFailed);
    } finally {
      setPendingId(null);
    }
  };

  const data = list.data;
  const filtered = activeFilterChips(applied).length > 0;
  return (
    <Stack gap="md">
      <BoardFilters applied={applied} onApply={apply} searching={list.isFetching && !list.isLoading} />
      <FilterChips applied={applied} onRemove={(key) => apply({ ...applied, [key]: NO_FILTERS[key] })} />
      <Text size="sm" c="dimmed" aria-live="polite" data-testid="board-count">
        {data ? totalLabel(data.pagination) : ""}
      </Text>
      <ListStates
        isLoading={list.isLoading || closed}
        isError={list.isError && !closed}
        error={list.error}
        errorText={searchErrorText(list.error)}
        onRetry={() => void list.refetch()}
        isEmpty={(data?.posts.length ?? 0) === 0}
        emptyText={filtered ? BOARD_TEXT.noResults : BOARD_TEXT.noPosts}
      >
        <Stack gap="sm" data-testid="board-results">
          {data?.posts.map((post) => {
            // Someone else's post: their profile (paid, as profiles are seen), a report, a block, a message.
            const other = post.author && !post.byOperator && !post.isMine ? post.author : null;
            return (
              <PostCard
                key={post.id}
                post={post}
                onAuthorClick={other ? () => void paid.open(other.id) : undefined}
                footer={
                  <>
                    <ReactionButtons
                      post={post}
                      busy={pendingId === post.id}
                      onReact={(kind) => void onReact(post, kind)}
                      onRead={() => void onRead(post)}
                    />
                    {other && (
                      <Group gap="xs" justify="flex-end">
                        <ReportButton target={{ type: "board_post", id: post.id, label: `投稿「${post.title}」` }} />
                        <BlockButton userId={other.id} name={displayName(other)} />
                        <ConversationLink party={other} write />
                      </Group>
                    )}
                  </>
                }
              />
            );
          })}
        </Stack>
        {data && (
          <BoardPager
            pagination={data.pagination}
            onChange={(next) => {
              setPage(next);
              window.scrollTo({ top: 0 });
            }}
            label="掲示板のページ"
          />
        )}
      </ListStates>
      <ProfileDetailModal profile={paid.shown} onClose={paid.close} />
    </Stack>
  );
}
