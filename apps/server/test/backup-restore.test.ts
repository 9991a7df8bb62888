import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createPasswordHasher } from "@enmusubi/api";
import { createDatabase, type Database, rowsOf } from "@enmusubi/db";
import { onPostgres, testPostgresUrl } from "@enmusubi/db/testing";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app";
import { seedDemo } from "../src/cli/demo-data";
import { loadConfig } from "../src/config";
import { openDatabase } from "../src/database";
import { createBackup, restoreBackup } from "../src/ops/backup";

/**
 * `pnpm db:backup` / `pnpm db:restore` (decision 0035): a filled database is backed up, restored
 * into an empty one, and every table's rows, every member's balance and the uploaded files come
 * back the same. PostgreSQL (pg_dump custom format) needs TEST_DATABASE_URL; PGlite is backed up
 * from a running server (GET /ops/backup), as a scheduled backup would be.
 */

const passwords = createPasswordHasher({ memoryCost: 1024, timeCost: 1 });
const dirs: string[] = [];
const BACKUP_TOKEN = "backup-token-backup-token-backup-token-0123";

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(name: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `enmusubi-${name}-`));
  dirs.push(dir);
  return dir;
}

/** Every row of every table (the app's and drizzle's migration record), each table's rows sorted. */
async function everyRow(database: Database): Promise<Record<string, string[]>> {
  const tables = await rowsOf<{ schema: string; name: string }>(
    database.db,
    sql`select table_schema as schema, table_name as name from information_schema.tables
        where table_schema in ('public', 'drizzle') and table_type = 'BASE TABLE' order by 1, 2`,
  );
  const out: Record<string, string[]> = {};
  for (const t of tables) {
    const rows = await rowsOf<Record<string, unknown>>(database.db, sql.raw(`select * from "${t.schema}"."${t.name}"`));
    out[`${t.schema}.${t.name}`] = rows.map((r) => JSON.stringify(r)).sort();
  }
  return out;
}

const balances = (database: Database) =>
  rowsOf<{ id: string; points: number; send_points: number; ledger: string | null }>(
    database.db,
    sql`select u.id, u.points, u.send_points,
          (select sum(l.delta)::text from point_ledger l where l.user_id = u.id and l.account = 'points') as ledger
        from users u order by u.id`,
  );

/** Demo members, messages, posts, an inquiry; an administrator; spending; a photo file. */
async function fill(database: Database, dataDir: string) {
  await seedDemo(database.db, passwords);
  const photo = path.join(dataDir, "uploads", "photos", "backup-probe.jpg");
  mkdirSync(path.dirname(photo), { recursive: true });
  writeFileSync(photo, Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]));
}

async function expectSame(source: Database, restored: Database, sourceDir: string, restoredDir: string) {
  const rows = await everyRow(source);
  expect(Object.keys(rows).length).toBeGreaterThan(20);
  expect(rows["public.users"]?.length).toBeGreaterThanOrEqual(24);
  expect(rows["public.messages"]?.length).toBeGreaterThan(0);
  expect(await everyRow(restored)).toEqual(rows);
  const before = await balances(source);
  expect(before.some((b) => b.points > 0)).toBe(true);
  expect(await balances(restored)).toEqual(before);
  const file = "uploads/photos/backup-probe.jpg";
  expect(readFileSync(path.join(restoredDir, file))).toEqual(readFileSync(path.join(sourceDir, file)));
}

const baseUrl = testPostgresUrl;

describe.runIf(onPostgres)("PostgreSQL: pg_dump custom format and pg_restore", () => {
  const admin = baseUrl ? new URL(baseUrl) : undefined;
  const urlOf = (name: string) => {
    const url = new URL(admin?.toString() ?? "postgres://x/");
    url.pathname = `/${name}`;
    return url.toString();
  };
  const base = admin?.pathname.slice(1) ?? "";
  const names = [`${base}_backup_source`, `${base}_backup_target`];

  async function recreate(create = true) {
    const server = await createDatabase({ url: admin?.toString() ?? "", max: 1 });
    try {
      for (const name of names) {
        await server.db.execute(sql.raw(`drop database if exists "${name}" with (force)`));
        if (create) await server.db.execute(sql.raw(`create database "${name}"`));
      }
    } finally {
      await server.close();
    }
  }
  afterAll(() => recreate(false));

  it("restores every row, balance and photo into an empty database", async () => {
    await recreate();
    const [sourceUrl, targetUrl] = names.map(urlOf) as [string, string];
    const sourceDir = tempDir("backup-pg-source");
    const targetDir = tempDir("backup-pg-target");
    const source = await openDatabase({ databaseUrl: sourceUrl, dataDir: sourceDir });
    await fill(source, sourceDir);
    const archive = path.join(tempDir("backup-pg-archive"), "enmusubi.tar");
    const config = { databaseUrl: sourceUrl, dataDir: sourceDir, port: 0, backupToken: undefined };
    expect(await createBackup(config, archive)).toMatchObject({ storage: "postgres", uploads: true });

    const target = { ...config, databaseUrl: targetUrl, dataDir: targetDir };
    await restoreBackup(target, archive);
    const restored = await createDatabase({ url: targetUrl, max: 2 });
    try {
      await expectSame(source, restored, sourceDir, targetDir);
      // A restore never merges into a database that has data.
      await expect(restoreBackup(target, archive)).rejects.toThrow(/not empty/);
      // Nor crosses storages.
      await expect(restoreBackup({ ...target, databaseUrl: undefined }, archive)).rejects.toThrow(/postgres/);
    } finally {
      await restored.close();
      await source.close();
    }
  });
});

describe("PGlite: dumped by the running server, restored into an empty DATA_DIR", () => {
  it("restores every row, balance and photo", async () => {
    const sourceDir = tempDir("backup-pglite-source");
    const config = {
      ...loadConfig({
        NODE_ENV: "test",
        DATA_DIR: sourceDir,
        JWT_SECRET: "backup-test-secret-backup-test-secret-0123",
        LOG_LEVEL: "silent",
        BACKUP_TOKEN,
      }),
      databaseUrl: undefined,
      jobs: false,
    };
    const app = await buildApp(config, { logger: false, passwords });
    const archive = path.join(tempDir("backup-pglite-archive"), "enmusubi.tar");
    try {
      await fill(app.database, sourceDir);
      await app.listen({ port: 0, host: "127.0.0.1" });
      const address = app.server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      // The route wants the token.
      expect((await fetch(`http://127.0.0.1:${port}/ops/backup`)).status).toBe(401);
      // The server holds DATA_DIR: without the token the command says what to do.
      await expect(createBackup({ ...config, port, backupToken: undefined }, archive)).rejects.toThrow(/BACKUP_TOKEN/);
      expect(await createBackup({ ...config, port }, archive)).toMatchObject({ storage: "pglite", uploads: true });
      expect(existsSync(`${archive}.partial`)).toBe(false);

      const targetDir = tempDir("backup-pglite-target");
      await restoreBackup({ ...config, dataDir: targetDir }, archive);
      const restored = await createDatabase({ dataDir: targetDir });
      try {
        await expectSame(app.database, restored, sourceDir, targetDir);
      } finally {
        await restored.close();
      }
      // A restore into a DATA_DIR that has a database is refused.
      await expect(restoreBackup({ ...config, dataDir: targetDir }, archive)).rejects.toThrow(/not empty/);
    } finally {
      await app.close();
    }
  });
});
