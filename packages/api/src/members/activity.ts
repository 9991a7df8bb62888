import { type Db, users } from "@enmusubi/db";
import { LAST_ACTIVE_REFRESH_MINUTES } from "@enmusubi/shared";
import { and, eq, isNull, or, type SQL, sql } from "drizzle-orm";

/**
 * When members were last active (decision 0029). Recorded at sign-in (`markActive`) and by the
 * session read of every authenticated request: that statement already reads the user's row and
 * also answers `activeStale` (older than LAST_ACTIVE_REFRESH_MINUTES, by the database's clock), so
 * a request costs no extra statement unless its member has been quiet for that long; then one
 * conditional UPDATE by primary key (`touchActive`), which concurrent requests turn into one write.
 * A member is thus at most that many minutes "older" than their last request, which the buckets
 * shown (24時間以内 … 1ヶ月以上) cannot tell.
 */

/** Older than the refresh interval; null when never recorded. */
const stale = sql`${users.lastActiveAt} < now() - make_interval(mins => ${sql.raw(String(LAST_ACTIVE_REFRESH_MINUTES))})`;

/**
 * True when the row's last activity is older than the refresh interval, or was never recorded (a new
 * account is not active until it signs in or makes a request; decision 0038). Read by the session query.
 */
export function activeStale(): SQL<boolean> {
  return sql<boolean>`coalesce(${stale}, true)`;
}

/** Records activity now unless it was recorded within the interval: usually updates nothing. */
export async function touchActive(db: Db, userId: string): Promise<void> {
  await db
    .update(users)
    .set({ lastActiveAt: sql`now()` })
    .where(and(eq(users.id, userId), or(isNull(users.lastActiveAt), stale)));
}

/** Records activity now (a successful sign-in). */
export async function markActive(db: Db, userId: string): Promise<void> {
  await db.update(users).set({ lastActiveAt: sql`now()` }).where(eq(users.id, userId));
}
