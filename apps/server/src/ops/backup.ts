import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { createDatabase, DataDirLockedError, dumpPglite, loadPglite } from "@enmusubi/db";
import type { Config } from "../config";

const run = promisify(execFile);

/**
 * `pnpm db:backup` / `pnpm db:restore` (decision 0035). One archive (tar) holds:
 * - `manifest.json`: the format, the storage, when;
 * - `database.pgdump` (PostgreSQL: `pg_dump -Fc`, a consistent snapshot of a running database) or
 *   `pglite.tar.gz` (PGlite: its data directory dumped under its query lock, by the running server
 *   through `GET /ops/backup` when it holds DATA_DIR, by this process otherwise);
 * - `uploads/`: the photos and ID images (DATA_DIR/uploads), copied after the database, so every
 *   file a backed-up row names is there (a file deleted in between may be missing: it was being
 *   replaced). Not included: `mail/` (copies of sent mail) and the generated `jwt-secret`
 *   (sessions simply sign in again).
 */
export interface Manifest {
  format: 1;
  storage: "postgres" | "pglite";
  createdAt: string;
  uploads: boolean;
}

export type BackupConfig = Pick<Config, "databaseUrl" | "dataDir" | "port" | "backupToken">;

/** pg_dump / pg_restore get the URL without its password, and the password in PGPASSWORD (not in ps). */
function pgConnection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = "";
  return {
    dbname: parsed.toString(),
    // biome-ignore lint/style/noProcessEnv: pg_dump and pg_restore inherit this process's environment (PATH, PG* settings), plus the password.
    env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
  };
}

/** The PGlite data directory as a tarball: from the running server when it holds DATA_DIR. */
async function pgliteTarball(config: BackupConfig): Promise<Buffer> {
  let database: Awaited<ReturnType<typeof createDatabase>>;
  try {
    database = await createDatabase({ dataDir: config.dataDir });
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    if (!config.backupToken)
      throw new Error(
        `The server (process ${error.pid}) holds ${config.dataDir}. Set BACKUP_TOKEN for the server and for this command, so the backup asks the server for a consistent dump, or stop the server first.`,
      );
    const answer = await fetch(`http://127.0.0.1:${config.port}/ops/backup`, {
      headers: { authorization: `Bearer ${config.backupToken}` },
    });
    if (!answer.ok) throw new Error(`The server at port ${config.port} refused the backup: HTTP ${answer.status}`);
    return Buffer.from(await answer.arrayBuffer());
  }
  try {
    if (!database.pglite) throw new Error("not a PGlite database");
    return await dumpPglite(database.pglite);
  } finally {
    await database.close();
  }
}

export async function createBackup(config: BackupConfig, file: string): Promise<Manifest> {
  const staging = mkdtempSync(path.join(tmpdir(), "enmusubi-backup-"));
  try {
    const storage = config.databaseUrl ? "postgres" : "pglite";
    if (config.databaseUrl) {
      const { dbname, env } = pgConnection(config.databaseUrl);
      await run("pg_dump", ["--format=custom", "--file", path.join(staging, "database.pgdump"), "--dbname", dbname], {
        env,
        maxBuffer: 16 * 1024 * 1024,
      });
    } else {
      writeFileSync(path.join(staging, "pglite.tar.gz"), await pgliteTarball(config));
    }
    const uploads = path.join(config.dataDir, "uploads");
    const manifest: Manifest = {
      format: 1,
      storage,
      createdAt: new Date().toISOString(),
      uploads: existsSync(uploads),
    };
    if (manifest.uploads) cpSync(uploads, path.join(staging, "uploads"), { recursive: true });
    writeFileSync(path.join(staging, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    const partial = `${file}.partial`;
    await run("tar", ["-cf", partial, "-C", staging, "."]);
    // Written whole or not at all: a scheduled run that fails leaves no half archive under the name.
    await run("mv", [partial, file]);
    return manifest;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * Restores an archive into the configured storage, which must be empty (a new PostgreSQL
 * database, or a DATA_DIR without pg/): a restore never merges into live data.
 */
export async function restoreBackup(config: BackupConfig, file: string): Promise<Manifest> {
  if (!existsSync(file) || !statSync(file).isFile()) throw new Error(`No backup archive at ${file}`);
  const staging = mkdtempSync(path.join(tmpdir(), "enmusubi-restore-"));
  try {
    await run("tar", ["-xf", file, "-C", staging]);
    const manifest = JSON.parse(readFileSync(path.join(staging, "manifest.json"), "utf8")) as Manifest;
    if (manifest.format !== 1) throw new Error(`Unknown backup format ${manifest.format}`);
    const target = config.databaseUrl ? "postgres" : "pglite";
    if (manifest.storage !== target)
      throw new Error(
        `The archive holds a ${manifest.storage} database; the configuration names ${target} (${config.databaseUrl ? "DATABASE_URL is set" : "DATABASE_URL is unset"})`,
      );
    if (config.databaseUrl) await restorePostgres(config.databaseUrl, path.join(staging, "database.pgdump"));
    else await loadPglite(config.dataDir, readFileSync(path.join(staging, "pglite.tar.gz")));
    if (manifest.uploads)
      cpSync(path.join(staging, "uploads"), path.join(config.dataDir, "uploads"), {
        recursive: true,
        force: false,
      });
    return manifest;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

async function restorePostgres(url: string, dump: string): Promise<void> {
  const database = await createDatabase({ url, max: 1 });
  try {
    const rows = (await database.db.execute(
      "select count(*)::int as n from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')",
    )) as unknown as Array<{ n: number }>;
    if ((rows[0]?.n ?? 0) > 0)
      throw new Error(
        "The target database is not empty: restore into a new database (createdb), then point DATABASE_URL at it",
      );
  } finally {
    await database.close();
  }
  const { dbname, env } = pgConnection(url);
  await run("pg_restore", ["--no-owner", "--no-privileges", "--exit-on-error", "--dbname", dbname, dump], {
    env,
    maxBuffer: 16 * 1024 * 1024,
  });
}
