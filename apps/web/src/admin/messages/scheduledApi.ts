import type { ScheduledSource as SharedScheduledSource } from "@enmusubi/shared";
import { SCHEDULER_POLL_MS } from "@enmusubi/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { scheduleApplies, scheduleTime } from "../../features/messages/schedule";
import type { RouterOutputs } from "../../lib/api-types";
import { useTRPC } from "../../lib/trpc";

/**
 * Scheduled sending (spec §3 "Scheduled message", §4), kept on the server (`scheduled` router).
 * The lists refresh at the scheduler's pace so sent entries leave and failed ones show their error.
 */
export type ScheduledSource = Extract<SharedScheduledSource, `admin:${string}`>;
export type ScheduledView = RouterOutputs["scheduled"]["list"][number];

/** The signed-in administrator's pending and failed entries, optionally from one screen. */
export function useScheduledList(source?: ScheduledSource, enabled = true) {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.scheduled.list.queryOptions(source ? { source } : {}),
    refetchInterval: SCHEDULER_POLL_MS,
    enabled,
  });
}

/** Every administrator's pending entries (the user-management panel). */
export function useAdminPending(enabled = true) {
  const trpc = useTRPC();
  return useQuery({ ...trpc.scheduled.adminPending.queryOptions(), refetchInterval: SCHEDULER_POLL_MS, enabled });
}

function useInvalidateScheduled() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.scheduled.pathKey() });
}

export function useCreateScheduled() {
  const trpc = useTRPC();
  const invalidate = useInvalidateScheduled();
  return useMutation(trpc.scheduled.create.mutationOptions({ onSettled: invalidate }));
}

export function useCancelScheduled() {
  const trpc = useTRPC();
  const invalidate = useInvalidateScheduled();
  return useMutation(trpc.scheduled.cancel.mutationOptions({ onSettled: invalidate }));
}

/** The time to send at, or null to send at once: the compose dialogs' one rule (features/messages/schedule.ts). */
export function scheduledTime(enabled: boolean, value: string, now = new Date()): Date | null {
  const schedule = { enabled, at: value };
  return scheduleApplies(schedule, now) ? scheduleTime(schedule) : null;
}
