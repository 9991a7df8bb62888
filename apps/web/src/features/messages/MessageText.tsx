import { LONG_TEXT_COLLAPSE_CHARS } from "@enmusubi/shared";
import { UnstyledButton } from "@mantine/core";
import classes from "./messages.module.css";

/**
 * A message body as plain text (never HTML). Longer than 100 characters it is collapsed to 4.5
 * lines with a fade (spec §9). With `onOpen` the preview is a button opening the detail.
 */
export function MessagePreview({ body, onOpen, label }: { body: string; onOpen?: () => void; label?: string }) {
  const long = body.length > LONG_TEXT_COLLAPSE_CHARS;
  const className = `${classes.preview} ${long ? classes.collapsed : ""}`;
  if (!onOpen)
    return (
      <div className={className} data-testid="message-preview">
        {body}
      </div>
    );
  return (
    <UnstyledButton
      className={className}
      onClick={onOpen}
      aria-label={label}
      data-testid="message-preview"
      data-collapsed={long || undefined}
    >
      {body}
    </UnstyledButton>
  );
}
