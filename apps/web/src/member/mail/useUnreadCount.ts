import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useSubscription } from "@trpc/tanstack-react-query";
import { useRef } from "react";
import { useTRPC } from "../../lib/trpc";

/**
 * The live unread count (messages.onUnreadCount over SSE): mounted once by the member shell. Each
 * count is written to the messages.unreadCount cache (what `useUnreadCount` reads) and, when the
 * mailbox changes, its lists are refreshed, so a new message shows without a reload. `enabled:
 * false` holds the connection back (the shell opens it once the first screen is drawn; the server
 * answers a new connection with the current count, so nothing is missed meanwhile).
 */
export function useUnreadCountSubscription({ enabled = true }: { enabled?: boolean } = {}): void {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const answered = useRef(false);
  useSubscription(
    trpc.messages.onUnreadCount.subscriptionOptions(undefined, {
      enabled,
      onData: (data) => {
        const key = trpc.messages.unreadCount.queryKey();
        const previous = queryClient.getQueryData(key);
        queryClient.setQueryData(key, { count: data.count });
        // Every answer after the first is a change of the mailbox (a message in or out, a read);
        // so is a first answer that differs from the count fetched before the connection opened.
        const first = !answered.current;
        answered.current = true;
        if (previous && (!first || previous.count !== data.count)) {
          void queryClient.invalidateQueries(trpc.messages.list.pathFilter());
          void queryClient.invalidateQueries(trpc.messages.contacts.pathFilter());
          // The conversation list and the conversation open (issue 24) show the new message too.
          void queryClient.invalidateQueries(trpc.messages.conversations.pathFilter());
          void queryClient.invalidateQueries(trpc.messages.thread.pathFilter());
        }
      },
    }),
  );
}

/** The unread count (kept live by the shell's subscription; fetched once if it has not answered yet). */
export function useUnreadCount(): number | undefined {
  const trpc = useTRPC();
  const { data } = useQuery({ ...trpc.messages.unreadCount.queryOptions(), staleTime: Number.POSITIVE_INFINITY });
  return data?.count;
}
