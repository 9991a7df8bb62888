ALTER TABLE "users" DROP COLUMN "failed_login_count";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "last_failed_login_at";--> statement-breakpoint
-- Mails already sent or given up no longer carry the generated password they were sent with.
UPDATE "mail_outbox" SET "text" = regexp_replace("text", 'パスワード: \S+', 'パスワード: ********', 'g') WHERE "status" <> 'pending';
