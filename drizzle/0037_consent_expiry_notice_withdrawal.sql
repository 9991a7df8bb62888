ALTER TYPE "public"."ledger_kind" ADD VALUE 'forfeit';--> statement-breakpoint
ALTER TABLE "point_lots" ADD COLUMN "expiry_notice_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "terms_version" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "terms_accepted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "withdrawn_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "personal_data_deleted_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "point_lots_notice_due_idx" ON "point_lots" USING btree ("expires_at") WHERE "point_lots"."remaining" > 0 and "point_lots"."expiry_notice_at" is null;--> statement-breakpoint
CREATE INDEX "users_withdrawn_idx" ON "users" USING btree ("withdrawn_at") WHERE "users"."withdrawn_at" is not null and "users"."personal_data_deleted_at" is null;