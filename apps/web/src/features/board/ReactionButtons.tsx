import { Button, Group } from "@mantine/core";
import type { BoardPostView } from "./types";

/**
 * Like, dislike and read buttons with their counts (board search). Like and dislike are toggles:
 * the pressed one says so (aria-pressed; the visible text is the name, count included). Read is
 * one-way: once read it shows 既読, pressed and no longer clickable.
 */
export function ReactionButtons({
  post,
  onReact,
  onRead,
  busy,
}: {
  post: Pick<BoardPostView, "title" | "likeCount" | "dislikeCount" | "readerCount" | "myReaction" | "isRead">;
  onReact: (kind: "like" | "dislike") => void;
  onRead: () => void;
  busy?: boolean;
}) {
  const liked = post.myReaction === "like";
  const disliked = post.myReaction === "dislike";
  return (
    <Group gap="xs" wrap="wrap" data-testid="reaction-buttons">
      <Button
        size="compact-sm"
        variant={liked ? "filled" : "default"}
        color="pink"
        aria-pressed={liked}
        onClick={() => onReact("like")}
        disabled={busy}
        leftSection={<span aria-hidden>👍</span>}
        data-testid="like-button"
      >
        いいね {post.likeCount.toLocaleString("ja-JP")}
      </Button>
      <Button
        size="compact-sm"
        variant={disliked ? "filled" : "default"}
        color="gray"
        aria-pressed={disliked}
        onClick={() => onReact("dislike")}
        disabled={busy}
        leftSection={<span aria-hidden>👎</span>}
        data-testid="dislike-button"
      >
        よくないね {post.dislikeCount.toLocaleString("ja-JP")}
      </Button>
      <Button
        size="compact-sm"
        variant={post.isRead ? "light" : "default"}
        color="teal"
        aria-pressed={!!post.isRead}
        onClick={onRead}
        disabled={busy || post.isRead}
        leftSection={<span aria-hidden>✓</span>}
        data-testid="read-button"
      >
        {post.isRead ? "既読" : "既読にする"} {post.readerCount.toLocaleString("ja-JP")}
      </Button>
    </Group>
  );
}
