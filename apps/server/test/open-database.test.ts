import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { createDatabase, DataDirLockedError } from "@enmusubi/db";
import { afterAll, describe, expect, it } from "vitest";
import { MigrationError, openDatabase } from "../src/database";

/**
 * openDatabase (server start, `pnpm db:migrate`): a migration that cannot apply is reported as a
 * MigrationError and releases the data directory; a directory in use is refused. The CLI turns
 * both into a clear message and exit code 1.
 */

const run = promisify(execFile);
const SERVER_DIR = path.resolve(import.meta.dirname, "..");
const TSX = path.join(SERVER_DIR, "node_modules/.bin/tsx");
const dirs: string[] = [];

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "enmusubi-open-db-"));
  dirs.push(dir);
  return dir;
}

/** A data directory whose database already has a "users" table the first migration cannot create. */
async function conflictingDataDir(): Promise<string> {
  const dataDir = tempDataDir();
  const database = await createDatabase({ dataDir });
  await database.db.execute('create table "users" ("id" integer primary key)');
  await database.close();
  return dataDir;
}

async function migrateCli(dataDir: string) {
  const { DATABASE_URL: _ignored, ...env } = process.env;
  return run(TSX, ["src/cli/migrate.ts"], {
    cwd: SERVER_DIR,
    env: { ...env, NODE_ENV: "test", DATA_DIR: dataDir, INIT_CWD: SERVER_DIR },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

describe("openDatabase", () => {
  it("wraps a failing migration in MigrationError and releases the directory", async () => {
    const dataDir = await conflictingDataDir();
    const failure = await openDatabase({ databaseUrl: undefined, dataDir }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(MigrationError);
    expect((failure as MigrationError).message).toMatch(/^Database migration failed: /);
    expect((failure as MigrationError).cause).toBeInstanceOf(Error);

    // Closed and unlocked: the directory opens again, and it still holds only the old table.
    const again = await createDatabase({ dataDir });
    const result = await again.db.execute(
      "select count(*)::int as n from information_schema.tables where table_schema = 'public'",
    );
    expect((result as unknown as { rows: unknown[] }).rows).toEqual([{ n: 1 }]);
    await again.close();
  }, 60_000);

  it("refuses a data directory another open database holds", async () => {
    const dataDir = tempDataDir();
    const holder = await createDatabase({ dataDir });
    try {
      await expect(openDatabase({ databaseUrl: undefined, dataDir })).rejects.toBeInstanceOf(DataDirLockedError);
    } finally {
      await holder.close();
    }
  }, 60_000);
});

describe("pnpm db:migrate (src/cli/migrate.ts)", () => {
  it("migrates a fresh directory, prints a summary and exits 0", async () => {
    const result = await migrateCli(tempDataDir());
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Database is up to date: \d+ migrations applied, reference data seeded/);
  }, 60_000);

  it("prints the migration failure on stderr and exits 1", async () => {
    const result = await migrateCli(await conflictingDataDir());
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("Database migration failed:");
    expect(result.stdout).toBe("");
  }, 60_000);
});
