CREATE TYPE "public"."id_verification_status" AS ENUM('pending', 'approved', 'rejected');--> statement-breakpoint
CREATE TABLE "id_verifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"status" "id_verification_status" DEFAULT 'pending' NOT NULL,
	"image_path" text,
	"reject_reason" text,
	"reviewed_by" uuid,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"image_deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "id_verifications" ADD CONSTRAINT "id_verifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "id_verifications" ADD CONSTRAINT "id_verifications_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "id_verifications_status_created_idx" ON "id_verifications" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "id_verifications_user_created_idx" ON "id_verifications" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "id_verifications_one_pending_key" ON "id_verifications" USING btree ("user_id") WHERE "id_verifications"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "id_verifications_image_created_idx" ON "id_verifications" USING btree ("created_at") WHERE "id_verifications"."image_path" is not null;