import { boolean, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt, id } from "./columns";
import { users } from "./users";

export const inquiries = pgTable(
  "inquiries",
  {
    id: id(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    title: text("title").notNull(),
    message: text("message").notNull(),
    /** Read by an administrator (spec §4: unread becomes read through mark-as-read). */
    isRead: boolean("is_read").notNull().default(false),
    /** An administrator's reply the member has not opened yet (the history's unread marker). */
    replyUnread: boolean("reply_unread").notNull().default(false),
    createdAt: createdAt(),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
  },
  (t) => [index("inquiries_created_idx").on(t.createdAt), index("inquiries_user_idx").on(t.userId, t.createdAt)],
);

export const inquiryReplies = pgTable(
  "inquiry_replies",
  {
    id: id(),
    inquiryId: uuid("inquiry_id")
      .notNull()
      .references(() => inquiries.id, { onDelete: "cascade" }),
    adminId: uuid("admin_id")
      .notNull()
      .references(() => users.id),
    reply: text("reply").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("inquiry_replies_inquiry_idx").on(t.inquiryId, t.createdAt)],
);
