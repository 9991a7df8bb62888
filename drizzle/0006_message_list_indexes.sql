DROP INDEX "messages_to_created_idx";--> statement-breakpoint
DROP INDEX "messages_from_created_idx";--> statement-breakpoint
DROP INDEX "messages_created_idx";--> statement-breakpoint
CREATE INDEX "messages_to_live_idx" ON "messages" USING btree ("to_user_id","created_at","id") WHERE "messages"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "messages_from_live_idx" ON "messages" USING btree ("from_user_id","created_at","id") WHERE "messages"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "messages_live_idx" ON "messages" USING btree ("created_at","id") WHERE "messages"."deleted_at" is null;