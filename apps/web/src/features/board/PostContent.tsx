import { POST_CONTENT_FOLD_CHARS } from "@enmusubi/shared";
import { Box, Button } from "@mantine/core";
import { useId, useState } from "react";
import classes from "./board.module.css";

/** Characters counted as the reader sees them (an emoji is one), not UTF-16 units. */
export function visibleLength(text: string): number {
  return Array.from(text).length;
}

/** The first `limit` characters (never cutting an emoji in half) and an ellipsis. */
export function foldText(text: string, limit: number): string {
  const chars = Array.from(text);
  return chars.length > limit ? `${chars.slice(0, limit).join("")}…` : text;
}

/**
 * A post's content as plain text (HTML shows as typed). Longer than `foldAt` characters (members
 * 150, board management 100, spec §9) it shows its start with 続きを読む / 閉じる; the button
 * says whether it is open (aria-expanded) and which text it controls.
 */
export function PostContent({ content, foldAt = POST_CONTENT_FOLD_CHARS }: { content: string; foldAt?: number }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const long = visibleLength(content) > foldAt;
  return (
    <Box>
      <div id={id} className={classes.content} data-testid="post-content" data-folded={(long && !open) || undefined}>
        {long && !open ? foldText(content, foldAt) : content}
      </div>
      {long && (
        <Button
          variant="subtle"
          size="compact-sm"
          mt={4}
          px={4}
          aria-expanded={open}
          aria-controls={id}
          onClick={() => setOpen((o) => !o)}
        >
          {open ? "閉じる" : "続きを読む"}
        </Button>
      )}
    </Box>
  );
}
