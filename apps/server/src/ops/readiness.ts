import { readFileSync } from "node:fs";
import path from "node:path";
import { type Database, migrationsFolder, rowsOf } from "@enmusubi/db";
import { sql } from "drizzle-orm";

/** The newest migration this build ships (drizzle's journal), read once. */
let shipped: number | undefined;
function newestShippedMigration(): number {
  if (shipped === undefined) {
    const journal = JSON.parse(readFileSync(path.join(migrationsFolder, "meta/_journal.json"), "utf8")) as {
      entries: Array<{ when: number }>;
    };
    shipped = Math.max(0, ...journal.entries.map((e) => e.when));
  }
  return shipped;
}

/**
 * Why this process should not be sent traffic, or null when it may: the database answers and
 * has every migration of this build applied (drizzle records each applied migration's journal
 * time in drizzle.__drizzle_migrations; the newest must be the journal's newest).
 */
export async function notReadyReason(database: Database): Promise<string | null> {
  try {
    const [row] = await rowsOf<{ applied: string | null }>(
      database.db,
      sql`select max(created_at)::text as applied from drizzle.__drizzle_migrations`,
    );
    const applied = Number(row?.applied ?? 0);
    return applied >= newestShippedMigration() ? null : "migrations pending";
  } catch {
    return "database unavailable";
  }
}

/** What a request id may look like when a client or proxy sends one (X-Request-Id). */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export const wellFormedRequestId = (value: unknown): value is string =>
  typeof value === "string" && REQUEST_ID.test(value);
