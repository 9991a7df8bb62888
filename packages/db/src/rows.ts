import type { Query, SQL } from "drizzle-orm";
import type { PgDialect, PgSession } from "drizzle-orm/pg-core";
import type { Db } from "./client";

/** The rows of a raw statement, whichever driver answered (postgres.js: an array; PGlite: `{ rows }`). */
export async function rowsOf<T>(db: Pick<Db, "execute">, query: SQL): Promise<T[]> {
  return rowsIn<T>(await db.execute(query));
}

/** postgres.js answers an array of rows, PGlite `{ rows }`. */
const rowsIn = <T>(result: unknown): T[] => (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];

/**
 * Sends a statement of a transaction without waiting for its answer: the statements issued after
 * it follow it in the same write to the database and run after it (a transaction's statements run
 * in order), one round trip less. The answer is dropped; await what this returns before the
 * transaction's callback returns, so its failure is thrown there. Until then a failure is observed
 * here (no unhandled rejection), and it fails the transaction anyway.
 */
export function sentAhead(statement: PromiseLike<unknown>): Promise<void> {
  // `then` is called now (drizzle sends a statement when it is first awaited): Promise.resolve
  // would call it a microtask later, after statements issued meanwhile.
  const done = new Promise<void>((resolve, reject) => {
    statement.then(() => resolve(), reject);
  });
  done.catch(() => {});
  return done;
}

/** What drizzle keeps on every handle (a transaction's too) and marks internal. */
interface HandleParts {
  dialect: PgDialect;
  session: PgSession;
}

/**
 * A raw statement whose text is worked out once, not on every call: `build` writes it with
 * `sql.placeholder(name)` for each value that changes between calls, and a call only fills them in
 * from `values`. `db.execute(sql…)` turns the whole template into text each time, which cost a
 * member's send about a tenth of the server's CPU (decision 0037, sixth session). Runs on the handle it
 * is given, a transaction's included; answers the rows as `rowsOf` does. The statement is sent when
 * this is called (so `sentAhead` may take it).
 */
export function compiledStatement<T>(build: () => SQL): (db: Db, values: Record<string, unknown>) => Promise<T[]> {
  let query: Query | undefined;
  return async (db, values) => {
    const parts = db as unknown as HandleParts;
    // Both drivers speak PostgreSQL's dialect: one text serves every handle.
    query ??= parts.dialect.sqlToQuery(build());
    return rowsIn<T>(await parts.session.prepareQuery(query, undefined, undefined, false).execute(values));
  };
}
