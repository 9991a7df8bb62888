import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPCClient } from "../../lib/trpc";

/**
 * Scheduled sending (spec §3 "Scheduled message", §4), kept on the server. The `scheduled` router
 * is being built alongside these screens; until it is part of AppRouter its contract is declared
 * here and called through the untyped client path (replace with `useTRPC().scheduled` once it lands).
 */
export type ScheduledSource = "admin:user-mgmt" | "admin:sent" | "admin:inbox" | "admin:email-mgmt";

export interface ScheduledView {
  id: string;
  type: "direct" | "batch" | "reply";
  recipients: { id: string; name: string | null }[];
  content: string;
  scheduledAt: Date | string;
  createdAt: Date | string;
  source: string;
  status: "pending" | "sending" | "failed" | string;
  lastError: string | null;
  senderUser: { id: string; name: string | null } | null;
}

export interface ScheduledCreateInput {
  type: "direct" | "batch" | "reply";
  recipientIds: string[];
  content: string;
  scheduledAt: Date;
  source: ScheduledSource;
  relatedMessageId?: string;
  markAsReplied?: boolean;
  markAsRead?: boolean;
  senderUserId?: string;
}

interface ScheduledClient {
  scheduled: {
    create: { mutate(input: ScheduledCreateInput): Promise<ScheduledView> };
    list: { query(input: { source?: ScheduledSource }): Promise<ScheduledView[]> };
    adminPending: { query(): Promise<ScheduledView[]> };
    cancel: { mutate(input: { id: string }): Promise<unknown> };
  };
}

const KEY = ["scheduled"] as const;

function useScheduledClient(): ScheduledClient["scheduled"] {
  return (useTRPCClient() as unknown as ScheduledClient).scheduled;
}

/** The signed-in administrator's pending and failed entries, optionally from one screen. */
export function useScheduledList(source?: ScheduledSource) {
  const client = useScheduledClient();
  return useQuery({
    queryKey: [...KEY, "list", source ?? "all"],
    queryFn: () => client.list.query(source ? { source } : {}),
    refetchInterval: 5000,
  });
}

/** Every administrator's pending entries (the user-management panel). */
export function useAdminPending() {
  const client = useScheduledClient();
  return useQuery({
    queryKey: [...KEY, "adminPending"],
    queryFn: () => client.adminPending.query(),
    refetchInterval: 5000,
  });
}

export function useCreateScheduled() {
  const client = useScheduledClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ScheduledCreateInput) => client.create.mutate(input),
    onSettled: () => queryClient.invalidateQueries({ queryKey: KEY }),
  });
}

export function useCancelScheduled() {
  const client = useScheduledClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => client.cancel.mutate({ id }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: KEY }),
  });
}

/** A schedule applies only when ticked and in the future (spec §4, §5); otherwise send at once. */
export function scheduledTime(enabled: boolean, value: string, now = new Date()): Date | null {
  if (!enabled || !value) return null;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) || at <= now ? null : at;
}
