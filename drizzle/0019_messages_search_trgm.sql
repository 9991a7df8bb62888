-- Substring search at 1,000,000 messages (admin email management; members' profile keyword):
-- trigram GIN indexes serve ILIKE '%word%' for words of 3 characters or more. Shorter keywords have
-- no trigram; the service bounds those (messages/admin-search.ts).
CREATE INDEX IF NOT EXISTS "messages_body_trgm_idx" ON "messages" USING gin ("body" gin_trgm_ops) WHERE "deleted_at" IS NULL;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_name_trgm_idx" ON "users" USING gin ("name" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_user_id_trgm_idx" ON "users" USING gin ("user_id" gin_trgm_ops);
