import { KNOWN_ACTIONS, POINT_COST_TABLE } from "@enmusubi/shared";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import { useState } from "react";
import { confirmCost } from "../../features/messages";
import { emitPointsDeducted } from "../../lib/points";
import { useTRPC } from "../../lib/trpc";
import { notifyFailure } from "../../ui/notify-failure";
import { DISCOVERY_TEXT } from "./text";
import type { ProfileDetail } from "./types";

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
 * The paid profile view (spec §6 profile_view): the paid-action confirmation with what this view
 * costs, then members.viewProfile; the balance follows through points:deducted. Not enough
 * points → 「あなたのポイント数が足りません。」. The price quoted is the server's for this profile
 * now (members.viewPrice, decision 0026): a re-view within 24 hours (or one's own profile, a price of 0,
 * a prepaid credit) is free, so the confirmation is skipped; when the quote cannot be had, the
 * listed price is asked as before (the view charges what holds either way).
 */
export function usePaidProfileView() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const cost = usePointCost(KNOWN_ACTIONS.profileView);
  const view = useMutation(trpc.members.viewProfile.mutationOptions());
  const [shown, setShown] = useState<ProfileDetail | null>(null);
  const [pendingId, setPendingId] = useState<string | null>(null);

  /** What this view takes now, asked afresh each time (never a cached quote). */
  const quote = async (id: string): Promise<number> => {
    try {
      const price = await queryClient.fetchQuery({ ...trpc.members.viewPrice.queryOptions({ id }), staleTime: 0 });
      return price.cost;
    } catch {
      return cost;
    }
  };

  const open = async (id: string) => {
    if (pendingId) return;
    setPendingId(id);
    const confirmed = await confirmCost(await quote(id), "プロフィールの閲覧");
    if (!confirmed) {
      setPendingId(null);
      return;
    }
    try {
      const result = await view.mutateAsync({ id });
      emitPointsDeducted(result.remainingPoints);
      setShown(result.profile);
    } catch (error) {
      if (isPaymentRequired(error)) notifications.show({ color: "red", message: DISCOVERY_TEXT.notEnoughPoints });
      else notifyFailure(error, DISCOVERY_TEXT.viewFailed);
    } finally {
      setPendingId(null);
    }
  };

  return { cost, open, pendingId, shown, close: () => setShown(null) };
}
