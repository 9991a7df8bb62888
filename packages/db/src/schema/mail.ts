import { MAIL_STATUSES } from "@enmusubi/shared/constants";
import { sql } from "drizzle-orm";
import { index, integer, pgEnum, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { createdAt, id } from "./columns";

export const mailStatusEnum = pgEnum("mail_status", MAIL_STATUSES);

/** Mail is written here inside the business transaction and delivered by a background job. */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: id(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    /** The body; `{{secret}}` marks where `secret` goes when the mail is sent. */
    text: text("text").notNull(),
    /** A one-time secret (a generated password), kept only until the mail is sent or given up. */
    secret: text("secret"),
    status: mailStatusEnum("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("mail_outbox_due_idx").on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`)],
);
