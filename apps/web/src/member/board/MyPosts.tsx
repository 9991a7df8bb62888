import { BOARD_CONTENT_MAX } from "@enmusubi/shared";
import { Badge, Button, Group, Stack, Text, Title } from "@mantine/core";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import {
  BOARD_TEXT,
  BoardPager,
  type BoardPostView,
  NewPostDialog,
  PostCard,
  PostCounts,
  totalLabel,
  usePostActions,
} from "../../features/board";
import { confirmCost } from "../../features/messages";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { ListStates } from "../../ui/ListStates";
import { usePointCost } from "../discovery/usePaidView";
import { PostPeopleModal } from "./PostPeopleModal";

/**
 * 掲示板投稿 (spec §2 message-board-posting): the member's own posts, 10 a page, newest first, each
 * with its reader, like and dislike counts and a delete icon (irreversible, confirmed); the
 * new-post dialog (title, content, 30 emojis) asks for the posting cost first when it is not free.
 * The first page starts with the member's posts held for review (確認中, decision 0042).
 */
export function MyPosts() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [writing, setWriting] = useState(false);
  const postCost = usePointCost("message_board_post");
  const [peopleOf, setPeopleOf] = useState<BoardPostView | null>(null);

  const posts = useQuery({ ...trpc.board.myPosts.queryOptions({ page }), placeholderData: keepPreviousData });
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.board.myPosts.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.board.list.pathKey() }),
    ]);
  const create = useMutation(trpc.board.create.mutationOptions());
  const remove = useMutation(trpc.board.delete.mutationOptions());

  const data = posts.data;
  const { headingRef, deletingId, submit, askDelete } = usePostActions({
    create: (post) => create.mutateAsync(post),
    remove: (id) => remove.mutateAsync({ id }),
    refresh,
    page,
    setPage,
    postsOnPage: data?.posts.length,
    confirmPost: () => confirmCost(postCost, "掲示板への投稿"),
    // A paid post changed the balance the shell shows.
    onPosted: () => {
      if (postCost > 0) void queryClient.invalidateQueries({ queryKey: trpc.profile.me.queryKey() });
    },
  });

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" gap="sm">
        <div>
          <Title order={2} ref={headingRef} tabIndex={-1}>
            掲示板投稿
          </Title>
          <Text size="sm" c="dimmed" data-testid="my-post-total">
            {data ? `投稿数 ${totalLabel(data.pagination)}` : " "}
          </Text>
        </div>
        <Button onClick={() => setWriting(true)}>新規投稿</Button>
      </Group>

      <ListStates
        isLoading={posts.isLoading}
        isError={posts.isError}
        error={posts.error}
        errorText={errorMessage(posts.error, BOARD_TEXT.myPostsFailed)}
        onRetry={() => void posts.refetch()}
        isEmpty={(data?.posts.length ?? 0) === 0}
        emptyText={BOARD_TEXT.noMyPosts}
      >
        <Stack gap="sm" data-testid="my-posts">
          {data?.posts.map((post) =>
            post.status === "held" ? (
              // Held for review (decision 0042): not a board post yet — no reactions, no delete.
              <PostCard
                key={post.id}
                post={post}
                markMine={false}
                footer={
                  <Group gap="xs" wrap="wrap" data-testid="held-post">
                    <Badge color="orange" variant="light">
                      {BOARD_TEXT.heldBadge}
                    </Badge>
                    <Text size="sm" c="dimmed">
                      {BOARD_TEXT.heldNote}
                    </Text>
                  </Group>
                }
              />
            ) : (
              <PostCard
                key={post.id}
                post={post}
                markMine={false}
                footer={
                  <Group justify="space-between" gap="xs" wrap="wrap">
                    <PostCounts post={post} />
                    <Button
                      variant="subtle"
                      size="compact-sm"
                      onClick={() => setPeopleOf(post)}
                      aria-label={`「${post.title}」に反応した人を見る`}
                    >
                      反応した人を見る
                    </Button>
                  </Group>
                }
                onDelete={() => void askDelete(post)}
                deleting={deletingId === post.id}
              />
            ),
          )}
        </Stack>
        {data && <BoardPager pagination={data.pagination} onChange={setPage} label="自分の投稿のページ" />}
      </ListStates>

      <Text size="xs" c="dimmed">
        {postCost > 0 ? `投稿には1件につき${postCost.toLocaleString("ja-JP")}ptが必要です。` : "投稿は無料です。"}
        削除した投稿は元に戻せません。
      </Text>

      <PostPeopleModal post={peopleOf} onClose={() => setPeopleOf(null)} />
      <NewPostDialog
        opened={writing}
        onClose={() => setWriting(false)}
        onSubmit={submit}
        contentMax={BOARD_CONTENT_MAX}
        costNote={postCost > 0 ? `投稿には${postCost.toLocaleString("ja-JP")}ptが必要です` : undefined}
      />
    </Stack>
  );
}
