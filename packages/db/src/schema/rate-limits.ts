import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Per-client limits (login, sign-up, password reissue, purchases, inquiries, uploads, reports…),
 * counted here so that every worker process and every instance on this database shares one count
 * (packages/api/src/security/rate-limit.ts; docs/decisions/0014-limits-counted-in-the-database.md).
 * One row per key and fixed window, bumped by one atomic upsert per attempt; rows whose window
 * ended mean nothing and are swept by the `rate-limit-sweep` job. No index besides the key: the
 * counter updates stay HOT, and the sweep's scan of a table this size is cheap.
 */
export const rateLimitCounters = pgTable("rate_limit_counters", {
  key: text("key").primaryKey(),
  /** Attempts counted in the current window (saturates far above any limit). */
  count: integer("count").notNull(),
  /** When the current window ends; the next attempt after it starts a new window at 1. */
  windowEndsAt: timestamp("window_ends_at", { withTimezone: true }).notNull(),
});
