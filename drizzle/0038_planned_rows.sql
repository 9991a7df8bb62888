-- The planner's row estimate for a statement, without running it (EXPLAIN): the administrators'
-- user list carries it in the same statement as its page and capped count, one round trip instead
-- of two when the count passes its cap (packages/api/src/users/admin-list.ts, issue 27). Only the
-- server calls it, with statement text it built itself.
CREATE OR REPLACE FUNCTION planned_rows(statement text) RETURNS bigint
LANGUAGE plpgsql STABLE AS $$
DECLARE
  plan json;
BEGIN
  EXECUTE 'EXPLAIN (FORMAT JSON) ' || statement INTO plan;
  RETURN round((plan -> 0 -> 'Plan' ->> 'Plan Rows')::numeric)::bigint;
END
$$;
