import { notifications } from "@mantine/notifications";
import { useRef, useState } from "react";
import { confirmAction } from "../../lib/confirm";
import { notifyFailure } from "../../ui/notify-failure";
import type { NewPost } from "./NewPostDialog";
import { BOARD_TEXT } from "./text";
import type { BoardPostView } from "./types";

/**
 * What 掲示板管理 (admin) and 掲示板投稿 (my posts) do with a post list they own: publish a new post
 * (back to page 1; a member's post a screening rule held is announced 確認中 instead), and delete a post after an irreversible confirmation — the keyboard then goes on
 * from the heading (its card and button are gone), and the last post of a page gone shows the page
 * before it.
 */
export function usePostActions({
  create,
  remove,
  refresh,
  page,
  setPage,
  postsOnPage,
  confirmPost,
  onPosted,
}: {
  /** Answers the post; a member's may be `status: "held"` (kept for review by screening, decision 0042). */
  create: (post: NewPost) => Promise<{ id: string; status?: "published" | "held" }>;
  remove: (id: string) => Promise<unknown>;
  refresh: () => Promise<unknown>;
  page: number;
  setPage: (page: number) => void;
  /** How many posts the shown page has (undefined before the first answer). */
  postsOnPage: number | undefined;
  /** Asked before posting (e.g. the posting cost); false leaves the dialog open. */
  confirmPost?: () => Promise<boolean>;
  /** After a post was published, before the list is refreshed. */
  onPosted?: () => void;
}) {
  const [deletingId, setDeletingId] = useState<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  const submit = async (post: NewPost): Promise<boolean> => {
    if (confirmPost && !(await confirmPost())) return false;
    try {
      const created = await create(post);
      // Held for review: the member is told it waits (確認中), never why.
      notifications.show(
        created.status === "held"
          ? { color: "blue", message: BOARD_TEXT.heldForReview }
          : { color: "green", message: BOARD_TEXT.posted },
      );
      onPosted?.();
      setPage(1);
      void refresh();
      return true;
    } catch (error) {
      notifyFailure(error, BOARD_TEXT.postFailed);
      return false;
    }
  };

  const askDelete = async (post: BoardPostView) => {
    const ok = await confirmAction({
      title: "投稿の削除",
      message: `投稿「${post.title}」を削除しますか？`,
      irreversible: true,
    });
    if (!ok) return;
    setDeletingId(post.id);
    try {
      await remove(post.id);
      notifications.show({ color: "green", message: BOARD_TEXT.deleted });
      // The card and its button are gone: the keyboard goes on from the heading.
      headingRef.current?.focus();
      // The last post of a page gone: show the page before it.
      if (postsOnPage === 1 && page > 1) setPage(page - 1);
      await refresh();
    } catch (error) {
      notifyFailure(error, BOARD_TEXT.deleteFailed);
    } finally {
      setDeletingId(null);
    }
  };

  return { headingRef, deletingId, submit, askDelete };
}
