import {
  PROFILE_REJECT_REASON_VALUES,
  PROFILE_REVIEW_KINDS,
  PROFILE_REVIEW_STATUSES,
} from "@enmusubi/shared/constants";
import { sql } from "drizzle-orm";
import { index, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, id } from "./columns";
import { users } from "./users";

/*
 * The review of profile photos and 自己紹介 (出会い系サイト規制法; docs/decisions/0044). The approved
 * values stay where every reader reads them (users.photo_link, users.self_introduction); a member's
 * change waits here until an administrator approves it (then it is copied into users) or rejects it.
 */

export const profileReviewKindEnum = pgEnum("profile_review_kind", PROFILE_REVIEW_KINDS);
export const profileReviewStatusEnum = pgEnum("profile_review_status", PROFILE_REVIEW_STATUSES);
export const profileRejectReasonEnum = pgEnum("profile_reject_reason", PROFILE_REJECT_REASON_VALUES);

export const profileReviews = pgTable(
  "profile_reviews",
  {
    id: id(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: profileReviewKindEnum("kind").notNull(),
    /**
     * kind photo: the stored link of the new photo (`/uploads/photos/<name>.jpg`). Its file exists
     * while the change is pending and after approval (then it is the member's photo); a rejected
     * or withdrawn photo's file is deleted, the link stays as a record.
     */
    photoLink: text("photo_link"),
    /** kind introduction: the new 自己紹介 (masked already where a screening rule asked). */
    introduction: text("introduction"),
    status: profileReviewStatusEnum("status").notNull().default("pending"),
    reason: profileRejectReasonEnum("reason"),
    /** The administrator's note with a rejection (shown to the member); "" when none. */
    note: text("note").notNull().default(""),
    decidedBy: uuid("decided_by").references(() => users.id, { onDelete: "set null" }),
    /** Approved or rejected by an administrator, or withdrawn by the member. */
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    // The queue: pending changes, oldest first.
    index("profile_reviews_status_created_idx").on(t.status, t.createdAt, t.id),
    // A member's latest change of each kind (the own view's 審査中 and the last rejection).
    index("profile_reviews_user_kind_created_idx").on(t.userId, t.kind, t.createdAt),
    // At most one change waiting per member and kind, even when two arrive at once.
    uniqueIndex("profile_reviews_one_pending_key").on(t.userId, t.kind).where(sql`${t.status} = 'pending'`),
    // The thumbnail route refuses a photo still waiting; the photo sweep keeps its file.
    index("profile_reviews_pending_photo_idx").on(t.photoLink).where(sql`${t.status} = 'pending'`),
  ],
);
