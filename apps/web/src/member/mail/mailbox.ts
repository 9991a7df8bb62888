import type { ScheduledSource } from "@enmusubi/shared";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { MemberMessage, PartyLike } from "../../features/messages";
import { useTRPC } from "../../lib/trpc";

/** How many of the newest messages a mail screen loads (the server's page limit). */
export const MAIL_SCREEN_LIMIT = 100;

/** The newest messages of one box. */
export function useBox(box: "inbox" | "unread" | "sent") {
  const trpc = useTRPC();
  return useQuery(trpc.messages.list.queryOptions({ box, page: 1, limit: MAIL_SCREEN_LIMIT }));
}

/** Distinct parties of `messages` (the sender / recipient filter's options), by name. */
export function partiesOf(messages: MemberMessage[], side: "from" | "to"): PartyLike[] {
  const seen = new Map<string, PartyLike>();
  for (const m of messages) if (!seen.has(m[side].id)) seen.set(m[side].id, m[side]);
  return [...seen.values()].sort((a, b) => (a.name ?? "").localeCompare(b.name ?? "", "ja"));
}

/** Refreshes every mailbox view after a send, a reply, a mark-as-read or a schedule. */
export function useRefreshMail() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries(trpc.messages.pathFilter());
    void queryClient.invalidateQueries(trpc.scheduled.list.pathFilter());
  };
}

export type MailSource = Extract<ScheduledSource, "user:unread" | "user:received" | "user:sent">;
