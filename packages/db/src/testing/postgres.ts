import type { Database } from "../client";

/**
 * The PostgreSQL server the tests run on, when TEST_DATABASE_URL is set; otherwise every test
 * database is a PGlite. The vitest global setup builds its template from this same value, and the
 * test workers inherit the variable, so the gate below and the template always agree.
 */
// biome-ignore lint/style/noProcessEnv: the test run's one switch, read by the global setup and the workers alike.
export const testPostgresUrl: string | undefined = process.env.TEST_DATABASE_URL || undefined;

/**
 * The one gate of the tests that need PostgreSQL (connections that really interleave, LISTEN/NOTIFY
 * across processes, a server to kill): `describe.runIf(onPostgres)(…)`. PGlite has one connection.
 */
export const onPostgres = testPostgresUrl !== undefined;

/**
 * Resolves once `count` sessions of this database wait for a lock another transaction holds (a
 * row lock, an advisory lock…): the moment a test means by "the other transaction waits now".
 * Polls pg_locks on its own connection; rejects after `timeoutMs`. PostgreSQL only.
 */
export async function waitForLockWaiters(database: Database, count = 1, timeoutMs = 10_000): Promise<void> {
  const sql = database.sql;
  if (!sql) throw new Error("waitForLockWaiters needs a PostgreSQL database");
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await sql<{ waiting: number }[]>`
      select count(distinct l.pid)::int as waiting
      from pg_locks l join pg_stat_activity a on a.pid = l.pid
      where not l.granted and a.datname = current_database()`;
    if ((row?.waiting ?? 0) >= count) return;
    if (Date.now() > deadline) {
      throw new Error(`${row?.waiting ?? 0} of ${count} sessions waiting for a lock after ${timeoutMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
