import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../lib/trpc";

/** The member's own age verification standing (read by the banner, the page and the mail screens). */
export function useVerificationStatus() {
  const trpc = useTRPC();
  return useQuery(trpc.verification.status.queryOptions());
}
