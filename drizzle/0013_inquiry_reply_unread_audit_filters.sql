ALTER TABLE "inquiries" ADD COLUMN "reply_unread" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "admin_audit_admin_created_idx" ON "admin_audit_log" USING btree ("admin_id","created_at","id");--> statement-breakpoint
CREATE INDEX "admin_audit_action_created_idx" ON "admin_audit_log" USING btree ("action","created_at","id");