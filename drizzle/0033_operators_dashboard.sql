CREATE TABLE "member_daily_signups" (
	"day" date PRIMARY KEY NOT NULL,
	"count" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "scheduled_failed_idx" ON "scheduled_messages" USING btree ("updated_at") WHERE "scheduled_messages"."status" = 'failed';--> statement-breakpoint
CREATE INDEX "point_ledger_spent_created_idx" ON "point_ledger" USING btree ("created_at") WHERE "point_ledger"."account" = 'points' and "point_ledger"."kind" in ('charge', 'prepaid_charge');