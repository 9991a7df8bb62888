ALTER TABLE "messages" ADD COLUMN "opened_at" timestamp with time zone;--> statement-breakpoint
-- Messages read before unread_mail_view was charged stay open to their recipient (decision 0027).
UPDATE "messages" SET "opened_at" = coalesce("read_at", "created_at") WHERE "is_read" = true;
