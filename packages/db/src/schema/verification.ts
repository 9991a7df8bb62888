import { ID_DOCUMENT_KINDS, ID_VERIFICATION_STATES } from "@enmusubi/shared/constants";
import { sql } from "drizzle-orm";
import { check, date, index, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, id } from "./columns";
import { purchaseTransactions } from "./payments";
import { users } from "./users";

/** One submission of an ID image for age verification (出会い系サイト規制法 art. 11; decision 0006). */
export const idVerificationStatusEnum = pgEnum("id_verification_status", ID_VERIFICATION_STATES);
/** The kind of ID an administrator read the birth date from (decision 0043). */
export const idDocumentKindEnum = pgEnum("id_document_kind", ID_DOCUMENT_KINDS);

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
     * publicly); null once the file is deleted (at review, or ID_IMAGE_RETENTION_HOURS after submission at the latest).
     */
    imagePath: text("image_path"),
    rejectReason: text("reject_reason"),
    reviewedBy: uuid("reviewed_by").references(() => users.id, { onDelete: "set null" }),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }),
    createdAt: createdAt(),
    imageDeletedAt: timestamp("image_deleted_at", { withTimezone: true }),
    /**
     * What the administrator checked (decision 0043): the birth date read from the ID at approval,
     * and for a member an administrator created, the ID's kind too (such a row has no image and
     * is approved at once). Null on rows approved before this was asked.
     */
    documentKind: idDocumentKindEnum("document_kind"),
    birthdayChecked: date("birthday_checked", { mode: "string" }),
    /**
     * How the age was checked: an ID document (read by an administrator), or the member's first
     * completed card payment while the administrators accept it (decision 0046; no image, no reviewer).
     */
    method: text("method").$type<"id_document" | "card_payment">().notNull().default("id_document"),
    /** The card order that verified the member (method card_payment). */
    purchaseTransactionId: uuid("purchase_transaction_id").references(() => purchaseTransactions.id),
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
    check("id_verifications_method", sql`${t.method} in ('id_document', 'card_payment')`),
  ],
);
