-- Existing balances become one lot each: free points (paid = false), valid 3 years from this migration
-- (docs/decisions/0008-point-lots.md). From here on the ledger writes a lot for every credit.
INSERT INTO "point_lots" ("user_id", "source", "paid", "amount", "remaining", "yen_amount", "expires_at")
SELECT "id", 'initial', false, "points", "points", 0, now() + interval '3 years'
FROM "users"
WHERE "points" > 0;
