import type { Database } from "@enmusubi/db";

/** Rows of a `db.execute` answer, whichever driver (PGlite or node-postgres) gave it. */
export function rowsOf<T = Record<string, unknown>>(result: unknown): T[] {
  return (Array.isArray(result) ? [...result] : (result as { rows: T[] }).rows) as T[];
}

/** The app's tables (schema public), by name. */
export async function appTables(database: Database): Promise<string[]> {
  return rowsOf<{ name: string }>(
    await database.db.execute(
      `select table_name as name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
    ),
  ).map((t) => t.name);
}

/**
 * One query that digests every row of every table of the app's schema: equal digests mean the
 * database holds the same rows (used to prove a refused request changed nothing, cheaply enough
 * to run after each group of generated requests; `snapshotTables` would be one query per table).
 */
export async function databaseFingerprint(database: Database): Promise<string> {
  const tables = await appTables(database);
  const parts = tables.map(
    (name) =>
      `select '${name}' as t, md5(coalesce(string_agg(r::text, ',' order by r::text), '')) as d from "${name}" r`,
  );
  const [row] = rowsOf<{ digest: string }>(
    await database.db.execute(
      `select string_agg(t || '=' || d, ';' order by t) as digest from (${parts.join(" union all ")}) s`,
    ),
  );
  return row?.digest ?? "";
}

/** Table by table, which digests differ between two fingerprints (for a readable failure). */
export function changedTables(before: string, after: string): string[] {
  const map = (s: string) => new Map(s.split(";").map((p) => p.split("=") as [string, string]));
  const a = map(before);
  const b = map(after);
  return [...b.keys()].filter((k) => a.get(k) !== b.get(k));
}
