import { POST_TITLE_MAX } from "@enmusubi/shared";
import { Button, Group, Modal, Stack, Text, Textarea, TextInput } from "@mantine/core";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { EmojiPicker, insertAt } from "../messages";
import { BOARD_TEXT } from "./text";

export interface NewPost {
  title: string;
  content: string;
}

/**
 * The new-post dialog (my posts: 30 emojis; board management: title and content only). An emoji
 * goes in at the caret of the field last edited (the content by default). Both fields are trimmed
 * and required (spec §5 「タイトルと内容を入力してください」), the title at most 100 characters.
 * `onSubmit` answers true to close (posted), false to stay open with the text kept (failed).
 */
export function NewPostDialog({
  opened,
  onClose,
  onSubmit,
  contentMax,
  withEmojis = true,
  costNote,
  title = "新規投稿",
}: {
  opened: boolean;
  onClose: () => void;
  onSubmit: (post: NewPost) => Promise<boolean>;
  contentMax: number;
  withEmojis?: boolean;
  costNote?: ReactNode;
  title?: string;
}) {
  const [postTitle, setPostTitle] = useState("");
  const [content, setContent] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const titleRef = useRef<HTMLInputElement>(null);
  const contentRef = useRef<HTMLTextAreaElement>(null);
  const lastField = useRef<"title" | "content">("content");

  useEffect(() => {
    if (opened) {
      setPostTitle("");
      setContent("");
      setBusy(false);
      setError(null);
      lastField.current = "content";
    }
  }, [opened]);

  const insertEmoji = (emoji: string) => {
    const isTitle = lastField.current === "title";
    const el = isTitle ? titleRef.current : contentRef.current;
    const value = isTitle ? postTitle : content;
    const { text, caret } = insertAt(
      value,
      emoji,
      el?.selectionStart ?? value.length,
      el?.selectionEnd ?? value.length,
    );
    // The limits hold with emoji too (counted as the server counts: UTF-16 units).
    if (text.length > (isTitle ? POST_TITLE_MAX : contentMax)) return;
    // Committed at once so the focus is back in the field within the click (see useInsertAtCaret).
    flushSync(() => (isTitle ? setPostTitle : setContent)(text));
    if (!el) return;
    el.focus();
    el.setSelectionRange(caret, caret);
  };

  const submit = async () => {
    const trimmed = { title: postTitle.trim(), content: content.trim() };
    if (!trimmed.title || !trimmed.content) {
      setError(BOARD_TEXT.required);
      return;
    }
    if (busy) return;
    setError(null);
    setBusy(true);
    try {
      if (await onSubmit(trimmed)) onClose();
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened={opened} onClose={busy ? () => {} : onClose} title={title} centered size="lg">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Stack gap="sm">
          <TextInput
            ref={titleRef}
            label="タイトル"
            data-autofocus
            required
            value={postTitle}
            maxLength={POST_TITLE_MAX}
            onFocus={() => {
              lastField.current = "title";
            }}
            onChange={(event) => {
              setPostTitle(event.currentTarget.value);
              setError(null);
            }}
            description={`${postTitle.length} / ${POST_TITLE_MAX}文字`}
            disabled={busy}
          />
          <Textarea
            ref={contentRef}
            label="内容"
            required
            rows={6}
            resize="vertical"
            value={content}
            maxLength={contentMax}
            onFocus={() => {
              lastField.current = "content";
            }}
            onChange={(event) => {
              setContent(event.currentTarget.value);
              setError(null);
            }}
            description={`${content.length.toLocaleString("ja-JP")} / ${contentMax.toLocaleString("ja-JP")}文字`}
            disabled={busy}
          />
          {withEmojis && <EmojiPicker size="board" onPick={insertEmoji} disabled={busy} />}
          {costNote && (
            <Text size="sm" c="dimmed">
              {costNote}
            </Text>
          )}
          {error && (
            <Text size="sm" c="red" role="alert" data-testid="post-error">
              {error}
            </Text>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={busy}>
              キャンセル
            </Button>
            <Button type="submit" loading={busy}>
              投稿する
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
