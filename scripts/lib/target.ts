import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createDatabase, type Db } from "@enmusubi/db";
import type { buildApp } from "../../apps/server/src/app";
import { type Config, loadConfig } from "../../apps/server/src/config";
import { PRODUCTION_PARTICULARS, PRODUCTION_TEST_SMS } from "../../apps/server/test/legal-env";

/** The database and app configuration every in-process benchmark builds its app on. */

export const BENCH_ADMIN = { userID: "benchadmin", password: "bench-admin-pass" };

export interface Target {
  config: Config;
  cleanup(): Promise<void>;
  description: string;
}

/** The app as buildApp returns it (this package does not depend on fastify itself). */
export type App = Awaited<ReturnType<typeof buildApp>>;

/**
 * A fresh, empty place for a benchmark database: embedded PGlite in a temporary directory, or,
 * with DATABASE_URL, a temporary database on that PostgreSQL server (your data is never touched;
 * `cleanup` drops it). `name` tells the scripts' directories and databases apart.
 */
export async function prepareTarget(name: string): Promise<Target> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `enmusubi-${name}-`));
  const base = {
    NODE_ENV: "production",
    ...PRODUCTION_PARTICULARS,
    ...PRODUCTION_TEST_SMS,
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(32).toString("hex"),
    ADMIN_USERID: BENCH_ADMIN.userID,
    ADMIN_PASSWORD: BENCH_ADMIN.password,
    LOG_LEVEL: "silent",
  };
  const url = process.env.DATABASE_URL;
  if (!url) {
    return {
      config: { ...loadConfig(base), jobs: false },
      description: `PGlite in ${dataDir}`,
      cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const database = `enmusubi_${name.replaceAll("-", "_")}_${randomBytes(4).toString("hex")}`;
  const server = await createDatabase({ url, max: 1 });
  await server.sql?.unsafe(`create database ${database}`);
  const benchUrl = new URL(url);
  benchUrl.pathname = `/${database}`;
  return {
    config: { ...loadConfig({ ...base, DATABASE_URL: benchUrl.toString() }), jobs: false },
    description: `PostgreSQL database ${database} on ${benchUrl.host} (temporary)`,
    cleanup: async () => {
      await server.sql?.unsafe(`drop database if exists ${database} with (force)`);
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Rows of a raw statement, from postgres.js (an array) or PGlite ({ rows }). */
export async function execute<T = Record<string, unknown>>(db: Db, statement: string): Promise<T[]> {
  const result = (await db.execute(statement)) as unknown;
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/** `execute` on the app's database. */
export const query = <T = Record<string, unknown>>(app: App, statement: string): Promise<T[]> =>
  execute<T>(app.database.db, statement);
