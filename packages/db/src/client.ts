import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { acquireDirLock } from "./dir-lock";

/**
 * One type for both drivers; a transaction is also a `Db`, so services take either. Without the
 * schema: the services write their queries with the query builder, never drizzle's relational
 * `db.query` API, and a handle given the schema builds one relational builder per table for every
 * transaction it opens (decision 0037).
 */
export type Db = PgDatabase<PgQueryResultHKT>;

export const migrationsFolder = fileURLToPath(new URL("../../../drizzle", import.meta.url));

export interface Database {
  db: Db;
  kind: "postgres" | "pglite";
  /** The embedded instance when kind is pglite (pg-boss and test snapshots use it). */
  pglite?: PGlite;
  /** The postgres.js client and its connection URL when kind is postgres (pg-boss connects with it). */
  sql?: postgres.Sql;
  url?: string;
  /** The most connections the postgres.js pool opens (kind postgres). */
  poolMax?: number;
  migrate(): Promise<void>;
  close(): Promise<void>;
}

export type DatabaseOptions = ({ url: string; max?: number } | { dataDir: string } | { pglite: PGlite }) & {
  /** Where `migrate()` reads the SQL migrations; the committed `drizzle/` folder by default (tests override it). */
  migrationsFolder?: string;
};

/** Contrib extensions the migrations create; PGlite must be given them when it starts (PostgreSQL ships them). */
export const pgliteExtensions = { pg_trgm };

/** Connections a process's postgres.js pool opens at most unless `max` says otherwise (the server sets it: DATABASE_POOL_MAX). */
export const DEFAULT_POOL_MAX = 10;

/** See `preparing`. */
const PREPARE_MAX_PARAMS = 100;
/**
 * One read statement (no `;`, so never a script): a page's capped count, a list with its values
 * written as literals, an estimate's EXPLAIN. DDL and migrations keep the simple protocol.
 */
const ONE_READ = /^\s*(?:select|with|explain)\b[^;]*$/i;

/**
 * The client drizzle is given: every statement with parameters is prepared once per connection
 * (postgres.js names it and PostgreSQL keeps its plan), in transactions too. Drizzle asks
 * postgres.js to prepare only the queries it was told to `.prepare()`; the others went as unnamed
 * statements, parsed and planned again on every call, which cost PostgreSQL twice the CPU of the
 * same statements prepared (pnpm bench:http, decision 0011); a read without parameters went as a simple
 * query, planned on every call too (decision 0037). A connection's statements are dropped with
 * it (each is replaced after 30–60 minutes, below). Bulk statements (more than
 * PREPARE_MAX_PARAMS parameters: a batch's rows, a long id list) stay unnamed: their text changes
 * with the row count, so keeping each would only fill the connection's memory.
 */
function preparing<T extends object>(client: T): T {
  // The wrappers are made once per client, not on every property read (drizzle reads `unsafe`
  // for every statement it sends).
  const wrapped = new Map<PropertyKey, unknown>();
  const wrap = (property: PropertyKey, value: (...args: unknown[]) => unknown): unknown => {
    if (property === "unsafe")
      return (query: string, params?: unknown[], options?: Record<string, unknown>) => {
        const count = params?.length ?? 0;
        return value.call(client, query, params, {
          ...options,
          prepare: options?.prepare === true || count <= PREPARE_MAX_PARAMS,
          // postgres.js sends a statement without parameters as a simple query, parsed and
          // planned on every call: a read (one statement) is prepared as the others are.
          ...(count === 0 && !("simple" in (options ?? {})) && ONE_READ.test(query) ? { simple: false } : {}),
        });
      };
    // A transaction's (and a savepoint's) client is the callback's last argument's first parameter.
    if (property === "begin" || property === "savepoint")
      return (...args: unknown[]) => {
        const last = args.length - 1;
        const callback = args[last];
        if (typeof callback === "function")
          args[last] = (tx: object, ...rest: unknown[]) => callback(preparing(tx), ...rest);
        return value.apply(client, args);
      };
    return value.bind(client);
  };
  return new Proxy(client, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown;
      if (typeof value !== "function") return value;
      let fn = wrapped.get(property);
      if (fn === undefined) {
        fn = wrap(property, value as (...args: unknown[]) => unknown);
        wrapped.set(property, fn);
      }
      return fn;
    },
  });
}

/**
 * `url`: PostgreSQL through postgres.js. `dataDir`: embedded PGlite in `<dataDir>/pg`, refused
 * with a clear error when another live process holds that directory. `pglite`: an instance the
 * caller made (tests load a migrated snapshot this way). Pending migrations are applied by
 * `migrate()` in one transaction: a failing migration leaves the database as it was.
 */
export async function createDatabase(options: DatabaseOptions): Promise<Database> {
  const folder = options.migrationsFolder ?? migrationsFolder;
  if ("url" in options) {
    const poolMax = options.max ?? DEFAULT_POOL_MAX;
    const client = postgres(options.url, {
      max: poolMax,
      // Each connection is replaced after 30–60 minutes (spread so they do not all reconnect at
      // once), which also drops the statements it prepared (see `preparing`).
      max_lifetime: 60 * (30 + Math.random() * 30),
      onnotice: () => {},
    });
    const db = drizzlePostgres(preparing(client)) as unknown as Db;
    return {
      db,
      kind: "postgres",
      sql: client,
      url: options.url,
      poolMax,
      migrate: () => migratePostgres(drizzlePostgres(client), { migrationsFolder: folder }),
      close: () => client.end({ timeout: 5 }),
    };
  }
  let release = async () => {};
  let pg: PGlite;
  if ("dataDir" in options) {
    const dir = `${options.dataDir}/pg`;
    mkdirSync(dir, { recursive: true });
    release = acquireDirLock(`${options.dataDir}/pg.lock`);
    try {
      pg = await PGlite.create(dir, { extensions: pgliteExtensions });
    } catch (error) {
      await release();
      throw error;
    }
  } else {
    pg = options.pglite;
  }
  const db = drizzlePglite(pg) as unknown as Db;
  return {
    db,
    kind: "pglite",
    pglite: pg,
    migrate: () => migratePglite(drizzlePglite(pg), { migrationsFolder: folder }),
    close: async () => {
      await pg.close();
      await release();
    },
  };
}
