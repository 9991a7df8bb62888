import { QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { createApiClient, createQueryClient, TRPCProvider } from "./trpc";

/**
 * The API client and the query cache, one of each for the whole app. This module loads with the
 * first screen that calls the API through hooks (sign-up, the legal pages, the shells, the
 * forgot-password dialog), so the /login entry carries neither tRPC nor TanStack Query; /login
 * itself signs in through `trpcClient` after importing this module on submit.
 */
export const queryClient = createQueryClient();
export const trpcClient = createApiClient();

export function ApiProviders({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
