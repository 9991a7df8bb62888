import path from "node:path";
import { loadConfig } from "../config";
import { createBackup } from "../ops/backup";
import { exitWithFatalError } from "./fatal";

/**
 * `pnpm db:backup [file]`: the configured database and DATA_DIR/uploads in one tar archive
 * (ops/backup.ts), by default `backups/enmusubi-<UTC time>.tar` where the command was typed.
 * Works while the server runs (PostgreSQL: pg_dump; PGlite: the server dumps it, BACKUP_TOKEN).
 */
async function main() {
  const config = loadConfig();
  const stamp = new Date()
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  const cwd = process.env.INIT_CWD ?? process.cwd();
  const file = path.resolve(cwd, process.argv[2] ?? `backups/enmusubi-${stamp}.tar`);
  const started = Date.now();
  const manifest = await createBackup(config, file);
  process.stdout.write(
    `Backup written: ${file} (${manifest.storage}${manifest.uploads ? ", uploads" : ""}, ${Date.now() - started} ms)\n`,
  );
}

main().then(
  () => process.exit(0),
  (error: unknown) => exitWithFatalError(error, "Backup failed"),
);
