import type { SQL } from "drizzle-orm";
import type { Db } from "./client";

/** The rows of a raw statement, whichever driver answered (postgres.js: an array; PGlite: `{ rows }`). */
export async function rowsOf<T>(db: Pick<Db, "execute">, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown;
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

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
