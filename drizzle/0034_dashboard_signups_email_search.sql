-- The operator's dashboard (docs/decisions/0036). member_daily_signups (migration 0033) counts the
-- members (role 'user') signed up per Japanese day of created_at, kept by a statement trigger with
-- a transition table in the inserting transaction: one grouped upsert per statement, whoever
-- inserts (sign-up, an administrator, seed, import). Deletions leave it alone: a sign-up happened.
CREATE FUNCTION member_daily_signups_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO member_daily_signups AS t (day, count)
  SELECT (created_at AT TIME ZONE 'Asia/Tokyo')::date, count(*)
  FROM member_signup_rows
  WHERE role = 'user'
  GROUP BY 1 ORDER BY 1
  ON CONFLICT (day) DO UPDATE SET count = t.count + excluded.count;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER member_daily_signups_insert AFTER INSERT ON users
  REFERENCING NEW TABLE AS member_signup_rows FOR EACH STATEMENT EXECUTE FUNCTION member_daily_signups_apply();
--> statement-breakpoint
-- The members already there (deleted ones included: they signed up that day).
INSERT INTO member_daily_signups (day, count)
SELECT (created_at AT TIME ZONE 'Asia/Tokyo')::date, count(*) FROM users WHERE role = 'user' GROUP BY 1;
--> statement-breakpoint
-- The admin user search (docs/decisions/0036): a part of an e-mail address (3 characters or more)
-- is found through this trigram index, as users_name_trgm_idx and users_user_id_trgm_idx (0019).
CREATE INDEX IF NOT EXISTS "users_email_trgm_idx" ON "users" USING gin (lower("email") gin_trgm_ops);
