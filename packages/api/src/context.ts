import { type Db, users } from "@enmusubi/db";
import type { Gender, Role, VerificationStatus } from "@enmusubi/shared";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { PasswordHasher } from "./auth/password";
import type { TokenService } from "./auth/tokens";
import { activeStale, touchActive } from "./members/activity";
import type { MailboxEvents } from "./messages/events";
import type { LinkSigner } from "./notices/links";
import type { PhotoUrlSigner } from "./photos/signed-url";
import { perDatabase, withRequestId } from "./request-scope";
import type { ScreeningRules } from "./screening/rules";
import type { RateLimiter } from "./security/rate-limit";

/** What the procedures need from the host. Built once by the server, or by a test. */
export interface ApiDeps {
  db: Db;
  tokens: TokenService;
  passwords: PasswordHasher;
  limiter: RateLimiter;
  /** Where stored photos live and how their public paths look (see photos/storage). */
  uploadsDir: string;
  /** Signs short-lived full-size photo URLs with the server's secret; the /uploads plugin verifies them (decision 0028). */
  photoUrls: PhotoUrlSigner;
  /** Signs the one-click links of notice mails (decision 0033). */
  links: LinkSigner;
  /** A member active this many minutes ago gets no notice mail (NOTICE_LIVE_MINUTES, default 10; decision 0033). */
  noticeLiveMinutes?: number;
  /** Base URL of the web app, used in mails. */
  publicUrl: string;
  /** Called after a transaction that queued mail has committed, to wake the delivery job. */
  onMailQueued(): void;
  /** Mailbox changes, for live unread counts (messages/events). */
  mailbox: MailboxEvents;
  /** The screening rules in force, compiled and refreshed when they change (screening/rules.ts, decision 0042). */
  screening: ScreeningRules;
  /** The operator's particulars for 特商法 and the terms (config; placeholders when unset). */
  operator?: OperatorInfo;
  /** Told of every procedure call when it ends (the server's /metrics); absent in tests. */
  observeProcedure?(call: { path: string; type: string; seconds: number; ok: boolean }): void;
}

export interface OperatorInfo {
  name: string;
  address: string;
  phone: string;
  email: string;
  /** インターネット異性紹介事業 届出番号 */
  datingBusinessNumber: string;
}

export interface Session {
  /** users.id */
  id: string;
  role: Role;
  /**
   * users.verification_status as the session's query read it, for this request only (a session
   * is resolved again on every request): the standing the procedure builders ask
   * (verification/standing.ts), with no statement of their own.
   */
  verificationStatus: VerificationStatus;
  /** users.gender as the same query read it (the search's same-gender filter), likewise. */
  gender: Gender;
}

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
  // slow path, about 4 µs per request here (issue 27). The type makes a new dependency a compile
  // error until it is added below.
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

/**
 * What a session's statement reads to decide whether the token still counts: the account's role,
 * token version, standing and gender, and whether the member's last activity is due to be recorded
 * again (decision 0029), so recording it costs no statement on most requests. A statement that
 * reads them must also require the account to be neither deleted nor suspended.
 */
export const sessionColumns = {
  id: users.id,
  role: users.role,
  tokenVersion: users.tokenVersion,
  verificationStatus: users.verificationStatus,
  gender: users.gender,
  // Whether this request should record the member's activity (members/activity.ts).
  activeStale: activeStale(),
};

/** The condition every session's statement holds the account to, for the id it is given as `id`. */
export const sessionAccount = () =>
  and(eq(users.id, sql.placeholder("id")), isNull(users.deletedAt), isNull(users.suspendedAt));

interface SessionRow extends Session {
  tokenVersion: number;
  activeStale: boolean;
}

/**
 * The session's one query, prepared once per database: drizzle builds its SQL once, and
 * PostgreSQL keeps the plan of the named statement on each connection. Every request that carries
 * a token runs it (or a statement that reads `sessionColumns` along with its own answer, see
 * `resolveSessionWith`), so nothing is cached between requests: a password change
 * (token_version), a deletion or a suspension refuses the token on its very next request.
 */
function sessionQuery(db: Db) {
  return db.select(sessionColumns).from(users).where(sessionAccount()).prepare("resolve_session");
}
const sessionQueryOf = perDatabase(sessionQuery);

const BEARER = /^Bearer\s+(\S+)$/i;
const UUID = /^[0-9a-f-]{36}$/i;

/**
 * Reads `Authorization: Bearer <token>`. A token is honoured only while its user exists, is not
 * deleted or suspended and has not changed password since it was signed (token_version).
 */
export async function resolveSession(deps: ApiDeps, authorization: string | undefined): Promise<Session | null> {
  return (await resolveSessionWith(deps, authorization, readSession))?.session ?? null;
}

/**
 * `resolveSession`, with the account read by `read`: a statement that answers something more in
 * the same round trip (the own view of GET /api/auth/me). `read` selects `sessionColumns` under
 * `sessionAccount()`; the token is checked against its row as against the session's own query's.
 */
export async function resolveSessionWith<R extends SessionRow>(
  deps: ApiDeps,
  authorization: string | undefined,
  read: (db: Db, id: string) => Promise<R | undefined>,
): Promise<{ session: Session; row: R } | null> {
  if (!authorization) return null;
  const match = BEARER.exec(authorization);
  if (!match?.[1]) return null;
  const claims = await deps.tokens.verify(match[1]);
  if (!claims || !UUID.test(claims.sub)) return null;
  const row = await read(deps.db, claims.sub);
  if (!row || row.tokenVersion !== claims.tv || row.role !== claims.role) return null;
  // At most once per LAST_ACTIVE_REFRESH_MINUTES per member: the read above said whether it is due.
  if (row.activeStale) await touchActive(deps.db, row.id);
  return { session: toSession(row), row };
}

async function readSession(db: Db, id: string) {
  const [user] = await sessionQueryOf(db).execute({ id });
  return user;
}

const toSession = (user: Session): Session => ({
  id: user.id,
  role: user.role,
  verificationStatus: user.verificationStatus,
  gender: user.gender,
});

/**
 * The session a request of `userId` gets now, as `resolveSession` reads it once the token is
 * checked (null: deleted or suspended). For callers with no token to check: test sessions are
 * built by it (testing.ts), so they are real ones.
 */
export async function sessionOf(db: Db, userId: string): Promise<Session | null> {
  const user = await readSession(db, userId);
  return user ? toSession(user) : null;
}

export async function createContext(
  deps: ApiDeps,
  req: { authorization?: string; ip: string; requestId?: string },
): Promise<Context> {
  return createContextInner(deps, await resolveSession(deps, req.authorization), req.ip, req.requestId);
}
