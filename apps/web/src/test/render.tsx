import type { AppRouter } from "@enmusubi/api";
import { MantineProvider } from "@mantine/core";
import { DatesProvider } from "@mantine/dates";
import { ModalsProvider } from "@mantine/modals";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import { createTRPCClient, type TRPCLink } from "@trpc/client";
import { observable } from "@trpc/server/observable";
import type { ReactElement } from "react";
import { MemoryRouter } from "react-router-dom";
import { DATES_SETTINGS } from "../lib/dates";
import { TRPCProvider } from "../lib/trpc";
import { cssVariablesResolver, theme } from "../theme";

export type Handlers = Record<string, (input: unknown) => unknown>;

/**
 * A terminating link answering each procedure from `handlers` (by path, e.g. "profile.me"), so
 * components run against typed procedures without a server. Calls are recorded in `calls`.
 */
function handlerLink(handlers: Handlers, calls: { path: string; input: unknown }[]): TRPCLink<AppRouter> {
  return () =>
    ({ op }) =>
      observable((observer) => {
        calls.push({ path: op.path, input: op.input });
        const handler = handlers[op.path];
        Promise.resolve()
          .then(() => {
            if (!handler) throw new Error(`no handler for ${op.path}`);
            return handler(op.input);
          })
          .then(
            (data) => {
              observer.next({ result: { type: "data", data } });
              observer.complete();
            },
            (error: unknown) => observer.error(error as never),
          );
      });
}

export function renderWithProviders(ui: ReactElement, handlers: Handlers = {}) {
  const calls: { path: string; input: unknown }[] = [];
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const client = createTRPCClient<AppRouter>({ links: [handlerLink(handlers, calls)] });
  const result = render(
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <DatesProvider settings={DATES_SETTINGS}>
        <QueryClientProvider client={queryClient}>
          <TRPCProvider trpcClient={client} queryClient={queryClient}>
            <ModalsProvider>
              <MemoryRouter>{ui}</MemoryRouter>
            </ModalsProvider>
          </TRPCProvider>
        </QueryClientProvider>
      </DatesProvider>
    </MantineProvider>,
  );
  return { ...result, calls, queryClient };
}
