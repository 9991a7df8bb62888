import { KNOWN_ACTIONS, POINT_COST_TABLE } from "@enmusubi/shared";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../lib/trpc";

/**
 * The send_message cost per member recipient (reference.pointCosts.list; the spec §9 fallback table
 * when it cannot be fetched).
 */
export function useSendCost(): number {
  const trpc = useTRPC();
  const { data } = useQuery(trpc.reference.pointCosts.list.queryOptions());
  const row = data?.find((c) => c.actionName === KNOWN_ACTIONS.sendMessage);
  if (row) return row.pointCost;
  return POINT_COST_TABLE.find((c) => c.actionName === KNOWN_ACTIONS.sendMessage)?.fallbackCost ?? 0;
}
