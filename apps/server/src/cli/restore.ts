import path from "node:path";
import { loadConfig } from "../config";
import { restoreBackup } from "../ops/backup";
import { exitWithFatalError } from "./fatal";

/**
 * `pnpm db:restore <file>`: restores an archive of `pnpm db:backup` into the configured storage,
 * which must be empty (a new PostgreSQL database; a DATA_DIR without pg/, the server stopped).
 * Start the server afterwards: it applies any migration the archive predates.
 */
async function main() {
  const given = process.argv[2];
  if (!given) throw new Error("Usage: pnpm db:restore <backup.tar>");
  const config = loadConfig();
  const file = path.resolve(process.env.INIT_CWD ?? process.cwd(), given);
  const started = Date.now();
  const manifest = await restoreBackup(config, file);
  process.stdout.write(
    `Restored ${file} (${manifest.storage}, taken ${manifest.createdAt}) in ${Date.now() - started} ms\n`,
  );
}

main().then(
  () => process.exit(0),
  (error: unknown) => exitWithFatalError(error, "Restore failed"),
);
