import { SCHEDULED_SOURCES, SCHEDULED_STATUSES, SCHEDULED_TYPES } from "@enmusubi/shared/constants";
import { sql } from "drizzle-orm";
import { boolean, index, integer, pgEnum, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt, id, updatedAt } from "./columns";
import { users } from "./users";

export const messages = pgTable(
  "messages",
  {
    id: id(),
    fromUserId: uuid("from_user_id")
      .notNull()
      .references(() => users.id),
    toUserId: uuid("to_user_id")
      .notNull()
      .references(() => users.id),
    /** The administrator who really sent it when an admin sends as a user; null otherwise. */
    sentByAdminId: uuid("sent_by_admin_id").references(() => users.id),
    replyToId: uuid("reply_to_id"),
    body: text("body").notNull(),
    isRead: boolean("is_read").notNull().default(false),
    hasReply: boolean("has_reply").notNull().default(false),
    readAt: timestamp("read_at", { withTimezone: true }),
    /**
     * When the recipient opened (paid for) the body of a member's message: `messages.open` sets it
     * once, with a conditional update, so it is charged once (unread_mail_view, decision 0027).
     * Null: the body is sealed to the recipient (the list shows a preview line only).
     */
    openedAt: timestamp("opened_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
  },
  (t) => [
    // Every list reads live messages newest first (created_at desc, id desc) and pages: a member's
    // inbox and sent box, and the administrators' list of everything. Ascending on purpose: read
    // backwards, they give exactly that order (a DESC NULLS LAST index would not match it).
    index("messages_to_live_idx").on(t.toUserId, t.createdAt, t.id).where(sql`${t.deletedAt} is null`),
    index("messages_from_live_idx").on(t.fromUserId, t.createdAt, t.id).where(sql`${t.deletedAt} is null`),
    index("messages_live_idx").on(t.createdAt, t.id).where(sql`${t.deletedAt} is null`),
    // One conversation's messages, newest first, whichever way each went (decision 0030).
    index("messages_pair_live_idx")
      .on(sql`least(${t.fromUserId}, ${t.toUserId})`, sql`greatest(${t.fromUserId}, ${t.toUserId})`, t.createdAt, t.id)
      .where(sql`${t.deletedAt} is null`),
    index("messages_unread_idx").on(t.toUserId).where(sql`${t.isRead} = false and ${t.deletedAt} is null`),
  ],
);

export const scheduledTypeEnum = pgEnum("scheduled_type", SCHEDULED_TYPES);
export const scheduledSourceEnum = pgEnum("scheduled_source", SCHEDULED_SOURCES);
export const scheduledStatusEnum = pgEnum("scheduled_status", SCHEDULED_STATUSES);

/** Server-side replacement of the browser queue `scheduled_messages_v1` (spec §3). */
export const scheduledMessages = pgTable(
  "scheduled_messages",
  {
    id: id(),
    type: scheduledTypeEnum("type").notNull(),
    /** Who scheduled it (a member, or the administrator). Only they may see or cancel it. */
    ownerId: uuid("owner_id")
      .notNull()
      .references(() => users.id),
    /** Send as this user (admin send-as-user); null means the owner sends. */
    senderUserId: uuid("sender_user_id").references(() => users.id),
    recipients: uuid("recipients").array().notNull(),
    content: text("content").notNull(),
    scheduledAt: timestamp("scheduled_at", { withTimezone: true }).notNull(),
    source: scheduledSourceEnum("source").notNull(),
    relatedMessageId: uuid("related_message_id"),
    markAsReplied: boolean("mark_as_replied").notNull().default(false),
    markAsRead: boolean("mark_as_read").notNull().default(false),
    needsPointDeduction: boolean("needs_point_deduction").notNull().default(false),
    status: scheduledStatusEnum("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    /** The messages it became, once sent. */
    messageIds: uuid("message_ids").array(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The dispatcher's claim: pending rows in (scheduled_at, id) order, read from the index alone.
    index("scheduled_due_idx").on(t.scheduledAt, t.id).where(sql`${t.status} = 'pending'`),
    index("scheduled_owner_idx").on(t.ownerId, t.scheduledAt),
    // Failed scheduled messages: the operator's dashboard (decision 0036) and the /metrics scrape
    // (decision 0035) count them; few rows, never a scan of all.
    index("scheduled_failed_idx").on(t.updatedAt).where(sql`${t.status} = 'failed'`),
  ],
);
