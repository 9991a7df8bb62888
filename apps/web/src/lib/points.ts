import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { useTRPC } from "./trpc";

/** Spec §4: a window event 'points:deducted' carrying remainingPoints updates the shown balance. */
export const POINTS_DEDUCTED_EVENT = "points:deducted";

export interface PointsDeductedDetail {
  remainingPoints: number;
}

export function emitPointsDeducted(remainingPoints: number): void {
  window.dispatchEvent(new CustomEvent<PointsDeductedDetail>(POINTS_DEDUCTED_EVENT, { detail: { remainingPoints } }));
}

/** Keeps the cached current user's balance in step with every deduction, wherever it happened. */
export function usePointsDeductedListener(): void {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  useEffect(() => {
    const onDeducted = (event: Event) => {
      const remaining = (event as CustomEvent<Partial<PointsDeductedDetail>>).detail?.remainingPoints;
      if (typeof remaining !== "number" || !Number.isFinite(remaining)) return;
      queryClient.setQueryData(trpc.profile.me.queryKey(), (user) => (user ? { ...user, points: remaining } : user));
    };
    window.addEventListener(POINTS_DEDUCTED_EVENT, onDeducted);
    return () => window.removeEventListener(POINTS_DEDUCTED_EVENT, onDeducted);
  }, [trpc, queryClient]);
}
