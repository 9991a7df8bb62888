-- Keeps purchase_daily_totals (migration 0023) equal to the sums of purchase_transactions per
-- Japanese day of created_at, status and method, in the transaction that writes the rows
-- (docs/decisions/0011). Statement triggers with transition tables: a statement touching many
-- rows (a batch of expired SmartPit codes, a bulk import) adds one grouped delta per key, the keys
-- in a fixed order so that two writers lock the shared rows in the same order.
CREATE FUNCTION purchase_daily_totals_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM purchase_daily_totals;
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO purchase_daily_totals AS t (day, status, payment_method, count, amount, points)
    SELECT (created_at AT TIME ZONE 'Asia/Tokyo')::date, status, payment_method, count(*), sum(amount), sum(points)
    FROM purchase_new_rows
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (day, status, payment_method) DO UPDATE
      SET count = t.count + excluded.count, amount = t.amount + excluded.amount, points = t.points + excluded.points;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO purchase_daily_totals AS t (day, status, payment_method, count, amount, points)
    SELECT (created_at AT TIME ZONE 'Asia/Tokyo')::date, status, payment_method, -count(*), -sum(amount), -sum(points)
    FROM purchase_old_rows
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (day, status, payment_method) DO UPDATE
      SET count = t.count + excluded.count, amount = t.amount + excluded.amount, points = t.points + excluded.points;
  ELSE
    -- An update moves a row between keys only when its status, method, day or figures change.
    INSERT INTO purchase_daily_totals AS t (day, status, payment_method, count, amount, points)
    SELECT d.day, d.status, d.payment_method, sum(d.n), sum(d.amount), sum(d.points)
    FROM (
      SELECT (created_at AT TIME ZONE 'Asia/Tokyo')::date AS day, status, payment_method,
             1 AS n, amount::bigint AS amount, points::bigint AS points
      FROM purchase_new_rows
      UNION ALL
      SELECT (created_at AT TIME ZONE 'Asia/Tokyo')::date, status, payment_method, -1, -amount::bigint, -points::bigint
      FROM purchase_old_rows
    ) d
    GROUP BY d.day, d.status, d.payment_method
    HAVING sum(d.n) <> 0 OR sum(d.amount) <> 0 OR sum(d.points) <> 0
    ORDER BY d.day, d.status, d.payment_method
    ON CONFLICT (day, status, payment_method) DO UPDATE
      SET count = t.count + excluded.count, amount = t.amount + excluded.amount, points = t.points + excluded.points;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER purchase_daily_totals_insert AFTER INSERT ON purchase_transactions
  REFERENCING NEW TABLE AS purchase_new_rows FOR EACH STATEMENT EXECUTE FUNCTION purchase_daily_totals_apply();
--> statement-breakpoint
CREATE TRIGGER purchase_daily_totals_update AFTER UPDATE ON purchase_transactions
  REFERENCING OLD TABLE AS purchase_old_rows NEW TABLE AS purchase_new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION purchase_daily_totals_apply();
--> statement-breakpoint
CREATE TRIGGER purchase_daily_totals_delete AFTER DELETE ON purchase_transactions
  REFERENCING OLD TABLE AS purchase_old_rows FOR EACH STATEMENT EXECUTE FUNCTION purchase_daily_totals_apply();
--> statement-breakpoint
CREATE TRIGGER purchase_daily_totals_truncate AFTER TRUNCATE ON purchase_transactions
  FOR EACH STATEMENT EXECUTE FUNCTION purchase_daily_totals_apply();
--> statement-breakpoint
-- The transactions already there.
INSERT INTO purchase_daily_totals (day, status, payment_method, count, amount, points)
SELECT (created_at AT TIME ZONE 'Asia/Tokyo')::date, status, payment_method, count(*), sum(amount), sum(points)
FROM purchase_transactions
GROUP BY 1, 2, 3;
