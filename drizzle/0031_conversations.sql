CREATE TABLE "conversations" (
	"member_id" uuid NOT NULL,
	"partner_id" uuid NOT NULL,
	"last_message_id" uuid NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	"unread_count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "conversations_member_id_partner_id_pk" PRIMARY KEY("member_id","partner_id"),
	CONSTRAINT "conversations_unread_count_check" CHECK ("conversations"."unread_count" >= 0)
);
--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_member_id_users_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_partner_id_users_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "conversations_member_recent_idx" ON "conversations" USING btree ("member_id","last_at","partner_id");--> statement-breakpoint
CREATE INDEX "messages_pair_live_idx" ON "messages" USING btree (least("from_user_id", "to_user_id"),greatest("from_user_id", "to_user_id"),"created_at","id") WHERE "messages"."deleted_at" is null;--> statement-breakpoint
-- Keeps conversations (one row per member and partner, both directions; decision 0030) equal to
-- what the live messages say, in the transaction that writes them. Statement triggers with
-- transition tables, as for purchase_daily_totals (migration 0024): a batch of sends is one
-- grouped upsert. Lock order: every statement takes the rows it touches in (member_id,
-- partner_id) order, and a statement touching a pair takes both of its rows, so two writers of
-- one pair (a reply crossing a reply, a read crossing a send) never wait for each other in a circle.
--
-- The newest message of a pair, recomputed from the pair index: after a deletion (soft or hard),
-- or any change of a message's sender, recipient or time. No live message left: both rows go.
-- The caller has locked the pair's rows, so the counts read here are not overtaken by a writer
-- that has not reached the rows yet (it waits, then adds its own message on top).
CREATE FUNCTION conversations_refresh(a uuid, b uuid) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  newest record;
BEGIN
  SELECT m.id, m.created_at INTO newest
  FROM messages m
  WHERE least(m.from_user_id, m.to_user_id) = least(a, b)
    AND greatest(m.from_user_id, m.to_user_id) = greatest(a, b)
    AND m.deleted_at IS NULL
  ORDER BY m.created_at DESC, m.id DESC
  LIMIT 1;
  IF NOT FOUND THEN
    DELETE FROM conversations WHERE (member_id, partner_id) IN ((a, b), (b, a));
    RETURN;
  END IF;
  INSERT INTO conversations AS c (member_id, partner_id, last_message_id, last_at, unread_count)
  SELECT s.m, s.p, newest.id, newest.created_at,
         (SELECT count(*)::int FROM messages x
          WHERE x.to_user_id = s.m AND x.from_user_id = s.p AND NOT x.is_read AND x.deleted_at IS NULL)
  FROM (SELECT DISTINCT v.m, v.p FROM (VALUES (a, b), (b, a)) v(m, p)) s
  ORDER BY s.m, s.p
  ON CONFLICT (member_id, partner_id) DO UPDATE
    SET last_message_id = excluded.last_message_id, last_at = excluded.last_at, unread_count = excluded.unread_count;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION conversations_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  pair record;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM conversations;
  ELSIF TG_OP = 'INSERT' THEN
    -- New live messages: each pair's newest of them competes with the row's, unread ones add up.
    INSERT INTO conversations AS c (member_id, partner_id, last_message_id, last_at, unread_count)
    SELECT DISTINCT ON (s.m, s.p) s.m, s.p, s.id, s.created_at, (sum(s.unread) OVER (PARTITION BY s.m, s.p))::int
    FROM (
      SELECT n.from_user_id AS m, n.to_user_id AS p, n.id, n.created_at, 0 AS unread
      FROM conversations_new_rows n WHERE n.deleted_at IS NULL
      UNION ALL
      SELECT n.to_user_id, n.from_user_id, n.id, n.created_at, CASE WHEN n.is_read THEN 0 ELSE 1 END
      FROM conversations_new_rows n WHERE n.deleted_at IS NULL
    ) s
    ORDER BY s.m, s.p, s.created_at DESC, s.id DESC
    ON CONFLICT (member_id, partner_id) DO UPDATE
      SET unread_count = c.unread_count + excluded.unread_count,
          last_message_id = CASE WHEN (excluded.last_at, excluded.last_message_id) > (c.last_at, c.last_message_id)
                                 THEN excluded.last_message_id ELSE c.last_message_id END,
          last_at = greatest(c.last_at, excluded.last_at);
  ELSIF TG_OP = 'UPDATE' THEN
    -- Only a change of read state, liveness, sender, recipient or time matters (not a body, a
    -- reply mark or an opening by itself). Both rows of every pair concerned are locked first.
    PERFORM 1 FROM conversations c
    WHERE (c.member_id, c.partner_id) IN (
      SELECT k.m, k.p
      FROM conversations_old_rows o JOIN conversations_new_rows n ON n.id = o.id
      CROSS JOIN LATERAL (VALUES (o.from_user_id, o.to_user_id), (o.to_user_id, o.from_user_id),
                                 (n.from_user_id, n.to_user_id), (n.to_user_id, n.from_user_id)) k(m, p)
      WHERE (o.is_read, o.deleted_at IS NULL, o.from_user_id, o.to_user_id, o.created_at)
            IS DISTINCT FROM (n.is_read, n.deleted_at IS NULL, n.from_user_id, n.to_user_id, n.created_at))
    ORDER BY c.member_id, c.partner_id
    FOR UPDATE;
    -- Read or unread again, nothing else changed: the recipient's count moves by one each.
    UPDATE conversations c SET unread_count = c.unread_count + d.delta
    FROM (
      SELECT n.to_user_id AS m, n.from_user_id AS p, sum(CASE WHEN n.is_read THEN -1 ELSE 1 END)::int AS delta
      FROM conversations_old_rows o JOIN conversations_new_rows n ON n.id = o.id
      WHERE o.is_read <> n.is_read AND o.deleted_at IS NULL AND n.deleted_at IS NULL
        AND o.from_user_id = n.from_user_id AND o.to_user_id = n.to_user_id AND o.created_at = n.created_at
      GROUP BY 1, 2
    ) d
    WHERE c.member_id = d.m AND c.partner_id = d.p AND d.delta <> 0;
    -- Deleted, restored or moved: the pairs concerned are recomputed.
    FOR pair IN
      SELECT DISTINCT least(k.a, k.b) AS a, greatest(k.a, k.b) AS b
      FROM conversations_old_rows o JOIN conversations_new_rows n ON n.id = o.id
      CROSS JOIN LATERAL (VALUES (o.from_user_id, o.to_user_id), (n.from_user_id, n.to_user_id)) k(a, b)
      WHERE (o.deleted_at IS NULL, o.from_user_id, o.to_user_id, o.created_at)
            IS DISTINCT FROM (n.deleted_at IS NULL, n.from_user_id, n.to_user_id, n.created_at)
      ORDER BY 1, 2
    LOOP
      PERFORM conversations_refresh(pair.a, pair.b);
    END LOOP;
  ELSE
    PERFORM 1 FROM conversations c
    WHERE (c.member_id, c.partner_id) IN (
      SELECT k.m, k.p FROM conversations_old_rows o
      CROSS JOIN LATERAL (VALUES (o.from_user_id, o.to_user_id), (o.to_user_id, o.from_user_id)) k(m, p)
      WHERE o.deleted_at IS NULL)
    ORDER BY c.member_id, c.partner_id
    FOR UPDATE;
    FOR pair IN
      SELECT DISTINCT least(o.from_user_id, o.to_user_id) AS a, greatest(o.from_user_id, o.to_user_id) AS b
      FROM conversations_old_rows o WHERE o.deleted_at IS NULL
      ORDER BY 1, 2
    LOOP
      PERFORM conversations_refresh(pair.a, pair.b);
    END LOOP;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER conversations_insert AFTER INSERT ON messages
  REFERENCING NEW TABLE AS conversations_new_rows FOR EACH STATEMENT EXECUTE FUNCTION conversations_apply();
--> statement-breakpoint
CREATE TRIGGER conversations_update AFTER UPDATE ON messages
  REFERENCING OLD TABLE AS conversations_old_rows NEW TABLE AS conversations_new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION conversations_apply();
--> statement-breakpoint
CREATE TRIGGER conversations_delete AFTER DELETE ON messages
  REFERENCING OLD TABLE AS conversations_old_rows FOR EACH STATEMENT EXECUTE FUNCTION conversations_apply();
--> statement-breakpoint
CREATE TRIGGER conversations_truncate AFTER TRUNCATE ON messages
  FOR EACH STATEMENT EXECUTE FUNCTION conversations_apply();
--> statement-breakpoint
-- The messages already there.
INSERT INTO conversations (member_id, partner_id, last_message_id, last_at, unread_count)
SELECT DISTINCT ON (s.m, s.p) s.m, s.p, s.id, s.created_at, (sum(s.unread) OVER (PARTITION BY s.m, s.p))::int
FROM (
  SELECT from_user_id AS m, to_user_id AS p, id, created_at, 0 AS unread FROM messages WHERE deleted_at IS NULL
  UNION ALL
  SELECT to_user_id, from_user_id, id, created_at, CASE WHEN is_read THEN 0 ELSE 1 END FROM messages WHERE deleted_at IS NULL
) s
ORDER BY s.m, s.p, s.created_at DESC, s.id DESC;
