import { rowsOf } from "@enmusubi/db";
import { sql } from "drizzle-orm";
import { loadConfig } from "../config";
import { openDatabase } from "../database";
import { exitWithFatalError } from "./fatal";

/**
 * `pnpm db:migrate`: applies pending migrations and seeds the reference data (the same steps the
 * server takes at start), then exits. Useful before a deploy, or to check a DATA_DIR / DATABASE_URL.
 */
async function main() {
  const config = loadConfig();
  const started = Date.now();
  const database = await openDatabase(config);
  let applied: number;
  try {
    const rows = await rowsOf<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
    );
    applied = rows[0]?.n ?? 0;
  } finally {
    await database.close();
  }
  const target = config.databaseUrl ? `PostgreSQL ${redact(config.databaseUrl)}` : `PGlite in ${config.dataDir}/pg`;
  process.stdout.write(
    `Database is up to date: ${applied} migrations applied, reference data seeded (${target}, ${Date.now() - started} ms).\n`,
  );
}

/** The URL without its password, for the summary line. */
function redact(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = "***";
  return u.toString();
}

main().then(
  () => process.exit(0),
  (error: unknown) => exitWithFatalError(error, "Migration failed"),
);
