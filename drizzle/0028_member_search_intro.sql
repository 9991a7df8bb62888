CREATE TABLE "member_search_grams" (
	"gram" text NOT NULL,
	"user_id" uuid NOT NULL,
	CONSTRAINT "member_search_grams_gram_user_id_pk" PRIMARY KEY("gram","user_id")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "self_introduction" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "last_active_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "search_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX "users_search_gender_active_idx" ON "users" USING btree ("gender","last_active_at","id") WHERE "users"."deleted_at" is null and "users"."suspended_at" is null and "users"."role" = 'user' and "users"."verification_status" = 'verified';--> statement-breakpoint
CREATE INDEX "users_search_active_idx" ON "users" USING btree ("last_active_at","id") WHERE "users"."deleted_at" is null and "users"."suspended_at" is null and "users"."role" = 'user' and "users"."verification_status" = 'verified';