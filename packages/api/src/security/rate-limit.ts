import { createHash } from "node:crypto";
import { type Db, rateLimitCounters } from "@enmusubi/db";
import { MSG } from "@enmusubi/shared";
import { eq, lt, sql } from "drizzle-orm";
import { AppError } from "../errors";

export interface RateLimitRule {
  /** Attempts allowed per window. */
  max: number;
  windowMs: number;
}

/**
 * Fixed-window counters. The services see only this interface; the server counts in the database
 * (`createDatabaseRateLimiter`), so every worker process and instance shares one count per client.
 */
export interface RateLimiter {
  /** Counts one attempt for `key`; false when the window's allowance is used up. */
  hit(key: string, rule: RateLimitRule): Promise<boolean>;
  /**
   * Counts one attempt under every rule at once; false when any allowance is used up. Concurrent
   * attempts are counted in one order on every key, so each one's place is the same in every window
   * (counted rule by rule, a burst could be refused by one counter while another let it pass).
   */
  hitAll(attempts: ReadonlyArray<readonly [key: string, rule: RateLimitRule]>): Promise<boolean>;
  /** Forgets the attempts counted for `key` (a successful login clears its failures). */
  reset(key: string): Promise<void>;
}

/** A counter stops growing here: far above any limit, far below integer overflow. */
const COUNT_CEILING = 1_000_000;

/** Keys carry client input (an e-mail, a user ID): a long one is stored as its digest. */
function storedKey(key: string): string {
  return key.length <= 200 ? key : `sha256:${createHash("sha256").update(key).digest("hex")}`;
}

/**
 * The limiter shared by every process on `db` (PostgreSQL, or PGlite's one process): one atomic
 * upsert per attempt on `rate_limit_counters`, so concurrent attempts, on any worker or instance,
 * are counted one after the other and cannot overtake a limit (docs/decisions/0003, 0014). A
 * window starts at the first attempt after the previous one ended. Each hit is its own statement
 * (never inside the caller's transaction), so a refused request's rollback does not undo its count.
 */
export function createDatabaseRateLimiter(db: Db): RateLimiter {
  const t = rateLimitCounters;
  const ended = sql`${t.windowEndsAt} <= now()`;
  /**
   * One upsert for every key, in key order: the statement holds each counter's row lock until it
   * ends, so two attempts that share a key are counted one after the other on all their keys, and
   * two that take the same keys take them in the same order (no deadlock).
   */
  async function count(attempts: ReadonlyArray<readonly [string, RateLimitRule]>): Promise<boolean> {
    const byKey = new Map<string, RateLimitRule>();
    for (const [key, rule] of attempts) byKey.set(storedKey(key), rule);
    if (byKey.size === 0) return true;
    const rows = await db
      .insert(t)
      .values(
        [...byKey.keys()].sort().map((key) => ({
          key,
          count: 1,
          windowEndsAt: sql`now() + make_interval(secs => ${(byKey.get(key) as RateLimitRule).windowMs / 1000}::double precision)`,
        })),
      )
      .onConflictDoUpdate({
        target: t.key,
        set: {
          count: sql`case when ${ended} then 1 else least(${t.count}, ${COUNT_CEILING}::integer) + 1 end`,
          windowEndsAt: sql`case when ${ended} then excluded.window_ends_at else ${t.windowEndsAt} end`,
        },
      })
      .returning({ key: t.key, count: t.count });
    return rows.every((row) => row.count <= (byKey.get(row.key) as RateLimitRule).max);
  }
  return {
    hit: (key, rule) => count([[key, rule]]),
    hitAll: count,
    async reset(key) {
      await db.delete(t).where(eq(t.key, storedKey(key)));
    },
  };
}

/** Removes the counters whose window has ended (they count nothing any more). Answers how many. */
export async function sweepRateLimitCounters(db: Db): Promise<number> {
  const removed = await db
    .delete(rateLimitCounters)
    .where(lt(rateLimitCounters.windowEndsAt, sql`now()`))
    .returning({ key: rateLimitCounters.key });
  return removed.length;
}

/** A limiter that never refuses, for tests that are not about rate limits. */
export const unlimited: RateLimiter = { hit: async () => true, hitAll: async () => true, reset: async () => {} };

/**
 * Counts one attempt under every rule; TOO_MANY_REQUESTS (429) with `message` when any allowance
 * is used up. Call it before the request's transaction (each hit is its own statement).
 */
export async function enforceRateLimit(
  limiter: RateLimiter,
  rules: Array<[key: string, rule: RateLimitRule]>,
  message: string = MSG.tooManyRequests,
): Promise<void> {
  // Every rule counts the attempt, so a refused caller cannot dodge one counter by tripping another.
  if (!(await limiter.hitAll(rules))) throw new AppError("TOO_MANY_REQUESTS", message);
}

export const RATE_LIMITS = {
  loginPerIp: { max: 30, windowMs: 10 * 60_000 },
  signupPerIp: { max: 10, windowMs: 60 * 60_000 },
  signupPerEmail: { max: 3, windowMs: 60 * 60_000 },
  forgotPerIp: { max: 10, windowMs: 60 * 60_000 },
  forgotPerAccount: { max: 3, windowMs: 60 * 60_000 },
  /**
   * E-mail change requests (each mails a link to the new address and a notice to the current one):
   * per member, and per new address whoever asks, as sign-up counts per client and per address.
   */
  emailChangePerMember: { max: 5, windowMs: 60 * 60_000 },
  emailChangePerAddress: { max: 3, windowMs: 60 * 60_000 },
  /** Each upload decodes and re-encodes an image: bounded so nobody can keep the CPU busy. */
  photoUploadPerMember: { max: 30, windowMs: 60 * 60_000 },
  photoUploadPerAdmin: { max: 300, windowMs: 60 * 60_000 },
  /**
   * Reports a member may send (attempts, refused ones included). A member who meets abuse reports a
   * few at a time; ten an hour and thirty a day leave room for a bad evening, while a script cannot
   * bury the moderation queue (150 in one burst were accepted before).
   */
  reportPerMemberHour: { max: 10, windowMs: 60 * 60_000 },
  reportPerMemberDay: { max: 30, windowMs: 24 * 60 * 60_000 },
  /**
   * Unsigned SmartPit notifications recorded per client (payment_notifications keeps every call
   * received; a forged one is refused either way, and past this allowance it is no longer stored, so
   * nobody can fill the table). Signed notifications are never limited: a payment is never dropped.
   */
  forgedNotificationsPerIp: { max: 100, windowMs: 60 * 60_000 },
} satisfies Record<string, RateLimitRule>;

/**
 * Login attempts allowed for one account from one client (IP) before that client is refused for
 * the rest of the window; a successful login clears the count. Keyed by client too, so nobody can
 * lock a member (or an administrator) out by failing on purpose from elsewhere.
 */
export const LOGIN_FAILURES_PER_ACCOUNT = { max: 10, windowMs: 15 * 60_000 };
