import { pointsCredited } from "@enmusubi/shared";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useSubscription } from "@trpc/tanstack-react-query";
import { useRef } from "react";
import { useTRPC } from "../../lib/trpc";

/**
 * The member's live stream (messages.onUnreadCount over SSE; decision 0031): mounted once by the
 * member shell. Each answer carries the unread count and the balance: the count is written to the
 * messages.unreadCount cache (what `useUnreadCount` reads), the balance to the current user's
 * (the header and the member card). When the mailbox changes, its lists are refreshed, so a new
 * message, or 既読 on a sent one, shows without a reload; a payment credited shows
 * 「{n}ptが加算されました」. `enabled: false` holds the connection back (the shell opens it once
 * the first screen is drawn; the server answers a new connection with the current figures, so
 * nothing is missed meanwhile).
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
        queryClient.setQueryData(trpc.profile.me.queryKey(), (user) =>
          user ? { ...user, points: data.points } : user,
        );
        if (data.credited.length > 0) {
          // Loaded when needed: the shell's first screen does not carry the notifications package.
          void import("@mantine/notifications").then(({ notifications }) => {
            for (const credit of data.credited) {
              notifications.show({ color: "green", message: pointsCredited(credit.points), autoClose: 8000 });
            }
          });
        }
        // A change of the mailbox (a message in or out, a read); so is a first answer whose count
        // differs from the one fetched before the connection opened. A balance change is not.
        const first = !answered.current;
        answered.current = true;
        const mailboxChanged = first
          ? previous !== undefined && previous.count !== data.count
          : data.change === "mailbox";
        if (mailboxChanged) {
          void queryClient.invalidateQueries(trpc.messages.list.pathFilter());
          void queryClient.invalidateQueries(trpc.messages.contacts.pathFilter());
          // The conversation list and the conversation open (decision 0030) show the new message too.
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
