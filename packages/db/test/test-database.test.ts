import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import type { Database } from "../src/client";
import { rowsOf } from "../src/rows";
import { onPostgres, openTestDatabase, type TestTemplate, templateReady } from "../src/testing/test-database";

declare module "vitest" {
  export interface ProvidedContext {
    dbTemplate: TestTemplate;
  }
}

/**
 * The test databases themselves: each file's database starts as the template, whatever the file
 * before it did. On PGlite a worker puts one instance back between files (test-database.ts); these
 * tests open and close databases as successive files do.
 */
const template = () => inject("dbTemplate");

async function count(database: Database, query: string): Promise<number> {
  const [row] = await rowsOf<{ n: number }>(database.db, sql.raw(`select (${query})::int as n`));
  return row?.n ?? -1;
}

describe("the template the global setup builds while the first files run", () => {
  it("a file waits until the template is ready, and fails with the build's own error", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "enmusubi-template-ready-"));
    const at = (name: string): TestTemplate => ({
      kind: "pglite",
      snapshotFile: path.join(dir, `${name}.tar`),
      readyFile: path.join(dir, `${name}.ready`),
    });
    const building = at("building");
    let state = "waiting";
    const waiting = templateReady(building).then(() => {
      state = "ready";
    });
    // Several of its polls (every 50 ms) pass while nothing is written: it keeps waiting.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(state).toBe("waiting");
    writeFileSync(building.readyFile, "ok");
    await waiting;
    expect(state).toBe("ready");

    const failed = at("failed");
    writeFileSync(failed.readyFile, "the test template could not be built: migration 0042 failed");
    await expect(templateReady(failed)).rejects.toThrow("migration 0042 failed");
  });
});

describe.skipIf(onPostgres)("a worker's PGlite, put back between files", () => {
  it("a file's rows, session and schemas are gone for the next file; the template's rows are back", async () => {
    const first = await openTestDatabase(template());
    const costs = await count(first, "select count(*) from point_costs");
    expect(costs).toBeGreaterThan(0);
    await first.db.execute(sql`delete from point_costs`);
    await first.db.execute(
      sql`insert into users (user_id, email, password_hash, name) values ('left-behind', 'left@example.com', 'x', '残り')`,
    );
    await first.db.execute(sql`create schema scratch`);
    await first.db.execute(sql`set timezone = 'America/New_York'`);
    await first.db.execute(sql`select pg_advisory_lock(42)`);
    const pglite = first.pglite as PGlite;
    const query = pglite.query.bind(pglite);
    (pglite as unknown as { query: unknown }).query = () => Promise.reject(new Error("wrapped by the file"));
    await first.close();

    const second = await openTestDatabase(template());
    expect(second.pglite).toBe(pglite);
    expect(await count(second, "select count(*) from users where user_id = 'left-behind'")).toBe(0);
    expect(await count(second, "select count(*) from point_costs")).toBe(costs);
    expect(await count(second, "select count(*) from pg_namespace where nspname = 'scratch'")).toBe(0);
    expect(await count(second, "select count(*) from pg_locks where locktype = 'advisory'")).toBe(0);
    const [zone] = await rowsOf<{ zone: string }>(second.db, sql`select current_setting('timezone') as zone`);
    expect(zone?.zone).not.toBe("America/New_York");
    expect((await pglite.query("select 1 as one")).rows).toEqual([{ one: 1 }]);
    expect(query).toBeTypeOf("function");
    await second.close();
  });

  it("a file that changed the catalogue (a trigger) leaves its instance behind: the next file gets a new one", async () => {
    const first = await openTestDatabase(template());
    await first.db.execute(
      sql.raw(
        `create function refuse_costs() returns trigger language plpgsql as $$ begin raise exception 'no'; end $$`,
      ),
    );
    await first.db.execute(
      sql.raw("create trigger refuse_costs before insert on point_costs for each row execute function refuse_costs()"),
    );
    const pglite = first.pglite;
    await first.close();
    const second = await openTestDatabase(template());
    expect(second.pglite).not.toBe(pglite);
    expect(await count(second, "select count(*) from pg_trigger where tgname = 'refuse_costs'")).toBe(0);
    await second.close();
  }, 60_000); // a PGlite started from the snapshot: seconds on a busy machine

  it("a second database opened while the first is open is an instance of its own", async () => {
    const first = await openTestDatabase(template());
    const second = await openTestDatabase(template());
    expect(second.pglite).not.toBe(first.pglite);
    await first.db.execute(sql`delete from occupations`);
    expect(await count(second, "select count(*) from occupations")).toBeGreaterThan(0);
    await second.close();
    await first.close();
  }, 60_000);
});
