import { POST_CONTENT_FOLD_CHARS } from "@enmusubi/shared";
import { ActionIcon, Anchor, Avatar, Badge, Card, Group, Stack, Text, Title, Tooltip } from "@mantine/core";
import type { ReactNode } from "react";
import { displayName } from "../../lib/display-name";
import { formatDateTime } from "../../lib/format";
import classes from "./board.module.css";
import { PostContent } from "./PostContent";
import { authorLine, authorName, type BoardPostView } from "./types";

/**
 * One board post (all three screens): the author's photo, name and age, the time in Japanese, the
 * title and the folded content as plain text, then the screen's counts or buttons (`footer`).
 * `onDelete` adds the delete icon, named after the post.
 */
export function PostCard({
  post,
  foldAt = POST_CONTENT_FOLD_CHARS,
  footer,
  onDelete,
  deleting,
  showUserID = false,
  markMine = true,
  onAuthorClick,
}: {
  post: BoardPostView;
  foldAt?: number;
  footer?: ReactNode;
  onDelete?: () => void;
  deleting?: boolean;
  /** Board management shows the author's login ID (and who wrote an operator post). */
  showUserID?: boolean;
  /** 「自分の投稿」 on the member's own posts among others' (not on the my-posts screen). */
  markMine?: boolean;
  /** The author's name becomes a button (the board: their profile, a paid view). */
  onAuthorClick?: () => void;
}) {
  const name = authorName(post);
  const line = authorLine(post.byOperator ? null : post.author);
  return (
    <Card
      withBorder
      padding="sm"
      radius="md"
      component="article"
      aria-label={`${post.title}（${name}）`}
      className={`${classes.card} ${post.byOperator ? classes.operator : ""}`}
      data-testid="board-post"
    >
      <Group align="flex-start" wrap="nowrap" gap="sm">
        <Avatar
          src={post.byOperator ? null : (post.author?.photoLink ?? null)}
          alt={name}
          radius="xl"
          size={44}
          color={post.byOperator ? "grape" : "pink"}
        >
          {name.slice(0, 1)}
        </Avatar>
        <Stack gap={6} style={{ flex: 1, minWidth: 0 }}>
          <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
            <Stack gap={0} style={{ minWidth: 0 }}>
              <Group gap={6} wrap="wrap">
                {onAuthorClick ? (
                  <Anchor
                    component="button"
                    type="button"
                    fw={700}
                    onClick={onAuthorClick}
                    aria-label={`${name}さんのプロフィールを見る`}
                    data-testid="post-author"
                  >
                    {name}
                  </Anchor>
                ) : (
                  <Text fw={700} component="span" data-testid="post-author">
                    {name}
                  </Text>
                )}
                {post.byOperator && (
                  <Badge size="xs" color="grape" variant="light">
                    運営
                  </Badge>
                )}
                {markMine && post.isMine && !post.byOperator && (
                  <Badge size="xs" color="pink" variant="light">
                    自分の投稿
                  </Badge>
                )}
                {line && (
                  <Text size="xs" c="dimmed" component="span">
                    {line}
                  </Text>
                )}
                {showUserID && post.author && "userID" in post.author && (
                  <Text size="xs" c="dimmed" component="span" ff="monospace">
                    ID: {post.author.userID}
                  </Text>
                )}
                {showUserID && post.byOperator && "operator" in post && post.operator && (
                  <Text size="xs" c="dimmed" component="span">
                    投稿した管理者: {displayName(post.operator)}
                  </Text>
                )}
              </Group>
              <Text size="xs" c="dimmed" component="time" dateTime={new Date(post.createdAt).toISOString()}>
                {formatDateTime(post.createdAt)}
              </Text>
            </Stack>
            {onDelete && (
              <Tooltip label="削除">
                <ActionIcon
                  variant="subtle"
                  color="red"
                  onClick={onDelete}
                  loading={deleting}
                  aria-label={`投稿「${post.title}」を削除`}
                >
                  <span aria-hidden>🗑</span>
                </ActionIcon>
              </Tooltip>
            )}
          </Group>
          <Title order={3} size="h5" className={classes.title}>
            {post.title}
          </Title>
          <PostContent content={post.content} foldAt={foldAt} />
          {footer}
        </Stack>
      </Group>
    </Card>
  );
}

/** Reader, like and dislike counts as text (my posts, board management). */
export function PostCounts({ post }: { post: Pick<BoardPostView, "readerCount" | "likeCount" | "dislikeCount"> }) {
  return (
    <Group gap="md" data-testid="post-counts">
      <Text size="sm" c="dimmed">
        既読 <strong data-testid="reader-count">{post.readerCount.toLocaleString("ja-JP")}</strong>人
      </Text>
      <Text size="sm" c="dimmed">
        いいね <strong data-testid="like-count">{post.likeCount.toLocaleString("ja-JP")}</strong>
      </Text>
      <Text size="sm" c="dimmed">
        よくないね <strong data-testid="dislike-count">{post.dislikeCount.toLocaleString("ja-JP")}</strong>
      </Text>
    </Group>
  );
}
