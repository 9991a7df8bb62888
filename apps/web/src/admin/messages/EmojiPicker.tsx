import { EMOJI_PICKER_COLUMNS, EMOJI_PICKER_SIZES } from "@enmusubi/shared";
import { SimpleGrid, UnstyledButton } from "@mantine/core";

/** 60 emojis (spec §9 "Emoji pickers: 60 (10 columns)"). */
export const ADMIN_EMOJIS = [
  "😀",
  "😃",
  "😄",
  "😁",
  "😆",
  "😅",
  "😂",
  "🤣",
  "😊",
  "😇",
  "🙂",
  "🙃",
  "😉",
  "😌",
  "😍",
  "🥰",
  "😘",
  "😗",
  "😙",
  "😚",
  "😋",
  "😛",
  "😝",
  "😜",
  "🤪",
  "🤗",
  "🤭",
  "🤔",
  "😎",
  "🥳",
  "😏",
  "😒",
  "😞",
  "😔",
  "😟",
  "😕",
  "🙁",
  "😣",
  "😢",
  "😭",
  "😤",
  "😳",
  "🥺",
  "😱",
  "😴",
  "👍",
  "👏",
  "🙏",
  "💪",
  "👋",
  "❤️",
  "💕",
  "💖",
  "💗",
  "💓",
  "💌",
  "🌸",
  "🌹",
  "🎉",
  "✨",
].slice(0, EMOJI_PICKER_SIZES.large);

/** A grid of emoji buttons; each is named by its emoji for screen readers and reachable by Tab. */
export function EmojiPicker({ onPick, label = "絵文字" }: { onPick: (emoji: string) => void; label?: string }) {
  return (
    <SimpleGrid
      role="group"
      aria-label={label}
      cols={EMOJI_PICKER_COLUMNS}
      spacing={2}
      verticalSpacing={2}
      maw={EMOJI_PICKER_COLUMNS * 36}
    >
      {ADMIN_EMOJIS.map((emoji) => (
        <UnstyledButton
          key={emoji}
          type="button"
          onClick={() => onPick(emoji)}
          aria-label={`絵文字 ${emoji} を挿入`}
          className="admin-emoji"
          style={{ fontSize: 20, lineHeight: "30px", textAlign: "center", borderRadius: 4, minWidth: 24 }}
        >
          {emoji}
        </UnstyledButton>
      ))}
    </SimpleGrid>
  );
}

/** Inserts `emoji` at the textarea's caret (or at the end) and returns the new text. */
export function insertAtCaret(textarea: HTMLTextAreaElement | null, value: string, emoji: string): string {
  if (!textarea) return value + emoji;
  const start = textarea.selectionStart ?? value.length;
  const end = textarea.selectionEnd ?? value.length;
  return value.slice(0, start) + emoji + value.slice(end);
}
