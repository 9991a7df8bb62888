import type { SQL } from "drizzle-orm";
import type { Db } from "./client";

/** The rows of a raw statement, whichever driver answered (postgres.js: an array; PGlite: `{ rows }`). */
export async function rowsOf<T>(db: Pick<Db, "execute">, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown;
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}
