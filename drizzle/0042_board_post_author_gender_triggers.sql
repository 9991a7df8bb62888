-- The author's gender on each board post (docs/decisions/0038), null for the operator's posts (an
-- administrator's): kept from users by triggers, so every writer (the service, the demo seed, the
-- benches) keeps it right, and the board's other-gender list reads its own partial indexes.
CREATE OR REPLACE FUNCTION board_posts_author_gender() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.author_gender := (SELECT CASE WHEN u.role = 'user' THEN u.gender END FROM users u WHERE u.id = NEW.author_id);
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION users_board_author_gender() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE board_posts SET author_gender = CASE WHEN NEW.role = 'user' THEN NEW.gender END
  WHERE author_id = NEW.id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
UPDATE board_posts p SET author_gender = u.gender FROM users u WHERE u.id = p.author_id AND u.role = 'user';
--> statement-breakpoint
CREATE TRIGGER board_posts_author_gender BEFORE INSERT OR UPDATE OF author_id, author_gender ON board_posts
FOR EACH ROW EXECUTE FUNCTION board_posts_author_gender();
--> statement-breakpoint
CREATE TRIGGER users_board_author_gender AFTER UPDATE OF gender, role ON users
FOR EACH ROW WHEN (OLD.gender IS DISTINCT FROM NEW.gender OR OLD.role IS DISTINCT FROM NEW.role)
EXECUTE FUNCTION users_board_author_gender();
--> statement-breakpoint
ANALYZE board_posts;
