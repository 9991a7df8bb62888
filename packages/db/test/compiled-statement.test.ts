import { randomBytes } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compiledStatement, createDatabase, type Database, rowsOf } from "../src";

/**
 * `compiledStatement` (rows.ts): a statement's text is made once, and every call runs it with its
 * own values, on the handle it is given (a transaction's too, rolled back with it). On PGlite, and
 * on PostgreSQL when TEST_DATABASE_URL is set.
 */
let builds = 0;
const insertNote = compiledStatement<{ id: number; body: string }>(() => {
  builds += 1;
  return sql`insert into compiled_notes (body, n) values (${sql.placeholder("body")}, ${sql.placeholder("n")}::int) returning id, body`;
});
const notesOver = compiledStatement<{ body: string }>(
  () => sql`select body from compiled_notes where n > ${sql.placeholder("n")}::int order by n`,
);

function behaves(open: () => Promise<Database>) {
  let database: Database;
  beforeAll(async () => {
    database = await open();
    await database.db.execute(sql`create table compiled_notes (id serial primary key, body text, n int)`);
  });
  afterAll(async () => {
    await database.db.execute(sql`drop table if exists compiled_notes`);
    await database.close();
  });

  it("runs each call with its own values (none baked in) and answers its rows", async () => {
    const first = await insertNote(database.db, { body: "一", n: 1 });
    const second = await insertNote(database.db, { body: "二", n: 2 });
    expect(first.map((r) => r.body)).toEqual(["一"]);
    expect(second.map((r) => r.body)).toEqual(["二"]);
    expect((await notesOver(database.db, { n: 1 })).map((r) => r.body)).toEqual(["二"]);
    expect((await notesOver(database.db, { n: 0 })).map((r) => r.body)).toEqual(["一", "二"]);
  });

  it("runs in the transaction it is given: rolled back with it", async () => {
    await database.db
      .transaction(async (tx) => {
        await insertNote(tx, { body: "三", n: 3 });
        expect((await notesOver(tx, { n: 2 })).map((r) => r.body)).toEqual(["三"]);
        throw new Error("roll back");
      })
      .catch(() => {});
    expect(await rowsOf(database.db, sql`select 1 from compiled_notes where n = 3`)).toEqual([]);
  });
}

describe("compiledStatement on PGlite", () => {
  behaves(async () => createDatabase({ pglite: new PGlite() }));
});

const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)("compiledStatement on PostgreSQL", () => {
  const name = `enmusubi_compiled_${randomBytes(4).toString("hex")}`;
  const admin = url ? postgres(url, { max: 1, onnotice: () => {} }) : undefined;
  afterAll(async () => {
    await admin?.unsafe(`drop database if exists ${name} with (force)`);
    await admin?.end();
  });
  behaves(async () => {
    await admin?.unsafe(`create database ${name}`);
    const target = new URL(url as string);
    target.pathname = `/${name}`;
    return createDatabase({ url: target.toString(), max: 2 });
  });
});

describe("compiledStatement's text", () => {
  it("is made once for every handle and call", () => {
    // Both suites above ran the insert several times on two drivers.
    expect(builds).toBe(1);
  });
});
