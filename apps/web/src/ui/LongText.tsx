import { LONG_TEXT_COLLAPSE_CHARS } from "@enmusubi/shared";
import { Spoiler, Text } from "@mantine/core";

const TEXT_STYLE = { whiteSpace: "pre-wrap", overflowWrap: "anywhere" } as const;
/** About 50 px (spec §9), rounded down to two whole lines of 14 px text so no line is cut in half. */
const SPOILER_HEIGHT = 44;

/** Plain text (never HTML); longer than 100 characters it collapses with a 続きを読む toggle (spec §9). */
export function LongText({ text }: { text: string }) {
  const body = (
    <Text size="sm" style={TEXT_STYLE}>
      {text}
    </Text>
  );
  if (text.length <= LONG_TEXT_COLLAPSE_CHARS) return body;
  return (
    <Spoiler maxHeight={SPOILER_HEIGHT} showLabel="続きを読む" hideLabel="閉じる">
      {body}
    </Spoiler>
  );
}
