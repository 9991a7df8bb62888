import { REPORT_REASON_VALUES, REPORT_STATUSES, REPORT_TARGET_TYPES } from "@enmusubi/shared/constants";
import { sql } from "drizzle-orm";
import { check, index, pgEnum, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, id } from "./columns";
import { users } from "./users";

/**
 * A member blocks another: from then on neither sees the other in any member list and messages
 * between them are refused both ways (packages/api/src/safety/blocks.ts).
 */
export const userBlocks = pgTable(
  "user_blocks",
  {
    blockerId: uuid("blocker_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    blockedId: uuid("blocked_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.blockerId, t.blockedId] }),
    // "Who blocked me" for the either-way test.
    index("user_blocks_blocked_idx").on(t.blockedId, t.blockerId),
    check("user_blocks_not_self", sql`${t.blockerId} <> ${t.blockedId}`),
  ],
);

export const reportTargetEnum = pgEnum("report_target", REPORT_TARGET_TYPES);
export const reportReasonEnum = pgEnum("report_reason", REPORT_REASON_VALUES);
export const reportStatusEnum = pgEnum("report_status", REPORT_STATUSES);

/**
 * A member's report to the administrators (出会い系サイト規制法 art. 12: the operator removes
 * content that solicits minors). `target_user_id` is the member answerable for the target (the
 * member reported, the message's sender, the post's author), so a member's report history and a
 * suspension can be read without resolving each target.
 */
export const reports = pgTable(
  "reports",
  {
    id: id(),
    reporterId: uuid("reporter_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    targetType: reportTargetEnum("target_type").notNull(),
    targetId: uuid("target_id").notNull(),
    targetUserId: uuid("target_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    reason: reportReasonEnum("reason").notNull(),
    detail: text("detail"),
    status: reportStatusEnum("status").notNull().default("open"),
    handledBy: uuid("handled_by").references(() => users.id),
    handledAt: timestamp("handled_at", { withTimezone: true }),
    /** The administrator's note when handling (not shown to the reporter). */
    handledNote: text("handled_note"),
    createdAt: createdAt(),
  },
  (t) => [
    // The moderation queue: one status, oldest first.
    index("reports_status_created_idx").on(t.status, t.createdAt, t.id),
    // Handling closes every open report on the same target (or the same member, for a suspension).
    index("reports_target_idx").on(t.targetType, t.targetId),
    index("reports_target_user_idx").on(t.targetUserId, t.createdAt),
    // One open report per reporter and target; a handled one may be reported again.
    uniqueIndex("reports_open_per_reporter_key")
      .on(t.reporterId, t.targetType, t.targetId)
      .where(sql`${t.status} = 'open'`),
    check("reports_other_has_detail", sql`${t.reason} <> 'other' or ${t.detail} is not null`),
    check("reports_handled_consistent", sql`(${t.status} = 'open') = (${t.handledAt} is null)`),
  ],
);
