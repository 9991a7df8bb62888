import { KNOWN_ACTIONS, POINT_COST_TABLE } from "@enmusubi/shared";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import { useState } from "react";
import { confirmCost } from "../../features/messages";
import { emitPointsDeducted } from "../../lib/points";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { DISCOVERY_MSG, type PublicProfile } from "./types";

/** A point cost from reference.pointCosts.list, the spec §9 fallback table when it cannot be fetched. */
export function usePointCost(actionName: string): number {
  const trpc = useTRPC();
  const { data } = useQuery(trpc.reference.pointCosts.list.queryOptions());
  const row = data?.find((c) => c.actionName === actionName);
  if (row) return row.pointCost;
  return POINT_COST_TABLE.find((c) => c.actionName === actionName)?.fallbackCost ?? 0;
}

function isPaymentRequired(error: unknown): boolean {
  return error instanceof TRPCClientError && error.data?.httpStatus === 402;
}

/**
 * The paid profile view (spec §6 profile_view): the paid-action confirmation with the cost (skipped
 * when free), then members.viewProfile; the balance follows through points:deducted. Not enough
 * points → 「あなたのポイント数が足りません。」.
 */
export function usePaidProfileView() {
  const trpc = useTRPC();
  const cost = usePointCost(KNOWN_ACTIONS.profileView);
  const view = useMutation(trpc.members.viewProfile.mutationOptions());
  const [shown, setShown] = useState<PublicProfile | null>(null);
  const [pendingId, setPendingId] = useState<string | null>(null);

  const open = async (id: string) => {
    if (pendingId) return;
    if (!(await confirmCost(cost, "プロフィールの閲覧"))) return;
    setPendingId(id);
    try {
      const result = await view.mutateAsync({ id });
      emitPointsDeducted(result.remainingPoints);
      setShown(result.profile);
    } catch (error) {
      notifications.show({
        color: "red",
        message: isPaymentRequired(error)
          ? DISCOVERY_MSG.notEnoughPoints
          : errorMessage(error, DISCOVERY_MSG.viewFailed),
      });
    } finally {
      setPendingId(null);
    }
  };

  return { cost, open, pendingId, shown, close: () => setShown(null) };
}
