import { MEMBER_MESSAGE_PAGE_SIZE, type MemberMessageBox, type ScheduledSource } from "@enmusubi/shared";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTRPC } from "../../lib/trpc";

/**
 * One page of a box, paged and searched on the server (decision 0029): MEMBER_MESSAGE_PAGE_SIZE
 * messages, `partner` the sender's / recipient's name searched (blank: everyone). A new search
 * starts at page 1; a page that no longer exists (its messages read or gone) falls back to the last.
 */
export function useMailPage(box: MemberMessageBox, options: { withOperator?: boolean } = {}) {
  const trpc = useTRPC();
  const [page, setPage] = useState(1);
  const [partner, setPartner] = useState("");
  const query = useQuery({
    ...trpc.messages.list.queryOptions({
      box,
      page,
      limit: MEMBER_MESSAGE_PAGE_SIZE,
      ...(partner ? { partner } : {}),
      ...(options.withOperator ? { withOperator: true } : {}),
    }),
    // The page shown stays while the next one loads (no flash of 読み込み中 between pages).
    placeholderData: keepPreviousData,
  });
  const totalPages = query.data?.totalPages;
  useEffect(() => {
    if (totalPages !== undefined && page > totalPages) setPage(Math.max(1, totalPages));
  }, [page, totalPages]);
  return {
    query,
    page,
    setPage,
    partner,
    search(value: string) {
      setPartner(value.trim());
      setPage(1);
    },
  };
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
