import type { AppRouter } from "@enmusubi/api";
import { MantineProvider } from "@mantine/core";
import { DatesProvider } from "@mantine/dates";
import { ModalsProvider } from "@mantine/modals";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import { createTRPCClient, type TRPCLink } from "@trpc/client";
import type {
  AnyTRPCProcedure,
  AnyTRPCSubscriptionProcedure,
  inferProcedureInput,
  inferProcedureOutput,
  inferTransformedProcedureOutput,
  TRPCRouterRecord,
} from "@trpc/server";
import { observable } from "@trpc/server/observable";
import type { ReactElement } from "react";
import { MemoryRouter } from "react-router-dom";
import { DATES_SETTINGS } from "../lib/dates";
import { TRPCProvider } from "../lib/trpc";
import { cssVariablesResolver, theme } from "../theme";

/** Every procedure of the router as `{ path: "profile.me", procedure }`, nested routers flattened. */
type ProcedureEntry<TRecord extends TRPCRouterRecord, TPrefix extends string = ""> = {
  [K in keyof TRecord & string]: TRecord[K] extends AnyTRPCProcedure
    ? { path: `${TPrefix}${K}`; procedure: TRecord[K] }
    : TRecord[K] extends TRPCRouterRecord
      ? ProcedureEntry<TRecord[K], `${TPrefix}${K}.`>
      : never;
}[keyof TRecord & string];

type Entries = ProcedureEntry<AppRouter["_def"]["record"]>;

/** What the client receives: a query's or mutation's answer, or one value of a subscription. */
type Answer<TProcedure extends AnyTRPCProcedure> = TProcedure extends AnyTRPCSubscriptionProcedure
  ? inferProcedureOutput<TProcedure> extends AsyncIterable<infer TValue>
    ? TValue
    : never
  : inferTransformedProcedureOutput<AppRouter, TProcedure>;

/**
 * The test double's answers, typed from the router: a handler takes the procedure's input and
 * returns (or resolves to) its answer, so a fixture of the wrong shape does not compile.
 */
export type Handlers = {
  [E in Entries as E["path"]]?: (
    input: inferProcedureInput<E["procedure"]>,
  ) => Answer<E["procedure"]> | Promise<Answer<E["procedure"]>>;
};

/**
 * A terminating link answering each procedure from `handlers` (by path, e.g. "profile.me"), so
 * components run against typed procedures without a server. Calls are recorded in `calls`.
 */
function handlerLink(handlers: Handlers, calls: { path: string; input: unknown }[]): TRPCLink<AppRouter> {
  return () =>
    ({ op }) =>
      observable((observer) => {
        calls.push({ path: op.path, input: op.input });
        const handler = (handlers as Record<string, ((input: unknown) => unknown) | undefined>)[op.path];
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

/** `route`: the address the screen is opened at (its search parameters included). */
export function renderWithProviders(ui: ReactElement, handlers: Handlers = {}, options: { route?: string } = {}) {
  const calls: { path: string; input: unknown }[] = [];
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const client = createTRPCClient<AppRouter>({ links: [handlerLink(handlers, calls)] });
  const result = render(
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <DatesProvider settings={DATES_SETTINGS}>
        <QueryClientProvider client={queryClient}>
          <TRPCProvider trpcClient={client} queryClient={queryClient}>
            <ModalsProvider>
              <MemoryRouter initialEntries={options.route ? [options.route] : undefined}>{ui}</MemoryRouter>
            </ModalsProvider>
          </TRPCProvider>
        </QueryClientProvider>
      </DatesProvider>
    </MantineProvider>,
  );
  return { ...result, calls, queryClient };
}
