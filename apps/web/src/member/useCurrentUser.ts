import { useQuery } from "@tanstack/react-query";
import type { RouterOutputs } from "../lib/api-types";
import { useTRPC } from "../lib/trpc";

export type CurrentUser = RouterOutputs["profile"]["me"];

export function useCurrentUser() {
  const trpc = useTRPC();
  return useQuery(trpc.profile.me.queryOptions());
}
