import type { AppRouter } from "@enmusubi/api";
import { TRPC_MAX_URL_LENGTH } from "@enmusubi/shared";
import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink, TRPCClientError } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import superjson from "superjson";
import { clearSession, getToken } from "./session";

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

export function createApiClient() {
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        // Subscriptions (the live unread count) over SSE; EventSource cannot send headers, so the
        // token goes as a connection parameter, read again on every (re)connection.
        condition: (op) => op.type === "subscription",
        true: httpSubscriptionLink({
          url: "/trpc",
          transformer: superjson,
          connectionParams: () => ({ token: getToken() ?? "" }),
        }),
        false: httpBatchLink({
          url: "/trpc",
          transformer: superjson,
          // A batch longer than the server accepts is split, never refused (414): a full page of
          // per-row reads lost the user management buttons.
          maxURLLength: TRPC_MAX_URL_LENGTH,
          headers() {
            const token = getToken();
            return token ? { authorization: `Bearer ${token}` } : {};
          },
        }),
      }),
    ],
  });
}

/** True when the server no longer accepts the stored session (expired, password changed, deleted). */
export function isUnauthorized(error: unknown): boolean {
  return error instanceof TRPCClientError && error.data?.code === "UNAUTHORIZED";
}

/**
 * One query client for the app. A call answered UNAUTHORIZED ends the session and returns to
 * /login, wherever it came from.
 */
export function createQueryClient(onSessionEnded: () => void = () => window.location.assign("/login")) {
  const handle = (error: unknown) => {
    if (isUnauthorized(error) && getToken()) {
      clearSession();
      onSessionEnded();
    }
  };
  return new QueryClient({
    queryCache: new QueryCache({ onError: handle }),
    mutationCache: new MutationCache({ onError: handle }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (count, error) => count < 2 && !(error instanceof TRPCClientError && error.data?.httpStatus < 500),
      },
    },
  });
}

/** The server's Japanese message, else the screen's fallback text (spec §8 "server message, else …"). */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof TRPCClientError && error.message && error.data?.httpStatus !== 500) return error.message;
  return fallback;
}

/**
 * A list that cannot be read: the server's Japanese message when it refused the request's input
 * (400: a search too long…), else the screen's own text (spec §8) — never a transport's English.
 */
export function refusalOr(error: unknown, fallback: string): string {
  return error instanceof TRPCClientError && error.data?.httpStatus === 400 && error.message ? error.message : fallback;
}
