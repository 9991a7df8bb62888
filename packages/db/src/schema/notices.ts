import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, id } from "./columns";
import { users } from "./users";

/**
 * New-message notice mails (メール受信通知, decision 0033): one row per member who was
 * ever written to or who set the notice. A trigger on `messages` (migration 0036) adds what
 * arrived (`pending_count`, `pending_since`) in the sending transaction; the notice job claims
 * the due rows (`due_at`) with SKIP LOCKED, turns each into at most one outbox mail and moves
 * `due_at` to the end of the 15-minute window.
 */
export const messageNotices = pgTable(
  "message_notices",
  {
    userId: uuid("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The member's setting: notices on (the default) or off. */
    enabled: boolean("enabled").notNull().default(true),
    /** Messages received since the last notice (or since the member was last considered). */
    pendingCount: integer("pending_count").notNull().default(0),
    /** When the oldest of them arrived; null when nothing is pending. */
    pendingSince: timestamp("pending_since", { withTimezone: true }),
    /** Not before this may the job look at the row (the window's end after a notice). */
    dueAt: timestamp("due_at", { withTimezone: true }).notNull().defaultNow(),
    lastNoticeAt: timestamp("last_notice_at", { withTimezone: true }),
    /** Carried by each stop link: a link works while it equals this, and using it bumps it (once only). */
    stopVersion: integer("stop_version").notNull().default(0),
  },
  (t) => [index("message_notices_due_idx").on(t.dueAt).where(sql`${t.pendingCount} > 0`)],
);

/**
 * A requested change of e-mail address: it takes effect only when the link mailed to
 * the new address is followed, once, before `expires_at`. Only the token's SHA-256 is stored.
 */
export const emailChanges = pgTable(
  "email_changes",
  {
    id: id(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    newEmail: text("new_email").notNull(),
    tokenHash: text("token_hash").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    /**
     * When a password change, a password reissue or 退会 cancelled the pending change (decision 0038):
     * its link then answers that it is no longer valid.
     */
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("email_changes_token_key").on(t.tokenHash), index("email_changes_user_idx").on(t.userId)],
);
