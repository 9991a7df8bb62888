CREATE TABLE "withdrawals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"withdrawn_at" timestamp with time zone DEFAULT now() NOT NULL,
	"points_ledger_id" uuid,
	"send_points_ledger_id" uuid,
	"restored_at" timestamp with time zone,
	"restored_by" uuid
);
--> statement-breakpoint
DROP INDEX "users_search_gender_active_idx";--> statement-breakpoint
DROP INDEX "users_search_active_idx";--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "last_active_at" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "last_active_at" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_points_ledger_id_point_ledger_id_fk" FOREIGN KEY ("points_ledger_id") REFERENCES "public"."point_ledger"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_send_points_ledger_id_point_ledger_id_fk" FOREIGN KEY ("send_points_ledger_id") REFERENCES "public"."point_ledger"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_restored_by_users_id_fk" FOREIGN KEY ("restored_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "withdrawals_open_user_key" ON "withdrawals" USING btree ("user_id") WHERE "withdrawals"."restored_at" is null;--> statement-breakpoint
CREATE INDEX "withdrawals_user_idx" ON "withdrawals" USING btree ("user_id","withdrawn_at");--> statement-breakpoint
CREATE INDEX "users_search_gender_active_idx" ON "users" USING btree ("gender","last_active_at" DESC NULLS LAST,"id" DESC NULLS FIRST) WHERE "users"."deleted_at" is null and "users"."suspended_at" is null and "users"."role" = 'user' and "users"."verification_status" = 'verified';--> statement-breakpoint
CREATE INDEX "users_search_active_idx" ON "users" USING btree ("last_active_at" DESC NULLS LAST,"id" DESC NULLS FIRST) WHERE "users"."deleted_at" is null and "users"."suspended_at" is null and "users"."role" = 'user' and "users"."verification_status" = 'verified';--> statement-breakpoint
-- Members withdrawn now get their withdrawal's row, pointing at the forfeit rows that withdrawal
-- wrote: they were written in its transaction, so their created_at is its withdrawn_at (now() is
-- the transaction's start). A withdrawal that forfeited nothing points at nothing, so restoring it
-- gives nothing back (decision 0038). The kind is compared as text: 0037 added the enum value in
-- this same migration run (one transaction), where PostgreSQL refuses an uncommitted enum literal.
INSERT INTO "withdrawals" ("user_id", "withdrawn_at", "points_ledger_id", "send_points_ledger_id")
SELECT u."id", u."withdrawn_at",
  (SELECT l."id" FROM "point_ledger" l
    WHERE l."user_id" = u."id" AND l."account" = 'points' AND l."kind"::text = 'forfeit' AND l."created_at" = u."withdrawn_at"
    ORDER BY l."id" LIMIT 1),
  (SELECT l."id" FROM "point_ledger" l
    WHERE l."user_id" = u."id" AND l."account" = 'send_points' AND l."kind"::text = 'forfeit' AND l."created_at" = u."withdrawn_at"
    ORDER BY l."id" LIMIT 1)
FROM "users" u
WHERE u."withdrawn_at" IS NOT NULL;
