import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type Database, rowsOf } from "../src";

/**
 * On PostgreSQL every statement drizzle sends with parameters is prepared once per connection, in
 * transactions too, and a bulk statement (more than 100 parameters) is not (client.ts `preparing`).
 * Read from PostgreSQL's own list of the connection's prepared statements, so the test fails if
 * drizzle's statements go unnamed again. Needs TEST_DATABASE_URL (PGlite has no postgres.js).
 */
const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)("prepared statements on PostgreSQL", () => {
  const name = `enmusubi_prepared_${randomBytes(4).toString("hex")}`;
  let admin: postgres.Sql;
  let database: Database;

  beforeAll(async () => {
    admin = postgres(url as string, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    const target = new URL(url as string);
    target.pathname = `/${name}`;
    // One connection, so every statement below and the reading of the list share it.
    database = await createDatabase({ url: target.toString(), max: 1 });
  });

  afterAll(async () => {
    await database?.close();
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  });

  /** The texts of the statements prepared on the (one) connection. */
  const preparedTexts = async () =>
    (await rowsOf<{ statement: string }>(database.db, sql`select statement from pg_prepared_statements`)).map(
      (row) => row.statement,
    );

  it("prepares a statement with parameters once and reuses it", async () => {
    for (let i = 0; i < 3; i++) await database.db.execute(sql`select ${i}::int + 1 as plain_marker`);
    const texts = (await preparedTexts()).filter((text) => text.includes("plain_marker"));
    expect(texts).toHaveLength(1);
  });

  it("prepares a read without parameters too, and leaves a script or a change without them unnamed", async () => {
    for (let i = 0; i < 3; i++) await database.db.execute(sql`select 1 as literal_marker`);
    await database.db.execute(sql.raw("select 1 as script_marker_a; select 2 as script_marker_b"));
    await database.db.execute(sql`create temporary table ddl_marker (id int)`);
    const texts = await preparedTexts();
    expect(texts.filter((text) => text.includes("literal_marker"))).toHaveLength(1);
    expect(texts.some((text) => text.includes("script_marker") || text.includes("ddl_marker"))).toBe(false);
  });

  it("prepares inside a transaction and a savepoint too", async () => {
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`select ${1}::int as tx_marker`);
      await tx.transaction(async (inner) => {
        await inner.execute(sql`select ${2}::int as savepoint_marker`);
      });
    });
    const texts = await preparedTexts();
    expect(texts.some((text) => text.includes("tx_marker"))).toBe(true);
    expect(texts.some((text) => text.includes("savepoint_marker"))).toBe(true);
  });

  it("leaves a bulk statement (more than 100 parameters) unnamed", async () => {
    const values = Array.from({ length: 101 }, (_, i) => sql`${i}::int`);
    const [row] = await rowsOf<{ bulk_marker: number }>(
      database.db,
      sql`select greatest(${sql.join(values, sql`, `)}) as bulk_marker`,
    );
    expect(row?.bulk_marker).toBe(100);
    expect((await preparedTexts()).some((text) => text.includes("bulk_marker"))).toBe(false);
  });
});
