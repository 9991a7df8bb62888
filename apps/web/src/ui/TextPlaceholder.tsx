import { Skeleton, Text } from "@mantine/core";

/**
 * A line of text not loaded yet: a skeleton exactly one line high, so the page keeps its height
 * when the text comes. With `size`, a line of that text size; without, a line of the text around
 * it (a table cell's, a card's). Hidden from assistive technology: the screen says it is loading
 * elsewhere (a status, or aria-busy).
 */
export function TextPlaceholder({ size, width = "8em" }: { size?: "xs" | "sm" | "xl"; width?: string }) {
  return (
    <Skeleton visible width={width} aria-hidden="true">
      {size ? <Text size={size}>{"\u00a0"}</Text> : "\u00a0"}
    </Skeleton>
  );
}
