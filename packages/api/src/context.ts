import { resolveSession } from "./auth/session";
import type { ApiDeps, Session } from "./deps";
import { withRequestId } from "./request-scope";

/** A procedure's context: the host's dependencies (deps.ts), the caller's session and request. */

export interface Context extends ApiDeps {
  session: Session | null;
  ip: string;
  /** The HTTP request's id (X-Request-Id), written on the audit rows it causes (request-scope.ts). */
  requestId?: string;
}

/** The context without any transport: tests call procedures with it directly. */
export function createContextInner(
  deps: ApiDeps,
  session: Session | null,
  ip = "127.0.0.1",
  requestId?: string,
): Context {
  // Every field written out: `{ ...deps, session }` (a spread followed by a property) takes V8's
  // slow path, about 4 µs per request here (decision 0037). The type makes a new dependency a
  // compile error until it is added below.
  const context: { [K in keyof Required<ApiDeps>]: ApiDeps[K] } & Omit<Context, keyof ApiDeps> = {
    // The audit rows the call writes carry the request's id (request-scope.ts).
    db: requestId ? withRequestId(deps.db, requestId) : deps.db,
    tokens: deps.tokens,
    passwords: deps.passwords,
    limiter: deps.limiter,
    uploadsDir: deps.uploadsDir,
    photoUrls: deps.photoUrls,
    links: deps.links,
    noticeLiveMinutes: deps.noticeLiveMinutes,
    publicUrl: deps.publicUrl,
    onMailQueued: deps.onMailQueued,
    sms: deps.sms,
    screening: deps.screening,
    mailbox: deps.mailbox,
    operator: deps.operator,
    observeProcedure: deps.observeProcedure,
    session,
    ip,
    requestId,
  };
  return context;
}

export async function createContext(
  deps: ApiDeps,
  req: { authorization?: string; ip: string; requestId?: string },
): Promise<Context> {
  return createContextInner(deps, await resolveSession(deps, req.authorization), req.ip, req.requestId);
}
