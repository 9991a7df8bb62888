import { useState } from "react";

/**
 * A message being written to one partner, kept in localStorage until it is sent or discarded
 * (decision 0032): leaving the screen, closing the tab or an Escape loses nothing. One draft per member
 * and partner wherever the member writes to them: the conversation's reply box, the reply dialog of
 * 未読 / 受信 and the message dialog of search and favourites read and write the same one. The key
 * names the member and the partner, so another member signing in on the same browser never sees it.
 */
const PREFIX = "enmusubi:draft:v1";

export const draftKey = (memberId: string, partnerId: string) => `${PREFIX}:${memberId}:${partnerId}`;

function read(key: string | null): string {
  if (!key) return "";
  try {
    return localStorage.getItem(key) ?? "";
  } catch {
    return "";
  }
}

function write(key: string | null, text: string): void {
  if (!key) return;
  try {
    if (text.trim() === "") localStorage.removeItem(key);
    else localStorage.setItem(key, text);
  } catch {
    // Storage full or refused (private browsing): the draft lives on screen only.
  }
}

export interface Draft {
  text: string;
  setText(next: string): void;
  /** After a send or a discard: the text and the stored draft are gone. */
  clear(): void;
}

/**
 * The draft to `partnerId`. Either id missing (the member not loaded yet, a dialog closed): text on
 * screen only. When the partner changes (a dialog opened for someone else), the text is theirs.
 */
export function useDraft(memberId: string | undefined, partnerId: string | undefined): Draft {
  const key = memberId && partnerId ? draftKey(memberId, partnerId) : null;
  const [state, setState] = useState(() => ({ key, text: read(key) }));
  let current = state;
  if (state.key !== key) {
    current = { key, text: read(key) };
    setState(current);
  }
  return {
    text: current.text,
    setText(next: string) {
      setState({ key, text: next });
      write(key, next);
    },
    clear() {
      setState({ key, text: "" });
      write(key, "");
    },
  };
}
