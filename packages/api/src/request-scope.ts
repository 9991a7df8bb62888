import type { Db } from "@enmusubi/db";

/**
 * The request a procedure serves, for what the services record about it without every call
 * passing it along: the audit rows (audit/audit-log.ts) carry its id (X-Request-Id).
 *
 * The id travels on the database handle the procedure is given (`ctx.db`, context.ts): a view of
 * the process's handle that runs the same statements and carries the id, and whose transactions
 * (and their savepoints) carry it too. It used to travel in an AsyncLocalStorage; on Node 20 that
 * installs promise hooks that every promise of the process then pays for, about a tenth of the
 * server's CPU per call (pnpm bench:http, decision 0037). Outside a request (jobs, tests, the CLI)
 * there is none.
 */
const REQUEST_ID = Symbol("requestId");
const ROOT = Symbol("root");

type Tagged = Db & { [REQUEST_ID]?: string; [ROOT]?: Db };

export function withRequestId<T extends Db>(db: T, requestId: string): T {
  const tagged = Object.create(db) as T & { [REQUEST_ID]: string; [ROOT]: Db };
  tagged[REQUEST_ID] = requestId;
  tagged[ROOT] = (db as Tagged)[ROOT] ?? db;
  // A transaction's handle is a new object: it is tagged in turn.
  tagged.transaction = ((fn: (tx: Db) => Promise<unknown>, config?: unknown) =>
    db.transaction((tx) => fn(withRequestId(tx as Db, requestId)), config as never)) as T["transaction"];
  return tagged;
}

/** The id of the request `db` serves (X-Request-Id), or undefined. */
export const requestIdOf = (db: Db): string | undefined => (db as Tagged)[REQUEST_ID];

/**
 * One value per database (a prepared statement, a cache of reference lists), built by `build` on
 * first use. A request's view of a database (above) shares its database's value: keyed by the
 * view, every request would build its own.
 */
export function perDatabase<T>(build: (db: Db) => T): (db: Db) => T {
  const values = new WeakMap<Db, T>();
  return (db) => {
    const root = (db as Tagged)[ROOT] ?? db;
    let value = values.get(root);
    if (value === undefined) {
      value = build(root);
      values.set(root, value);
    }
    return value;
  };
}

/**
 * As `perDatabase`, one value per database and per shape (`keyOf(shape)`): a statement whose text
 * depends on which filters a request gives, prepared once per shape with placeholders for the
 * values (decision 0037: building a search's statement cost more of the server's CPU than sending it).
 * At most `maxShapes` per database are kept; past that the cache starts again (the shapes a caller
 * can ask for are few, this only bounds a bug).
 */
export function perDatabaseShape<S, T>(
  keyOf: (shape: S) => string,
  build: (db: Db, shape: S) => T,
  maxShapes = 256,
): (db: Db, shape: S) => T {
  const values = new WeakMap<Db, Map<string, T>>();
  return (db, shape) => {
    const root = (db as Tagged)[ROOT] ?? db;
    let shapes = values.get(root);
    if (shapes === undefined) {
      shapes = new Map();
      values.set(root, shapes);
    }
    const key = keyOf(shape);
    let value = shapes.get(key);
    if (value === undefined) {
      if (shapes.size >= maxShapes) shapes.clear();
      value = build(root, shape);
      shapes.set(key, value);
    }
    return value;
  };
}
