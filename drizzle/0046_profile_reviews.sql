CREATE TYPE "public"."profile_reject_reason" AS ENUM('photo_unsuitable', 'contact_details', 'offensive', 'minor', 'other');--> statement-breakpoint
CREATE TYPE "public"."profile_review_kind" AS ENUM('photo', 'introduction');--> statement-breakpoint
CREATE TYPE "public"."profile_review_status" AS ENUM('pending', 'approved', 'rejected', 'withdrawn');--> statement-breakpoint
CREATE TABLE "profile_reviews" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" "profile_review_kind" NOT NULL,
	"photo_link" text,
	"introduction" text,
	"status" "profile_review_status" DEFAULT 'pending' NOT NULL,
	"reason" "profile_reject_reason",
	"note" text DEFAULT '' NOT NULL,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "profile_reviews" ADD CONSTRAINT "profile_reviews_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_reviews" ADD CONSTRAINT "profile_reviews_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "profile_reviews_status_created_idx" ON "profile_reviews" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "profile_reviews_user_kind_created_idx" ON "profile_reviews" USING btree ("user_id","kind","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "profile_reviews_one_pending_key" ON "profile_reviews" USING btree ("user_id","kind") WHERE "profile_reviews"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "profile_reviews_pending_photo_idx" ON "profile_reviews" USING btree ("photo_link") WHERE "profile_reviews"."status" = 'pending';