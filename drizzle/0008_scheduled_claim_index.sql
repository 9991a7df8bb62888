DROP INDEX "scheduled_due_idx";--> statement-breakpoint
CREATE INDEX "scheduled_due_idx" ON "scheduled_messages" USING btree ("scheduled_at","id") WHERE "scheduled_messages"."status" = 'pending';