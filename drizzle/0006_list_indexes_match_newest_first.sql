DROP INDEX "messages_to_created_idx";--> statement-breakpoint
DROP INDEX "messages_from_created_idx";--> statement-breakpoint
DROP INDEX "messages_created_idx";--> statement-breakpoint
DROP INDEX "admin_audit_created_idx";--> statement-breakpoint
DROP INDEX "board_posts_created_idx";--> statement-breakpoint
DROP INDEX "board_posts_author_created_idx";--> statement-breakpoint
DROP INDEX "inquiries_created_idx";--> statement-breakpoint
DROP INDEX "inquiries_user_idx";--> statement-breakpoint
DROP INDEX "purchase_status_created_idx";--> statement-breakpoint
DROP INDEX "purchase_user_created_idx";--> statement-breakpoint
DROP INDEX "point_ledger_user_created_idx";--> statement-breakpoint
DROP INDEX "footprints_viewed_recent_idx";--> statement-breakpoint
CREATE INDEX "messages_to_live_idx" ON "messages" USING btree ("to_user_id","created_at","id") WHERE "messages"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "messages_from_live_idx" ON "messages" USING btree ("from_user_id","created_at","id") WHERE "messages"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "messages_live_idx" ON "messages" USING btree ("created_at","id") WHERE "messages"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "admin_audit_created_idx" ON "admin_audit_log" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "board_posts_created_idx" ON "board_posts" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "board_posts_author_created_idx" ON "board_posts" USING btree ("author_id","created_at");--> statement-breakpoint
CREATE INDEX "inquiries_created_idx" ON "inquiries" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "inquiries_user_idx" ON "inquiries" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "purchase_status_created_idx" ON "purchase_transactions" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "purchase_user_created_idx" ON "purchase_transactions" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "point_ledger_user_created_idx" ON "point_ledger" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "footprints_viewed_recent_idx" ON "footprints" USING btree ("viewed_id","last_viewed_at");