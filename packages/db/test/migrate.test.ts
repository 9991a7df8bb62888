import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createDatabase, type Database, migrationsFolder, pgliteExtensions } from "../src";

/**
 * Pending migrations run in one transaction: a migration that fails part-way leaves the database
 * exactly as it was (no half-created table, no added column, no migration recorded).
 */

interface Journal {
  version: string;
  dialect: string;
  entries: Array<{ idx: number; version: string; when: number; tag: string; breakpoints: boolean }>;
}

const tempDirs: string[] = [];
const databases: Database[] = [];

afterEach(async () => {
  for (const database of databases.splice(0)) await database.close().catch(() => {});
});
afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

/** A copy of the committed migrations plus `extra` as the next migration. */
function migrationsWith(extra: { tag: string; statements: string[] }): string {
  const dir = mkdtempSync(path.join(tmpdir(), "enmusubi-migrations-"));
  tempDirs.push(dir);
  mkdirSync(path.join(dir, "meta"));
  for (const file of readdirSync(migrationsFolder).filter((f) => f.endsWith(".sql"))) {
    copyFileSync(path.join(migrationsFolder, file), path.join(dir, file));
  }
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, "meta/_journal.json"), "utf8")) as Journal;
  const last = journal.entries.at(-1);
  if (!last) throw new Error("the committed journal has no migration");
  journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1000, tag: extra.tag });
  writeFileSync(path.join(dir, "meta/_journal.json"), JSON.stringify(journal, null, 2));
  writeFileSync(path.join(dir, `${extra.tag}.sql`), extra.statements.join("\n--> statement-breakpoint\n"));
  return dir;
}

const BROKEN = {
  tag: "0099_broken",
  statements: [
    'CREATE TABLE "partial_change" ("id" integer PRIMARY KEY);',
    'ALTER TABLE "users" ADD COLUMN "nickname" text;',
    'INSERT INTO "users" ("no_such_column") VALUES (1);',
  ],
};

async function rows<T>(database: Database, query: string): Promise<T[]> {
  const result = await database.db.execute(query);
  return (result as unknown as { rows: T[] }).rows;
}

async function state(database: Database) {
  const [tables] = await rows<{ partial: string | null; users: string | null }>(
    database,
    "select to_regclass('public.partial_change')::text as partial, to_regclass('public.users')::text as users",
  );
  const nickname = await rows(
    database,
    "select 1 from information_schema.columns where table_name = 'users' and column_name = 'nickname'",
  );
  const [recorded] = await rows<{ n: number }>(
    database,
    "select count(*)::int as n from drizzle.__drizzle_migrations",
  ).catch(() => [{ n: -1 }]);
  return { ...tables, nicknameColumn: nickname.length > 0, migrationsRecorded: recorded?.n };
}

async function fresh(folder?: string): Promise<Database> {
  const database = await createDatabase({
    pglite: await PGlite.create({ extensions: pgliteExtensions }),
    migrationsFolder: folder,
  });
  databases.push(database);
  return database;
}

describe("a failing migration", () => {
  const committed = readdirSync(migrationsFolder).filter((f) => f.endsWith(".sql")).length;

  it("throws and leaves a migrated database as it was", async () => {
    const good = await fresh();
    await good.migrate();
    await good.db.execute("insert into users (user_id, email, password_hash) values ('keeper', 'k@example.jp', 'x')");
    const before = await state(good);
    expect(before).toEqual({ partial: null, users: "users", nicknameColumn: false, migrationsRecorded: committed });

    const broken = await createDatabase({ pglite: good.pglite as PGlite, migrationsFolder: migrationsWith(BROKEN) });
    const failure = await broken.migrate().then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(failure).toBeInstanceOf(Error);
    expect(`${failure?.message} ${String((failure?.cause as Error | undefined)?.message)}`).toContain("no_such_column");

    expect(await state(good)).toEqual(before);
    expect(await rows(good, "select user_id from users")).toEqual([{ user_id: "keeper" }]);
  });

  it("on an empty database, applies none of the pending migrations", async () => {
    const database = await fresh(migrationsWith(BROKEN));
    await expect(database.migrate()).rejects.toThrow();
    expect(await state(database)).toEqual({
      partial: null,
      users: null,
      nicknameColumn: false,
      migrationsRecorded: 0,
    });
  });

  it("once fixed, the same migration applies on the database the broken one left", async () => {
    const database = await fresh();
    await database.migrate();
    await expect(
      createDatabase({ pglite: database.pglite as PGlite, migrationsFolder: migrationsWith(BROKEN) }).then((d) =>
        d.migrate(),
      ),
    ).rejects.toThrow();
    const fixed = migrationsWith({ ...BROKEN, statements: BROKEN.statements.slice(0, 2) });
    await createDatabase({ pglite: database.pglite as PGlite, migrationsFolder: fixed }).then((d) => d.migrate());
    expect(await state(database)).toEqual({
      partial: "partial_change",
      users: "users",
      nicknameColumn: true,
      migrationsRecorded: committed + 1,
    });
  });
});
