import { MSG } from "@enmusubi/shared";
import { AppError } from "../errors";

export interface RateLimitRule {
  /** Attempts allowed per window. */
  max: number;
  windowMs: number;
}

/**
 * Fixed-window counters. The in-memory store suits one instance; several instances behind a load
 * balancer swap in a shared store (the interface is all the services see).
 */
export interface RateLimiter {
  /** Counts one attempt for `key`; false when the window's allowance is used up. */
  hit(key: string, rule: RateLimitRule): boolean;
  /** Forgets the attempts counted for `key` (a successful login clears its failures). */
  reset(key: string): void;
}

export function createMemoryRateLimiter(now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  let lastSweep = now();
  return {
    hit(key, rule) {
      const t = now();
      if (t - lastSweep > 60_000) {
        for (const [k, w] of windows) if (t - w.start > 24 * 3600_000) windows.delete(k);
        lastSweep = t;
      }
      const w = windows.get(key);
      if (!w || t - w.start >= rule.windowMs) {
        windows.set(key, { start: t, count: 1 });
        return true;
      }
      w.count += 1;
      return w.count <= rule.max;
    },
    reset(key) {
      windows.delete(key);
    },
  };
}

/** A limiter that never refuses, for tests that are not about rate limits. */
export const unlimited: RateLimiter = { hit: () => true, reset: () => {} };

export function enforceRateLimit(limiter: RateLimiter, rules: Array<[key: string, rule: RateLimitRule]>): void {
  // Every rule counts the attempt, so a refused caller cannot dodge one counter by tripping another.
  const allowed = rules.map(([key, rule]) => limiter.hit(key, rule));
  if (allowed.includes(false)) throw new AppError("TOO_MANY_REQUESTS", MSG.tooManyRequests);
}

export const RATE_LIMITS = {
  loginPerIp: { max: 30, windowMs: 10 * 60_000 },
  signupPerIp: { max: 10, windowMs: 60 * 60_000 },
  signupPerEmail: { max: 3, windowMs: 60 * 60_000 },
  forgotPerIp: { max: 10, windowMs: 60 * 60_000 },
  forgotPerAccount: { max: 3, windowMs: 60 * 60_000 },
  /** Each upload decodes and re-encodes an image: bounded so nobody can keep the CPU busy. */
  photoUploadPerMember: { max: 30, windowMs: 60 * 60_000 },
  photoUploadPerAdmin: { max: 300, windowMs: 60 * 60_000 },
} satisfies Record<string, RateLimitRule>;

/**
 * Login attempts allowed for one account from one client (IP) before that client is refused for
 * the rest of the window; a successful login clears the count. Keyed by client too, so nobody can
 * lock a member (or an administrator) out by failing on purpose from elsewhere.
 */
export const LOGIN_FAILURES_PER_ACCOUNT = { max: 10, windowMs: 15 * 60_000 };
