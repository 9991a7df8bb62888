import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The request a procedure serves, for what the services record about it without every call
 * passing it along: the audit rows (audit/audit-log.ts) carry its id. Entered by the procedure
 * builders' first middleware (trpc.ts) from `ctx.requestId`; outside a request (jobs, tests,
 * the CLI) there is none.
 */
const scope = new AsyncLocalStorage<{ requestId: string | undefined }>();

export function runInRequest<T>(requestId: string | undefined, fn: () => T): T {
  return scope.run({ requestId }, fn);
}

/** The id of the request being served (X-Request-Id), or undefined. */
export const currentRequestId = (): string | undefined => scope.getStore()?.requestId;
