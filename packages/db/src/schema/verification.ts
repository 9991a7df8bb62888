import { ID_VERIFICATION_STATES } from "@enmusubi/shared/constants";
import { sql } from "drizzle-orm";
import { index, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, id } from "./columns";
import { users } from "./users";

/** One submission of an ID image for age verification (出会い系サイト規制法 art. 11; decision 0006). */
export const idVerificationStatusEnum = pgEnum("id_verification_status", ID_VERIFICATION_STATES);

export const idVerifications = pgTable(
  "id_verifications",
  {
    id: id(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    status: idVerificationStatusEnum("status").notNull().default("pending"),
    /**
     * File name of the ID image under DATA_DIR/private/id-images (never under uploads, never served
     * publicly); null once the file is deleted (at review, or 24 hours after submission at the latest).
     */
    imagePath: text("image_path"),
    rejectReason: text("reject_reason"),
    reviewedBy: uuid("reviewed_by").references(() => users.id, { onDelete: "set null" }),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }),
    createdAt: createdAt(),
    imageDeletedAt: timestamp("image_deleted_at", { withTimezone: true }),
  },
  (t) => [
    // The review queue: pending submissions, oldest first.
    index("id_verifications_status_created_idx").on(t.status, t.createdAt, t.id),
    // A member's latest submission (status screen).
    index("id_verifications_user_created_idx").on(t.userId, t.createdAt),
    // At most one submission waiting per member, even when two arrive at once.
    uniqueIndex("id_verifications_one_pending_key").on(t.userId).where(sql`${t.status} = 'pending'`),
    // The 24-hour deletion job reads only rows that still hold an image.
    index("id_verifications_image_created_idx").on(t.createdAt).where(sql`${t.imagePath} is not null`),
  ],
);
