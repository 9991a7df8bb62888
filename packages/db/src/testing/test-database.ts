import { randomBytes } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { PGlite, type PGliteOptions } from "@electric-sql/pglite";
import postgres from "postgres";
import { createDatabase, type Database, pgliteExtensions } from "../client";
import { seedReferenceData } from "../seed/reference";

/**
 * Test databases. The vitest global setup prepares one migrated and seeded template; every test
 * file then gets its own copy: a PGlite loaded from a data-dir snapshot by default, or a
 * PostgreSQL database created from a template database when TEST_DATABASE_URL is set.
 */
export type TestTemplate =
  | { kind: "pglite"; snapshotFile: string }
  | { kind: "postgres"; url: string; template: string };

/** PGlite's dist folder, where its WebAssembly module and file-system bundle ship. */
const pgliteDist = new URL(".", pathToFileURL(createRequire(import.meta.url).resolve("@electric-sql/pglite")));

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Builds the template once (global setup). Returns it and a teardown. */
export async function prepareTemplate(options: {
  postgresUrl?: string;
  snapshotFile: string;
}): Promise<{ template: TestTemplate; teardown(): Promise<void> }> {
  if (options.postgresUrl) {
    const template = `enmusubi_tpl_${randomBytes(4).toString("hex")}`;
    const admin = postgres(options.postgresUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${template}`);
    const db = await createDatabase({ url: withDatabase(options.postgresUrl, template), max: 1 });
    await db.migrate();
    await seedReferenceData(db.db);
    await db.close();
    return {
      template: { kind: "postgres", url: options.postgresUrl, template },
      teardown: async () => {
        await admin.unsafe(`drop database if exists ${template} with (force)`);
        await admin.end();
      },
    };
  }
  const pg = await PGlite.create({ extensions: pgliteExtensions });
  const db = await createDatabase({ pglite: pg });
  await db.migrate();
  await seedReferenceData(db.db);
  const dump = await pg.dumpDataDir("none");
  await writeFile(options.snapshotFile, Buffer.from(await dump.arrayBuffer()));
  await pg.close();
  return { template: { kind: "pglite", snapshotFile: options.snapshotFile }, teardown: async () => {} };
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

/** A fresh database for one test file, already migrated and seeded; `close()` disposes of it. */
export async function openTestDatabase(template: TestTemplate): Promise<Database> {
  if (template.kind === "pglite") {
    const { snapshot, pgliteWasmModule, fsBundle } = await pgliteStart(template.snapshotFile);
    const pg = await PGlite.create({ loadDataDir: snapshot, pgliteWasmModule, fsBundle, extensions: pgliteExtensions });
    return createDatabase({ pglite: pg });
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

export { onPostgres, testPostgresUrl, waitForLockWaiters } from "./postgres";
