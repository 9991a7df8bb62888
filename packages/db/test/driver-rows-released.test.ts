import { integer, pgTable, text } from "drizzle-orm/pg-core";
import { drizzle } from "drizzle-orm/postgres-js";
import type { Sql } from "postgres";
import { describe, expect, it } from "vitest";

/**
 * patches/drizzle-orm@0.45.4.patch, "the driver's rows released" (patches/README.md): once drizzle
 * has mapped a postgres.js answer into its rows, it empties the driver's array. postgres.js's
 * answer stays reachable from its settled query for a while after the call, so every decoded row
 * outlived V8's young-generation collections and was promoted: about 35 KB per admin user page,
 * most of the server's GC time (decision 0037, seventh session). The mapped rows must come out
 * whole, and the driver's array empty. A driver stub: the hunk is in drizzle's mapping, whatever
 * the server.
 */
const things = pgTable("things", { id: integer("id").primaryKey(), name: text("name") });

function fakeClient(answer: unknown[][]): Sql {
  const unsafe = () => ({ values: () => Promise.resolve(answer) });
  return { unsafe, options: { parsers: {}, serializers: {} } } as unknown as Sql;
}

describe("drizzle's postgres.js statements (patched)", () => {
  it("answer the mapped rows and release the driver's", async () => {
    const answer = [
      [1, "一"],
      [2, null],
    ];
    const db = drizzle({ client: fakeClient(answer) });
    const rows = await db.select({ id: things.id, name: things.name }).from(things);
    expect(rows).toEqual([
      { id: 1, name: "一" },
      { id: 2, name: null },
    ]);
    expect(answer).toHaveLength(0);
  });

  it("do the same for a prepared statement", async () => {
    const answer = [[3, "三"]];
    const db = drizzle({ client: fakeClient(answer) });
    const prepared = db.select({ id: things.id, name: things.name }).from(things).prepare("things_page");
    expect(await prepared.execute()).toEqual([{ id: 3, name: "三" }]);
    expect(answer).toHaveLength(0);
  });
});
