import type { MouseEvent } from "react";

/** The id of each shell's main content, the skip link's target. */
export const MAIN_CONTENT_ID = "main-content";

/**
 * 「本文へスキップ」: the first stop of the keyboard in each shell, shown when focused, which moves
 * the focus to the main content past the header and the menu (16 menu links came first).
 * The target is focusable (`tabIndex={-1}`); the address does not change.
 */
export function SkipLink() {
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    const main = document.getElementById(MAIN_CONTENT_ID);
    if (!main) return;
    event.preventDefault();
    main.focus();
    main.scrollIntoView({ block: "start" });
  };
  return (
    <a href={`#${MAIN_CONTENT_ID}`} className="skip-link" onClick={skip}>
      本文へスキップ
    </a>
  );
}
