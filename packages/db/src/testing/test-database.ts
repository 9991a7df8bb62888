import { randomBytes } from "node:crypto";
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { PGlite, type PGliteOptions } from "@electric-sql/pglite";
import postgres from "postgres";
import { createDatabase, type Database, pgliteExtensions } from "../client";
import { seedReferenceData } from "../seed/reference";

/**
 * Test databases. The vitest global setup starts building one migrated and seeded template and
 * returns at once (`startTemplate`); every test file then gets its own copy, once the template is
 * ready: a PGlite loaded from a data-dir snapshot by default, or a PostgreSQL database created
 * from a template database when TEST_DATABASE_URL is set.
 */
export type TestTemplate = (
  | { kind: "pglite"; snapshotFile: string }
  | { kind: "postgres"; url: string; template: string }
) & {
  /** Written when the template is built: "ok", or the error that stopped the build. */
  readyFile: string;
};

/** PGlite's dist folder, where its WebAssembly module and file-system bundle ship. */
const pgliteDist = new URL(".", pathToFileURL(createRequire(import.meta.url).resolve("@electric-sql/pglite")));

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * Starts building the template (global setup) and answers at once with where it will be, so that
 * files that need no database (the web project's) run while it builds; `templateReady` waits for
 * it. `teardown` waits for the build, then removes the template.
 */
export function startTemplate(options: { postgresUrl?: string; directory: string }): {
  template: TestTemplate;
  teardown(): Promise<void>;
} {
  const id = randomBytes(4).toString("hex");
  const readyFile = path.join(options.directory, `enmusubi-test-${id}.ready`);
  const postgresUrl = options.postgresUrl;
  const template: TestTemplate = postgresUrl
    ? { kind: "postgres", url: postgresUrl, template: `enmusubi_tpl_${id}`, readyFile }
    : { kind: "pglite", snapshotFile: path.join(options.directory, `enmusubi-test-${id}.tar`), readyFile };
  const admin = postgresUrl ? postgres(postgresUrl, { max: 1, onnotice: () => {} }) : undefined;
  // Written whole, then renamed: a worker never reads a half-written state.
  const mark = async (state: string) => {
    await writeFile(`${readyFile}.part`, state);
    await rename(`${readyFile}.part`, readyFile);
  };
  const built = buildTemplate(template, admin).then(
    () => mark("ok"),
    (error: unknown) => mark(`the test template could not be built: ${String(error)}`),
  );
  return {
    template,
    teardown: async () => {
      await built;
      await rm(readyFile, { force: true });
      if (template.kind === "pglite") await rm(template.snapshotFile, { force: true });
      if (admin && template.kind === "postgres") {
        await admin.unsafe(`drop database if exists ${template.template} with (force)`);
        await admin.end();
      }
    },
  };
}

async function buildTemplate(template: TestTemplate, admin: postgres.Sql | undefined): Promise<void> {
  if (template.kind === "postgres" && admin) {
    await admin.unsafe(`create database ${template.template}`);
    const db = await createDatabase({ url: withDatabase(template.url, template.template), max: 1 });
    await db.migrate();
    await seedReferenceData(db.db);
    await db.close();
    return;
  }
  if (template.kind !== "pglite") return;
  const pg = await PGlite.create({ extensions: pgliteExtensions });
  const db = await createDatabase({ pglite: pg });
  await db.migrate();
  await seedReferenceData(db.db);
  const dump = await pg.dumpDataDir("none");
  // Written whole, then renamed: a worker never reads half a snapshot.
  await writeFile(`${template.snapshotFile}.part`, Buffer.from(await dump.arrayBuffer()));
  await rename(`${template.snapshotFile}.part`, template.snapshotFile);
  await pg.close();
}

const readiness = new Map<string, Promise<void>>();

/** Waits until the global setup has built the template; throws what stopped the build. */
export function templateReady(template: TestTemplate): Promise<void> {
  let ready = readiness.get(template.readyFile);
  if (!ready) {
    ready = (async () => {
      // Building takes seconds alone and a minute or more on a loaded 2-core machine.
      const deadline = Date.now() + 600_000;
      for (;;) {
        const state = await readFile(template.readyFile, "utf8").catch(() => undefined);
        if (state === "ok") return;
        if (state !== undefined) throw new Error(state);
        if (Date.now() > deadline)
          throw new Error(`the test template was not ready after 10 minutes (${template.readyFile})`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    readiness.set(template.readyFile, ready);
  }
  return ready;
}

/**
 * What every PGlite of a test worker starts from, read and compiled once per worker (vitest runs
 * the api and server projects unisolated, so a worker keeps this between files): the snapshot, the
 * compiled PostgreSQL WebAssembly module and its file-system bundle. Each of them is immutable (a
 * module holds code, not memory); every `PGlite.create` still builds its own instance, memory and
 * file system from them, so each test file's database is its own.
 */
type WasmModule = NonNullable<PGliteOptions["pgliteWasmModule"]>;
/** Node's global (the package's TypeScript libraries do not declare it). */
declare const WebAssembly: { compile(bytes: Uint8Array): Promise<WasmModule> };

interface PgliteStart {
  snapshot: Blob;
  pgliteWasmModule: WasmModule;
  fsBundle: Blob;
}
const pgliteStarts = new Map<string, Promise<PgliteStart>>();

function pgliteStart(snapshotFile: string): Promise<PgliteStart> {
  let start = pgliteStarts.get(snapshotFile);
  if (!start) {
    start = (async () => {
      const [snapshot, wasm, bundle] = await Promise.all([
        readFile(snapshotFile),
        readFile(new URL("./pglite.wasm", pgliteDist)),
        readFile(new URL("./pglite.data", pgliteDist)),
      ]);
      return {
        snapshot: new Blob([new Uint8Array(snapshot)]),
        pgliteWasmModule: await WebAssembly.compile(new Uint8Array(wasm)),
        fsBundle: new Blob([new Uint8Array(bundle)]),
      };
    })();
    start.catch(() => pgliteStarts.delete(snapshotFile));
    pgliteStarts.set(snapshotFile, start);
  }
  return start;
}

/**
 * A fresh database for one test file, already migrated and seeded; `close()` disposes of it.
 * On PGlite a worker keeps one instance and puts it back as the template left it between files
 * (`ReusedPglite`); a file that opens a second database at once gets an instance of its own.
 */
export async function openTestDatabase(template: TestTemplate): Promise<Database> {
  await templateReady(template);
  if (template.kind === "pglite") {
    const reused = await claimReusedPglite(template.snapshotFile);
    if (reused) {
      const database = await createDatabase({ pglite: reused.pg });
      let closed: Promise<void> | undefined;
      return { ...database, close: () => (closed ??= reused.release()) };
    }
    return createDatabase({ pglite: await startPglite(template.snapshotFile) });
  }
  const name = `enmusubi_test_${randomBytes(6).toString("hex")}`;
  const admin = postgres(template.url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name} template ${template.template}`);
  const database = await createDatabase({ url: withDatabase(template.url, name), max: 5 });
  return {
    ...database,
    close: async () => {
      await database.close();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

/** A PGlite of the template, started from the snapshot. */
async function startPglite(snapshotFile: string): Promise<PGlite> {
  const { snapshot, pgliteWasmModule, fsBundle } = await pgliteStart(snapshotFile);
  return PGlite.create({ loadDataDir: snapshot, pgliteWasmModule, fsBundle, extensions: pgliteExtensions });
}

/**
 * Starting a PGlite from the snapshot costs about a second of CPU (unpacking the data directory,
 * starting PostgreSQL); putting one back costs a few tens of milliseconds. A file's database is
 * its own either way: when a file closes it, every table is emptied and refilled with the
 * template's rows, the session is discarded (settings, prepared statements, LISTEN, advisory
 * locks), schemas the file made are dropped, and properties the file set on the instance (the
 * write guard's counter) are taken off. If the catalogue then differs from the template's in any
 * way (a table, column, constraint, trigger or function added, changed or dropped), or putting it
 * back fails, the instance is closed and the next file starts a new one.
 */
interface ReusedPglite {
  pg: PGlite;
  /** Puts the instance back (or closes it); it may then be claimed again. */
  release(): Promise<void>;
}

/** The catalogue as one digest: what a file may have changed beyond the rows. */
const CATALOGUE_DIGEST = `select md5(string_agg(x, ',' order by x)) as digest from (
  select 'n:' || nspname as x from pg_namespace where nspname !~ '^pg_(toast_)?temp_'
  union all select 'c:' || n.nspname || '.' || c.relname || ':' || c.relkind::text
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast') and n.nspname !~ '^pg_(toast_)?temp_'
  union all select 'a:' || a.attrelid::regclass::text || '.' || a.attname || ':' || a.atttypid::text || a.attnotnull::text
    || ':' || coalesce(pg_get_expr(d.adbin, d.adrelid), '')
    from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
    left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
    where n.nspname = 'public' and a.attnum > 0 and not a.attisdropped
  union all select 'k:' || conrelid::regclass::text || '.' || conname || ':' || pg_get_constraintdef(oid) from pg_constraint
    where connamespace = 'public'::regnamespace
  union all select 't:' || tgrelid::regclass::text || '.' || tgname || ':' || tgenabled::text || ':' || tgfoid::regproc::text
    from pg_trigger
  union all select 'p:' || p.oid::regprocedure::text || ':' || md5(p.prosrc)
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname not in ('pg_catalog', 'information_schema')
  union all select 'e:' || extname || ':' || extversion from pg_extension
) as catalogue`;

const reusedPglites = new Map<string, Promise<{ reused: ReusedPglite; busy: boolean } | null>>();

async function claimReusedPglite(snapshotFile: string): Promise<ReusedPglite | null> {
  let entry = reusedPglites.get(snapshotFile);
  if (!entry) {
    entry = makeReusedPglite(snapshotFile).then(
      (reused) => ({ reused, busy: false }),
      () => null,
    );
    reusedPglites.set(snapshotFile, entry);
  }
  const slot = await entry;
  if (!slot || slot.busy) return null;
  slot.busy = true;
  return slot.reused;
}

async function makeReusedPglite(snapshotFile: string): Promise<ReusedPglite> {
  const pg = await startPglite(snapshotFile);
  const one = async <T>(query: string): Promise<T[]> => (await pg.query<T>(query)).rows;
  const tables = (
    await one<{ name: string }>(`select quote_ident(tablename) as name from pg_tables where schemaname = 'public'`)
  ).map((t) => `public.${t.name}`);
  // The template's rows (reference lists, settings, shipped rules: a few hundred), as JSON.
  const rows: Array<{ table: string; columns: string; json: string }> = [];
  for (const table of tables) {
    const [row] = await one<{ columns: string | null; json: string | null }>(
      `select (select string_agg(quote_ident(attname), ', ' order by attnum) from pg_attribute
                where attrelid = '${table}'::regclass and attnum > 0 and not attisdropped and attgenerated = '') as columns,
              (select json_agg(t)::text from ${table} t) as json`,
    );
    if (row?.json && row.columns) rows.push({ table, columns: row.columns, json: row.json });
  }
  const sequences = await one<{ name: string; value: string | null }>(
    `select quote_ident(schemaname) || '.' || quote_ident(sequencename) as name, last_value::text as value from pg_sequences`,
  );
  const schemasSql = `select nspname as name, quote_ident(nspname) as quoted from pg_namespace where nspname !~ '^pg_(toast_)?temp_'`;
  const schemas = new Set((await one<{ name: string }>(schemasSql)).map((s) => s.name));
  const [catalogue] = await one<{ digest: string }>(CATALOGUE_DIGEST);
  // The instance's own properties: a file may wrap one of its methods (the write guard does).
  const own = new Map(Object.entries(pg));

  const putBack = async () => {
    const fields = pg as unknown as Record<string, unknown>;
    for (const key of Object.keys(fields)) if (!own.has(key)) delete fields[key];
    for (const [key, value] of own) if (typeof value === "function" && fields[key] !== value) fields[key] = value;
    await pg.exec("discard all");
    const made = (await one<{ name: string; quoted: string }>(schemasSql)).filter((s) => !schemas.has(s.name));
    if (made.length > 0) await pg.exec(made.map((s) => `drop schema ${s.quoted} cascade;`).join("\n"));
    const [now] = await one<{ digest: string }>(CATALOGUE_DIGEST);
    if (now?.digest !== catalogue?.digest) throw new Error("the file changed the catalogue");
    await pg.transaction(async (tx) => {
      await tx.exec(`truncate table ${tables.join(", ")} restart identity cascade`);
      await tx.exec("set local session_replication_role = replica");
      for (const { table, columns, json } of rows)
        await tx.query(
          `insert into ${table} (${columns}) overriding system value
           select ${columns} from json_populate_recordset(null::${table}, $1::json)`,
          [json],
        );
      for (const { name, value } of sequences)
        await tx.exec(value === null ? `alter sequence ${name} restart` : `select setval('${name}', ${value})`);
    });
  };

  return {
    pg,
    release: async () => {
      const entry = reusedPglites.get(snapshotFile);
      const slot = entry ? await entry : null;
      try {
        await putBack();
        if (slot) slot.busy = false;
      } catch {
        if (slot) reusedPglites.delete(snapshotFile);
        await pg.close().catch(() => {});
      }
    },
  };
}

export { onPostgres, testPostgresUrl, waitForLockWaiters } from "./postgres";
