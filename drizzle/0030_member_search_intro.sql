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
CREATE INDEX "users_search_active_idx" ON "users" USING btree ("last_active_at","id") WHERE "users"."deleted_at" is null and "users"."suspended_at" is null and "users"."role" = 'user' and "users"."verification_status" = 'verified';--> statement-breakpoint
-- Profile search (docs/decisions/0029): the name and the self-introduction are searched as the
-- board is (decision 0007, board/search.ts): the same normalising function (NFKC, lower case, white
-- space runs as one space, hiragana folded to katakana; migration 0027) and the same gram function
-- (migration 0018), so a keyword is parsed once for both. A BEFORE trigger keeps search_text; an
-- AFTER trigger keeps every distinct 1-/2-character gram of a live member's search text in
-- member_search_grams (none for a deleted account). Activity (last_active_at) and every other
-- column leave both untouched: the triggers fire only on name, self_introduction and deleted_at.
CREATE OR REPLACE FUNCTION users_search_text() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_text := board_search_normalize(NEW.name) || chr(31) || board_search_normalize(NEW.self_introduction);
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION users_search_grams() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.deleted_at IS NULL THEN
    IF TG_OP = 'DELETE' OR NEW.search_text IS DISTINCT FROM OLD.search_text OR NEW.deleted_at IS NOT NULL THEN
      DELETE FROM member_search_grams
      WHERE (gram, user_id) IN (SELECT g, OLD.id FROM board_search_grams(OLD.search_text) AS g);
    ELSE
      RETURN NULL;
    END IF;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.deleted_at IS NULL THEN
    INSERT INTO member_search_grams (gram, user_id)
    SELECT g, NEW.id FROM board_search_grams(NEW.search_text) AS g
    ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER users_search_text BEFORE INSERT OR UPDATE OF name, self_introduction ON users
FOR EACH ROW EXECUTE FUNCTION users_search_text();
--> statement-breakpoint
CREATE TRIGGER users_search_grams AFTER INSERT OR UPDATE OF name, self_introduction, deleted_at OR DELETE ON users
FOR EACH ROW EXECUTE FUNCTION users_search_grams();
--> statement-breakpoint
-- Existing accounts: their search text and grams in two set-based statements (not a row trigger
-- each), and activity as their last change (the column's default, now, would rank every existing
-- member as active today; they move up at their next request or sign-in).
UPDATE users SET search_text = board_search_normalize(name) || chr(31) || board_search_normalize(self_introduction),
  last_active_at = greatest(created_at, updated_at);
--> statement-breakpoint
INSERT INTO member_search_grams (gram, user_id)
SELECT g, u.id FROM users u, board_search_grams(u.search_text) AS g WHERE u.deleted_at IS NULL
ON CONFLICT DO NOTHING;
--> statement-breakpoint
ANALYZE member_search_grams;
