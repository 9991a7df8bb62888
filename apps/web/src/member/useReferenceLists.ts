import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../lib/trpc";

/** The occupation and annual-income lists the member shell loads (spec §2), shared by its screens. */
export function useReferenceLists() {
  const trpc = useTRPC();
  const occupations = useQuery({ ...trpc.reference.occupations.list.queryOptions(), staleTime: 5 * 60_000 });
  const annualIncomes = useQuery({ ...trpc.reference.annualIncomes.list.queryOptions(), staleTime: 5 * 60_000 });
  return { occupations, annualIncomes };
}
