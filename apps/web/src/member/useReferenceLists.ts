import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../lib/trpc";

/**
 * The occupation and annual-income lists the member shell loads (spec §2), shared by its screens.
 * `enabled: false` holds the request back (the shell asks once the first screen is drawn).
 */
export function useReferenceLists({ enabled = true }: { enabled?: boolean } = {}) {
  const trpc = useTRPC();
  const occupations = useQuery({
    ...trpc.reference.occupations.list.queryOptions(),
    staleTime: 5 * 60_000,
    enabled,
  });
  const annualIncomes = useQuery({
    ...trpc.reference.annualIncomes.list.queryOptions(),
    staleTime: 5 * 60_000,
    enabled,
  });
  return { occupations, annualIncomes };
}
