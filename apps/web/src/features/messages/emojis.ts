/**
 * The emoji sets of the pickers (spec §9: 60 in 10 columns for replies and the mail screens, 20
 * for favourites, 30 for board posts). Each smaller set is the start of the large one. Unicode 6
 * emoji only, which every phone and PC of our members can draw.
 */
export const EMOJIS: readonly string[] = [
  "😀",
  "😃",
  "😄",
  "😁",
  "😆",
  "😅",
  "😂",
  "😎",
  "😊",
  "😇",
  "😲",
  "😉",
  "😌",
  "😍",
  "😵",
  "😘",
  "😗",
  "😙",
  "😚",
  "😋",
  "😛",
  "😜",
  "😞",
  "😝",
  "😣",
  "😖",
  "😫",
  "😐",
  "😶",
  "😏",
  "😒",
  "😩",
  "😬",
  "😔",
  "😪",
  "😴",
  "😷",
  "😕",
  "😢",
  "😭",
  "😤",
  "😳",
  "😱",
  "😨",
  "😰",
  "🙏",
  "👍",
  "👏",
  "👋",
  "💪",
  "❤️",
  "💗",
  "💛",
  "💚",
  "💙",
  "💜",
  "💕",
  "✨",
  "🌸",
  "🎉",
];

/** Inserts `insert` into `value` in place of the selection [start, end); returns the text and the caret after it. */
export function insertAt(value: string, insert: string, start: number, end: number): { text: string; caret: number } {
  const from = Math.max(0, Math.min(start, value.length));
  const to = Math.max(from, Math.min(end, value.length));
  return { text: value.slice(0, from) + insert + value.slice(to), caret: from + insert.length };
}
