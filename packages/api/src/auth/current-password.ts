import { type Db, users } from "@enmusubi/db";
import { MSG } from "@enmusubi/shared";
import { and, eq, isNull } from "drizzle-orm";
import { AppError } from "../errors";
import { enforceRateLimit, LOGIN_FAILURES_PER_ACCOUNT, type RateLimiter } from "../security/rate-limit";
import type { PasswordHasher } from "./password";

/**
 * The current password asked again behind a session: the e-mail change, 退会 and the password
 * change (decision 0038). A stolen session must not become a way to guess the password, so each
 * attempt is counted before the password is checked, like a login (decision 0003): under the login's
 * own per-account-and-client key (the same allowance, shared with failed logins, in PostgreSQL for
 * every process) and under a per-account key, so a session cannot get more guesses by changing its
 * address. A right password clears both counts, as a successful login does. Call it before the
 * request's transaction (the counts are their own statements).
 */
export interface CurrentPasswordDeps {
  db: Db;
  passwords: PasswordHasher;
  limiter: RateLimiter;
}

/** The key a login counts failures under (auth/service.ts `login`): one account from one client. */
export const loginThrottleKey = (userID: string, ip: string) => `login:account:${userID.toLowerCase()}:${ip}`;

/** Refuses with `wrong` (400) unless `password` is the live account's current password; 429 past the allowance. */
export async function checkCurrentPassword(
  deps: CurrentPasswordDeps,
  session: { userId: string; ip: string },
  password: string,
  wrong: string,
): Promise<void> {
  const [user] = await deps.db
    .select({ userID: users.userId, passwordHash: users.passwordHash })
    .from(users)
    .where(and(eq(users.id, session.userId), isNull(users.deletedAt)));
  if (!user) throw new AppError("UNAUTHORIZED", MSG.unauthorized);
  const keys = [loginThrottleKey(user.userID, session.ip), `reauth:account:${session.userId}`];
  await enforceRateLimit(
    deps.limiter,
    keys.map((key) => [key, LOGIN_FAILURES_PER_ACCOUNT]),
  );
  if (!(await deps.passwords.verify(user.passwordHash, password))) throw new AppError("BAD_REQUEST", wrong);
  for (const key of keys) await deps.limiter.reset(key);
}
