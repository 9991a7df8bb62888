import { type Db, users } from "@enmusubi/db";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { ApiDeps, Session } from "../deps";
import { activeStale, touchActive } from "../members/activity";
import { grantLoginBonus, loginBonusDue } from "../points/bonuses";
import { perDatabase } from "../request-scope";

// A request's session: who the bearer token names, read again on every request (context.ts builds
// the procedure's context from it).

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
  // Whether this is the member's first request of the Japanese day with a verified phone: the
  // daily login bonus is looked at then (points/bonuses.ts, decision 0048).
  loginBonusDue: loginBonusDue(),
};

/** The condition every session's statement holds the account to, for the id it is given as `id`. */
export const sessionAccount = () =>
  and(eq(users.id, sql.placeholder("id")), isNull(users.deletedAt), isNull(users.suspendedAt));

interface SessionRow extends Session {
  tokenVersion: number;
  activeStale: boolean;
  loginBonusDue: boolean;
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
  // The first signed-in request of a Japanese day: the login bonus, once per day across every
  // process (decision 0048); the member's header hears the new balance.
  if (row.loginBonusDue) {
    const bonus = await grantLoginBonus(deps.db, row.id);
    if (bonus.points > 0) deps.mailbox.publish([row.id], "balance");
  }
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
