-- The planner's row estimate for a statement, without running it (EXPLAIN): the administrators'
-- user list carries it in the same statement as its page and capped count, one round trip instead
-- of two when the count passes its cap (packages/api/src/users/admin-list.ts, issue 27). Only the
-- server calls it, with statement text it built itself. VOLATILE: PostgreSQL allows EXPLAIN in no
-- other kind of function; in an uncorrelated subquery it still runs once per statement.
CREATE OR REPLACE FUNCTION planned_rows(statement text) RETURNS bigint
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  plan json;
BEGIN
  EXECUTE 'EXPLAIN (FORMAT JSON) ' || statement INTO plan;
  RETURN round((plan -> 0 -> 'Plan' ->> 'Plan Rows')::numeric)::bigint;
END
$$;
