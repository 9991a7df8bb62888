import {
  SCREENING_ACTION_VALUES,
  SCREENING_CATEGORY_VALUES,
  SCREENING_HOLD_KINDS,
  SCREENING_HOLD_STATUSES,
  SCREENING_RULE_KINDS,
} from "@enmusubi/shared/constants";
import { sql } from "drizzle-orm";
import {
  boolean,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt, id, updatedAt } from "./columns";
import { users } from "./users";

/*
 * Screening of what members write (docs/decisions/0042): the rules the administrators edit, the
 * items a rule held for them, and a content-free record of every hold and refusal (the queue's
 * "5 in 24 hours" flag).
 */

export const screeningRuleKindEnum = pgEnum("screening_rule_kind", SCREENING_RULE_KINDS);
export const screeningCategoryEnum = pgEnum("screening_category", SCREENING_CATEGORY_VALUES);
export const screeningActionEnum = pgEnum("screening_action", SCREENING_ACTION_VALUES);
export const screeningHoldKindEnum = pgEnum("screening_hold_kind", SCREENING_HOLD_KINDS);
export const screeningHoldStatusEnum = pgEnum("screening_hold_status", SCREENING_HOLD_STATUSES);

/** A word (matched on the normalised text) or a regular expression (on the contact form). */
export const screeningRules = pgTable(
  "screening_rules",
  {
    id: id(),
    kind: screeningRuleKindEnum("kind").notNull(),
    /** The word or the regular expression, as the administrator wrote it. */
    pattern: text("pattern").notNull(),
    category: screeningCategoryEnum("category").notNull(),
    action: screeningActionEnum("action").notNull(),
    note: text("note").notNull().default(""),
    enabled: boolean("enabled").notNull().default(true),
    /** The administrator who wrote or last changed it; null for the rules the migration ships. */
    updatedBy: uuid("updated_by").references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("screening_rules_pattern_key").on(t.kind, t.pattern)],
);

/** One rule that matched an item: kept with the hold (the queue shows it) and in the events. */
export interface ScreeningMatchRecord {
  ruleId: string;
  category: (typeof SCREENING_CATEGORY_VALUES)[number];
  action: (typeof SCREENING_ACTION_VALUES)[number];
  /** The matching part as written (shown to administrators only). */
  excerpt: string;
}

/**
 * A member's message or board post a `hold` rule kept back: stored here, not in messages or
 * board_posts, so no reader of those ever sees it. Released, it is written there like a send at
 * that moment; rejected, its points are refunded through the ledger (reference = this id).
 */
export const screeningHolds = pgTable(
  "screening_holds",
  {
    id: id(),
    kind: screeningHoldKindEnum("kind").notNull(),
    authorId: uuid("author_id")
      .notNull()
      .references(() => users.id),
    /** A message's recipient; null for a board post. */
    recipientId: uuid("recipient_id").references(() => users.id),
    /** The message answered, when the held message is a reply. */
    replyToId: uuid("reply_to_id"),
    /** A board post's title; null for a message. */
    title: text("title"),
    /** The body or content, masked already where a mask rule matched (what a release delivers). */
    body: text("body").notNull(),
    matches: jsonb("matches").$type<ScreeningMatchRecord[]>().notNull().default([]),
    /** Points the member paid for it (the charge's ledger row has reference = this id); given back on rejection. */
    chargedPoints: integer("charged_points").notNull().default(0),
    /** The ledger reference its charge was booked under (the first item of its send): a rejection refunds from that row. */
    chargeReference: uuid("charge_reference"),
    status: screeningHoldStatusEnum("status").notNull().default("held"),
    decidedBy: uuid("decided_by").references(() => users.id),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    /** Why it was rejected (administrators only: the member is not told why). */
    reason: text("reason"),
    /** The message or post a release wrote. */
    releasedId: uuid("released_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The queue: waiting items oldest first; decided ones newest decision first.
    index("screening_holds_status_created_idx").on(t.status, t.createdAt, t.id),
    index("screening_holds_decided_idx").on(t.decidedAt, t.id).where(sql`${t.status} <> 'held'`),
    // The author's own held items (the thread's 「確認中」, the board's own posts).
    index("screening_holds_author_idx").on(t.authorId, t.kind, t.createdAt),
  ],
);

/**
 * Every hold and refusal, without the text (a refused item is stored nowhere): who, when, which
 * kind of content. The queue flags a member with SCREENING_FLAG_COUNT of them in SCREENING_FLAG_HOURS.
 */
export const screeningEvents = pgTable(
  "screening_events",
  {
    id: id(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    action: screeningActionEnum("action").notNull(),
    category: screeningCategoryEnum("category").notNull(),
    /** What was written: message, board_post, scheduled, profile. */
    source: text("source").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("screening_events_user_created_idx").on(t.userId, t.createdAt)],
);
