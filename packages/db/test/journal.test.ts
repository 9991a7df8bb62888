import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { migrationsFolder } from "../src/client";

/**
 * The migration journal: drizzle applies a migration only when its `when` is later than that of
 * the last one the database applied, so a journal whose times go backwards (branches generated at
 * different moments and merged) would skip a later migration on an upgraded database.
 */
describe("the migration journal", () => {
  it("numbers its entries in order and their times only grow", () => {
    const journal = JSON.parse(readFileSync(path.join(migrationsFolder, "meta/_journal.json"), "utf8")) as {
      entries: Array<{ idx: number; when: number; tag: string }>;
    };
    const out = journal.entries.flatMap((entry, i) => {
      const previous = journal.entries[i - 1];
      const problems: string[] = [];
      if (entry.idx !== i) problems.push(`${entry.tag}: idx ${entry.idx}, expected ${i}`);
      if (!entry.tag.startsWith(String(i).padStart(4, "0"))) problems.push(`${entry.tag}: not numbered ${i}`);
      if (previous && entry.when <= previous.when) problems.push(`${entry.tag}: when not after ${previous.tag}'s`);
      return problems;
    });
    expect(out).toEqual([]);
  });
});
