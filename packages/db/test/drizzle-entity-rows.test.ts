import { Column, entityKind, eq, is, SQL, sql } from "drizzle-orm";
import { integer, PgColumn, pgTable, text } from "drizzle-orm/pg-core";
import { drizzle } from "drizzle-orm/postgres-js";
import type { Sql } from "postgres";
import { describe, expect, it } from "vitest";

/**
 * patches/drizzle-orm@0.45.4.patch, its two pure-speed hunks (patches/README.md):
 *
 * - is() answered per class: drizzle's `is(value, type)` remembers its answer per value class and
 *   type, and each class's entity kinds, instead of walking the prototype chain on every negative
 *   answer (building one statement asks thousands of times).
 * - a row plan per query: `mapResultRow` works out each selected column's decoder once per query
 *   instead of once per row and column.
 *
 * The answers must be unpatched drizzle's; the counts below hold each hunk to doing its work once.
 * A driver stub answers the rows: both hunks are in drizzle's code, whatever the server.
 */
const people = pgTable("people", { id: integer("id").primaryKey(), name: text("name") });
const pets = pgTable("pets", { id: integer("id").primaryKey(), ownerId: integer("owner_id"), name: text("name") });

/** A postgres.js client that answers every statement with `answer` (arrays, as drizzle asks). */
function fakeClient(answer: () => unknown[][]): Sql {
  const unsafe = () => ({ values: () => Promise.resolve(answer()) });
  return { unsafe, options: { parsers: {}, serializers: {} } } as unknown as Sql;
}

describe("drizzle's is() (patched: answered per class)", () => {
  it("gives unpatched drizzle's answers", () => {
    const column = people.name;
    expect(is(column, Column)).toBe(true);
    expect(is(column, PgColumn)).toBe(true);
    expect(is(column, SQL)).toBe(false);
    expect(is(sql`1`, SQL)).toBe(true);
    expect(is(sql`1`, Column)).toBe(false);
    expect(is({ name: "x" }, Column)).toBe(false);
    expect(is(null, Column)).toBe(false);
    // A class of another copy of drizzle, known by its entity kind only.
    // biome-ignore lint/complexity/noStaticOnlyClass: drizzle knows an entity by its class's static kind.
    class ForeignColumn {
      static readonly [entityKind] = Column[entityKind];
    }
    class ForeignChild extends ForeignColumn {}
    expect(is(new ForeignChild(), Column)).toBe(true);
    // Asked twice, the answers stay (the second comes from the remembered one).
    expect(is(new ForeignChild(), Column)).toBe(true);
    expect(is(column, SQL)).toBe(false);
    // A type that is not drizzle's is refused, every time.
    const NotAnEntity = class {} as unknown as typeof Column;
    expect(() => is(column, NotAnEntity)).toThrow(/doesn't look like a Drizzle entity/);
    expect(() => is(column, NotAnEntity)).toThrow(/doesn't look like a Drizzle entity/);
  });

  it("reads a class's entity kind once, however often it is asked about", () => {
    let reads = 0;
    // biome-ignore lint/complexity/noStaticOnlyClass: drizzle knows an entity by its class's static kind.
    class Counted {
      static get [entityKind]() {
        reads += 1;
        return "Counted";
      }
    }
    for (let i = 0; i < 100; i++) {
      expect(is(new Counted(), Column)).toBe(false);
      expect(is(new Counted(), SQL)).toBe(false);
    }
    // Unpatched: read on every negative answer (200).
    expect(reads).toBe(1);
  });
});

describe("drizzle's row mapping (patched: a row plan per query)", () => {
  it("maps rows as unpatched drizzle does: decoders, nested fields, a left join's missing row", async () => {
    const db = drizzle({
      client: fakeClient(() => [
        [1, "一", 10, "ポチ", "2"],
        [2, null, null, null, "4"],
      ]),
    });
    const rows = await db
      .select({
        id: people.id,
        name: people.name,
        pet: { id: pets.id, name: pets.name },
        doubled: sql<number>`${people.id} * 2`.mapWith(Number),
      })
      .from(people)
      .leftJoin(pets, eq(pets.ownerId, people.id));
    expect(rows).toEqual([
      { id: 1, name: "一", pet: { id: 10, name: "ポチ" }, doubled: 2 },
      { id: 2, name: null, pet: null, doubled: 4 },
    ]);
  });

  it("looks up each column's decoder once per query, not once per row", async () => {
    const doubled = sql<number>`${people.id} * 2`.mapWith(Number);
    let reads = 0;
    const decoder = (doubled as unknown as { decoder: unknown }).decoder;
    Object.defineProperty(doubled, "decoder", {
      get: () => {
        reads += 1;
        return decoder;
      },
    });
    const db = drizzle({ client: fakeClient(() => Array.from({ length: 50 }, (_, i) => [i, String(i * 2)])) });
    const rows = await db.select({ id: people.id, doubled }).from(people);
    expect(rows).toHaveLength(50);
    expect(rows[49]).toEqual({ id: 49, doubled: 98 });
    // Unpatched: once per row (50).
    expect(reads).toBe(1);
  });
});
