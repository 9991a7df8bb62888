import { useLocation } from "react-router-dom";
import { ConversationList } from "./ConversationList";
import { ConversationView } from "./ConversationView";

/** The conversation a path names: /user/messages/:partnerId (null for the list, /user/messages). */
export function partnerIdOf(pathname: string): string | null {
  const match = /^\/user\/messages\/([^/]+)\/?$/.exec(pathname);
  return match?.[1] ? decodeURIComponent(match[1]) : null;
}

/** The メッセージ section (decision 0030): the conversation list, or one conversation (one per partner, remounted). */
export function Messages() {
  const partnerId = partnerIdOf(useLocation().pathname);
  return partnerId ? <ConversationView key={partnerId} partnerId={partnerId} /> : <ConversationList />;
}
