import { useState } from "react";

/**
 * A message being written to one partner, kept in localStorage until it is sent or discarded
 * (issue 24): leaving the conversation, closing the tab or an Escape loses nothing. The key names
 * the member and the partner, so another member signing in on the same browser never sees it.
 */
const PREFIX = "enmusubi:draft:v1";

export const draftKey = (memberId: string, partnerId: string) => `${PREFIX}:${memberId}:${partnerId}`;

function read(key: string): string {
  try {
    return localStorage.getItem(key) ?? "";
  } catch {
    return "";
  }
}

function write(key: string, text: string): void {
  try {
    if (text.trim() === "") localStorage.removeItem(key);
    else localStorage.setItem(key, text);
  } catch {
    // Storage full or refused (private browsing): the draft lives on screen only.
  }
}

/** The draft to `partnerId` (mount one per partner: `key={partnerId}`); `clear` after a send or a discard. */
export function useDraft(memberId: string, partnerId: string) {
  const key = draftKey(memberId, partnerId);
  const [text, setText] = useState(() => read(key));
  return {
    text,
    setText(next: string) {
      setText(next);
      write(key, next);
    },
    clear() {
      setText("");
      write(key, "");
    },
  };
}
