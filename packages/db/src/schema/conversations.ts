import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, primaryKey, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./users";

/**
 * A member's conversations (やりとり, decision 0030): one row per (member, partner) who
 * exchanged a live message, both directions, with the newest live message between them and how
 * many of the partner's messages to the member are unread. Kept by triggers on `messages`
 * (migration 0031) in the transaction that writes the messages, so every path that sends, reads,
 * opens or deletes one (services, scheduled sends, seeds, hand-written SQL) keeps it right. Blocks
 * are not stored: the list leaves out partners blocked either way when it reads.
 */
export const conversations = pgTable(
  "conversations",
  {
    memberId: uuid("member_id")
      .notNull()
      .references(() => users.id),
    partnerId: uuid("partner_id")
      .notNull()
      .references(() => users.id),
    /** The newest live message between the two ((created_at, id) order); no foreign key: the triggers keep it. */
    lastMessageId: uuid("last_message_id").notNull(),
    lastAt: timestamp("last_at", { withTimezone: true }).notNull(),
    /** The partner's live messages to the member not read yet. */
    unreadCount: integer("unread_count").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.memberId, t.partnerId] }),
    // The list, newest activity first (read backwards: last_at desc, partner_id desc).
    index("conversations_member_recent_idx").on(t.memberId, t.lastAt, t.partnerId),
    check("conversations_unread_count_check", sql`${t.unreadCount} >= 0`),
  ],
);
