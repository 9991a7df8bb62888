CREATE TABLE "email_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"new_email" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "message_notices" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"pending_count" integer DEFAULT 0 NOT NULL,
	"pending_since" timestamp with time zone,
	"due_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_notice_at" timestamp with time zone,
	"stop_version" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "email_changes" ADD CONSTRAINT "email_changes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_notices" ADD CONSTRAINT "message_notices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "email_changes_token_key" ON "email_changes" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "email_changes_user_idx" ON "email_changes" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "message_notices_due_idx" ON "message_notices" USING btree ("due_at") WHERE "message_notices"."pending_count" > 0;--> statement-breakpoint
-- New-message notices (decision 0033): every statement that inserts messages (a member's send, an
-- administrator's direct or batch send, the scheduled dispatcher, seeds) records, in its own
-- transaction, one grouped upsert per recipient: how many arrived and since when. The mail itself
-- is the notice job's (packages/api/src/notices). Rows are taken in user_id order, so two batches
-- to overlapping recipients never wait for each other in a circle. A row whose window is still
-- running keeps its due_at; a quiet row becomes due at once.
CREATE FUNCTION message_notices_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO message_notices AS n (user_id, pending_count, pending_since, due_at)
  SELECT r.to_user_id, count(*)::int, min(r.created_at), now()
  FROM message_notices_new_rows r
  WHERE r.deleted_at IS NULL AND r.to_user_id <> r.from_user_id
  GROUP BY r.to_user_id
  ORDER BY r.to_user_id
  ON CONFLICT (user_id) DO UPDATE
    SET pending_count = n.pending_count + excluded.pending_count,
        pending_since = coalesce(n.pending_since, excluded.pending_since),
        due_at = greatest(n.due_at, excluded.due_at);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER message_notices_insert AFTER INSERT ON messages
  REFERENCING NEW TABLE AS message_notices_new_rows FOR EACH STATEMENT EXECUTE FUNCTION message_notices_apply();
