import type { Db } from "@enmusubi/db";
import { sql } from "drizzle-orm";
import { perDatabase } from "../request-scope";

/**
 * The reference lists (point costs, occupations, annual-income ranges) as each process last read
 * them: every screen and the signup page fetch them, and they change only when an administrator
 * edits them, so a list is read from the database once and answered from memory until it changes.
 *
 * A change made through the services below is announced inside its own transaction with
 * NOTIFY on REFERENCE_CHANNEL (delivered when, and only if, it commits); every process of the
 * server LISTENs (apps/server/src/reference-events.ts) and drops its copy, and the process that
 * made the change drops its own as soon as the transaction has committed, so its next answer is
 * already the new list. Another worker or instance answers the old list only until the
 * notification arrives (milliseconds). The list is for display: charging reads the cost from the
 * database inside the paying transaction (points/charge.ts), never from here.
 *
 * A change made by hand in SQL (or by a migration) must announce itself the same way:
 * `select pg_notify('enmusubi_reference', 'point_costs')`, or the servers be restarted.
 * docs/decisions/0012 says what else a process may keep between requests (sessions: never).
 */
export const REFERENCE_CHANNEL = "enmusubi_reference";

export type ReferenceList = "point_costs" | "occupations" | "annual_incomes";
export const REFERENCE_LISTS: readonly ReferenceList[] = ["point_costs", "occupations", "annual_incomes"];

const cacheOf = perDatabase((): Map<ReferenceList, Promise<readonly unknown[]>> => new Map());

/**
 * The list from memory, or read with `load` and kept. Concurrent first readers share one read; a
 * read that fails is not kept. The rows are frozen (every request gets the same objects; a caller
 * that wants to change one copies it).
 */
export function cachedList<T extends object>(
  db: Db,
  list: ReferenceList,
  load: () => Promise<T[]>,
): Promise<readonly T[]> {
  const cache = cacheOf(db);
  const known = cache.get(list);
  if (known) return known as Promise<readonly T[]>;
  const loading = load().then((rows): readonly T[] => Object.freeze(rows.map((row) => Object.freeze(row) as T)));
  cache.set(list, loading);
  loading.catch(() => {
    if (cache.get(list) === loading) cache.delete(list);
  });
  return loading;
}

/**
 * Drops this process's copy of a list (all of them without `list`): after this process's own
 * change, on another process's notification, and whenever the LISTEN connection (re)connects
 * (notifications sent while it was down are lost). A read still in flight is dropped with it.
 */
export function forgetReferenceList(db: Db, list?: ReferenceList): void {
  if (list) cacheOf(db).delete(list);
  else cacheOf(db).clear();
}

/**
 * Runs a change of `list` in one transaction that also announces it to every process (NOTIFY,
 * sent on commit only), and drops this process's copy once the transaction has committed or
 * failed (whatever it did is then rolled back, but a reader may have read during it: reading
 * again is always right).
 */
export async function changeReferenceList<T>(db: Db, list: ReferenceList, change: (tx: Db) => Promise<T>): Promise<T> {
  try {
    return await db.transaction(async (tx) => {
      const result = await change(tx);
      await tx.execute(sql`select pg_notify(${REFERENCE_CHANNEL}, ${list})`);
      return result;
    });
  } finally {
    forgetReferenceList(db, list);
  }
}
