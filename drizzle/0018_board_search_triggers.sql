-- Japanese substring search for the board (docs/decisions/0007): search text and 1-/2-character
-- grams kept by triggers, so every writer (service, demo seed, moderation) keeps them right.
CREATE OR REPLACE FUNCTION board_search_normalize(t text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT lower(regexp_replace(normalize(replace(coalesce(t, ''), chr(31), ' '), NFKC), '\s+', ' ', 'g'))
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION board_search_grams(t text) RETURNS SETOF text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT DISTINCT g FROM (
    SELECT substr(t, i, 1) AS g FROM generate_series(1, char_length(t)) AS i
    UNION ALL
    SELECT substr(t, i, 2) FROM generate_series(1, char_length(t) - 1) AS i
  ) AS s
  WHERE strpos(g, chr(31)) = 0
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION board_posts_search_text() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_text := board_search_normalize(NEW.title) || chr(31) || board_search_normalize(NEW.content);
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION board_posts_search_grams() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.deleted_at IS NULL THEN
    IF TG_OP = 'DELETE' OR NEW.search_text IS DISTINCT FROM OLD.search_text
       OR NEW.created_at IS DISTINCT FROM OLD.created_at OR NEW.deleted_at IS NOT NULL THEN
      DELETE FROM board_post_grams
      WHERE (gram, created_at, post_id) IN (SELECT g, OLD.created_at, OLD.id FROM board_search_grams(OLD.search_text) AS g);
    ELSE
      RETURN NULL;
    END IF;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.deleted_at IS NULL THEN
    INSERT INTO board_post_grams (gram, created_at, post_id)
    SELECT g, NEW.created_at, NEW.id FROM board_search_grams(NEW.search_text) AS g
    ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER board_posts_search_text BEFORE INSERT OR UPDATE OF title, content ON board_posts
FOR EACH ROW EXECUTE FUNCTION board_posts_search_text();
--> statement-breakpoint
CREATE TRIGGER board_posts_search_grams AFTER INSERT OR UPDATE OR DELETE ON board_posts
FOR EACH ROW EXECUTE FUNCTION board_posts_search_grams();
--> statement-breakpoint
UPDATE board_posts SET title = title;
--> statement-breakpoint
ANALYZE board_post_grams;
