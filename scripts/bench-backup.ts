/**
 * `pnpm bench:backup`: how long `pnpm db:backup` and `pnpm db:restore` take on PostgreSQL at
 * 100,000 members (BENCH_MEMBERS), with 100,000 messages and 10,000 board posts (the bench
 * seeding of scripts/lib/server.ts). Creates two temporary databases on the server of
 * DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres) and drops them afterwards.
 * Prints the archive size and the two wall times; no target (docs/operations.md and docs/benchmarks.md quote the figure).
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createDatabase } from "@enmusubi/db";
import { ensureFirstAdmin, openDatabase } from "../apps/server/src/database";
import { createBackup, restoreBackup } from "../apps/server/src/ops/backup";
import { createPasswordHasher } from "../packages/api/src/auth/password";
import { ADMIN, SERVER_URL, seed } from "./lib/server";
import { log } from "./lib/stats";

const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 100_000);

async function main() {
  const stamp = Date.now();
  const names = [`enmusubi_bench_backup_${stamp}`, `enmusubi_bench_restore_${stamp}`];
  const urlOf = (name: string) => Object.assign(new URL(SERVER_URL), { pathname: `/${name}` }).toString();
  const server = await createDatabase({ url: SERVER_URL, max: 1 });
  const dir = mkdtempSync(path.join(tmpdir(), "enmusubi-bench-backup-"));
  try {
    for (const name of names) await server.db.execute(`create database "${name}"`);
    const [sourceUrl, targetUrl] = names.map(urlOf) as [string, string];
    const source = await openDatabase({ databaseUrl: sourceUrl, dataDir: dir });
    const quiet = { info() {}, warn() {}, error() {} } as unknown as Parameters<typeof ensureFirstAdmin>[2];
    await ensureFirstAdmin(source.db, ADMIN, quiet, createPasswordHasher({ memoryCost: 1024, timeCost: 1 }));
    let started = performance.now();
    await seed(source.db, { members: MEMBERS, messages: MEMBERS, posts: MEMBERS / 10 });
    log(
      `seeded ${MEMBERS} members, ${MEMBERS} messages, ${MEMBERS / 10} posts in ${Math.round((performance.now() - started) / 1000)} s`,
    );
    await source.close();

    const archive = path.join(dir, "backup.tar");
    const config = { databaseUrl: sourceUrl, dataDir: dir, port: 0, backupToken: undefined };
    started = performance.now();
    await createBackup(config, archive);
    const backupSeconds = (performance.now() - started) / 1000;
    started = performance.now();
    await restoreBackup({ ...config, databaseUrl: targetUrl, dataDir: path.join(dir, "restored") }, archive);
    const restoreSeconds = (performance.now() - started) / 1000;
    log(`archive ${(statSync(archive).size / 1e6).toFixed(1)} MB`);
    log(`pnpm db:backup  (pg_dump -Fc + tar): ${backupSeconds.toFixed(1)} s`);
    log(`pnpm db:restore (pg_restore + tar):  ${restoreSeconds.toFixed(1)} s`);
  } finally {
    for (const name of names) await server.db.execute(`drop database if exists "${name}" with (force)`);
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${(error as Error).stack ?? error}\n`);
    process.exit(1);
  },
);
