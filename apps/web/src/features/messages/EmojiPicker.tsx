import { EMOJI_PICKER_COLUMNS, EMOJI_PICKER_SIZES } from "@enmusubi/shared";
import { Box, Button, SimpleGrid, UnstyledButton } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { type RefObject, useId } from "react";
import { flushSync } from "react-dom";
import { EMOJIS, insertAt } from "./emojis";
import classes from "./messages.module.css";

export type EmojiPickerSize = keyof typeof EMOJI_PICKER_SIZES;

/**
 * The hand-made emoji picker (spec §9 sizes: large 60, favourites 20, board 30; 10 columns). A
 * toggle button shows the grid below it; every emoji is a button, reachable by keyboard.
 */
export function EmojiPicker({
  size = "large",
  onPick,
  disabled,
}: {
  size?: EmojiPickerSize;
  onPick: (emoji: string) => void;
  disabled?: boolean;
}) {
  const [opened, { toggle }] = useDisclosure(false);
  const id = useId();
  const emojis = EMOJIS.slice(0, EMOJI_PICKER_SIZES[size]);
  return (
    <Box>
      <Button
        variant="light"
        size="xs"
        onClick={toggle}
        aria-expanded={opened}
        aria-controls={id}
        disabled={disabled}
        leftSection={<span aria-hidden>😊</span>}
      >
        {opened ? "絵文字を閉じる" : "絵文字"}
      </Button>
      {opened && (
        <SimpleGrid
          id={id}
          role="group"
          aria-label="絵文字を選択"
          cols={EMOJI_PICKER_COLUMNS}
          spacing={2}
          verticalSpacing={2}
          mt="xs"
          className={classes.emojiGrid}
          data-testid="emoji-grid"
        >
          {emojis.map((emoji) => (
            <UnstyledButton
              key={emoji}
              className={classes.emoji}
              aria-label={`絵文字 ${emoji} を挿入`}
              onClick={() => onPick(emoji)}
              disabled={disabled}
            >
              {emoji}
            </UnstyledButton>
          ))}
        </SimpleGrid>
      )}
    </Box>
  );
}

/**
 * Inserts an emoji at the caret of the textarea (replacing a selection), keeps the caret after it
 * and gives the focus back to the textarea. The new value is committed synchronously (flushSync) so
 * the focus moves within the click itself: an Escape pressed right after a pick then closes the
 * dialog with the focus already in the textarea, and the dialog returns it to its opener (a focus
 * moved a frame later raced the dialog's focus return).
 */
export function useInsertAtCaret(
  ref: RefObject<HTMLTextAreaElement | null>,
  value: string,
  setValue: (next: string) => void,
): (emoji: string) => void {
  return (emoji) => {
    const el = ref.current;
    const start = el?.selectionStart ?? value.length;
    const end = el?.selectionEnd ?? value.length;
    const { text, caret } = insertAt(value, emoji, start, end);
    flushSync(() => setValue(text));
    if (!el) return;
    el.focus();
    el.setSelectionRange(caret, caret);
  };
}
