import { BOARD_CONTENT_MAX, LONG_TEXT_COLLAPSE_CHARS } from "@enmusubi/shared";
import { Button, Group, Paper, SimpleGrid, Stack, Text, TextInput, Title } from "@mantine/core";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import {
  BOARD_TEXT,
  BoardPager,
  NewPostDialog,
  PostCard,
  PostCounts,
  totalLabel,
  usePostActions,
} from "../../features/board";
import classes from "../../features/board/board.module.css";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { ListStates } from "../../ui/ListStates";

const TILES = [
  { key: "totalPosts", label: "総投稿数", unit: "件" },
  { key: "totalViews", label: "総閲覧数", unit: "回" },
  { key: "totalLikes", label: "総いいね数", unit: "件" },
  { key: "totalDislikes", label: "総よくないね数", unit: "件" },
] as const;

/**
 * 掲示板管理 (spec §2 admin screen 9): tiles with the totals, search by the poster's user ID with
 * clear, post cards (content expands above 100 characters) with counts and delete (irreversible,
 * confirmed), and a new post published as the operator.
 */
export function BoardManagement() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState("");
  const [userID, setUserID] = useState("");
  const [page, setPage] = useState(1);
  const [writing, setWriting] = useState(false);

  const stats = useQuery(trpc.adminBoard.stats.queryOptions());
  const posts = useQuery({
    ...trpc.adminBoard.list.queryOptions({ page, userID: userID || undefined }),
    placeholderData: keepPreviousData,
  });
  const create = useMutation(trpc.adminBoard.create.mutationOptions());
  const remove = useMutation(trpc.adminBoard.delete.mutationOptions());
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.adminBoard.list.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.adminBoard.stats.pathKey() }),
    ]);

  const search = (event: FormEvent) => {
    event.preventDefault();
    setUserID(draft.trim());
    setPage(1);
  };

  const data = posts.data;
  const { headingRef, deletingId, submit, askDelete } = usePostActions({
    create: (post) => create.mutateAsync(post),
    remove: (id) => remove.mutateAsync({ id }),
    refresh,
    page,
    setPage,
    postsOnPage: data?.posts.length,
  });

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <Title order={2} ref={headingRef} tabIndex={-1}>
          掲示板管理
        </Title>
        <Button onClick={() => setWriting(true)}>新規投稿</Button>
      </Group>

      <section aria-label="掲示板の集計">
        {stats.isError ? (
          <ListStates
            isLoading={false}
            isError
            errorText={BOARD_TEXT.statsFailed}
            onRetry={() => void stats.refetch()}
            isEmpty={false}
            emptyText=""
          >
            {null}
          </ListStates>
        ) : (
          <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
            {TILES.map((tile) => (
              <Paper
                key={tile.key}
                withBorder
                p="sm"
                radius="md"
                className={classes.tile}
                data-testid={`tile-${tile.key}`}
              >
                <Text size="sm" c="dimmed">
                  {tile.label}
                </Text>
                <Text fw={700} fz="xl" data-testid="tile-value">
                  {stats.data ? `${stats.data[tile.key].toLocaleString("ja-JP")}${tile.unit}` : "—"}
                </Text>
              </Paper>
            ))}
          </SimpleGrid>
        )}
      </section>

      <Paper withBorder p="sm" component="form" onSubmit={search} role="search" aria-label="投稿者で絞り込み">
        <Group gap="xs" align="flex-end" wrap="wrap">
          <TextInput
            label="ユーザーID"
            placeholder="投稿した会員のユーザーID"
            value={draft}
            onChange={(e) => setDraft(e.currentTarget.value)}
            maxLength={100}
            style={{ flex: 1, minWidth: 200 }}
          />
          <Button type="submit" variant="light">
            検索
          </Button>
          <Button
            variant="default"
            disabled={!draft && !userID}
            onClick={() => {
              setDraft("");
              setUserID("");
              setPage(1);
            }}
          >
            クリア
          </Button>
        </Group>
      </Paper>

      <Text size="sm" c="dimmed" aria-live="polite" data-testid="admin-board-count">
        {data ? `${userID ? `${userID} の投稿 ` : ""}${totalLabel(data.pagination)}` : ""}
      </Text>
      <ListStates
        isLoading={posts.isLoading}
        isError={posts.isError}
        errorText={errorMessage(posts.error, BOARD_TEXT.myPostsFailed)}
        onRetry={() => void posts.refetch()}
        isEmpty={(data?.posts.length ?? 0) === 0}
        emptyText={userID ? `ユーザーID「${userID}」の投稿はありません。` : BOARD_TEXT.noPosts}
      >
        <Stack gap="sm" data-testid="admin-board-posts">
          {data?.posts.map((post) => (
            <PostCard
              key={post.id}
              post={post}
              foldAt={LONG_TEXT_COLLAPSE_CHARS}
              showUserID
              footer={<PostCounts post={post} />}
              onDelete={() => void askDelete(post)}
              deleting={deletingId === post.id}
            />
          ))}
        </Stack>
        {data && <BoardPager pagination={data.pagination} onChange={setPage} label="投稿一覧のページ" />}
      </ListStates>

      <NewPostDialog
        opened={writing}
        onClose={() => setWriting(false)}
        onSubmit={submit}
        contentMax={BOARD_CONTENT_MAX}
        withEmojis={false}
        title="新規投稿（運営として投稿）"
      />
    </Stack>
  );
}
