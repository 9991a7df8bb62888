import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import postgres from "postgres";
import { describe, expect, it } from "vitest";

/**
 * patches/postgres@3.4.9.patch, "species as data properties" (patches/README.md): postgres.js's
 * `Result` (an Array subclass) and `Query` (a Promise subclass) name their species in a data
 * property instead of a static getter in the class body. Unpatched, V8 on Node 20 aborted every
 * optimised compilation of both ("Bailed out due to dependency change") and queued it again, a few
 * hundred times a second under load: a tenth of a busy server's CPU spent compiling on another
 * thread (decision 0037, eighth session). These hold the patch to the same answers as the getter
 * (Array methods make plain arrays, `then` makes plain promises) and, on PostgreSQL
 * (TEST_DATABASE_URL), to compilations that finish.
 */
const require = createRequire(import.meta.url);
/** The ES module sources the server runs (`import "postgres"`), and the CommonJS copy. */
const esmSources = path.join(path.dirname(require.resolve("postgres")), "../../src");
const cjsSources = path.dirname(require.resolve("postgres"));

describe("postgres.js species (patched)", () => {
  it.each([
    ["ES module", async (file: string) => import(pathToFileURL(path.join(esmSources, file)).href)],
    ["CommonJS", async (file: string) => require(path.join(cjsSources, file))],
  ])("names the species as data properties (%s copy)", async (_copy, load) => {
    const resultModule = await load("result.js");
    const Result = (resultModule.default ?? resultModule) as ArrayConstructor;
    const { Query } = (await load("query.js")) as { Query: PromiseConstructor };
    for (const [cls, species] of [
      [Result, Array],
      [Query, Promise],
    ] as const) {
      const descriptor = Object.getOwnPropertyDescriptor(cls, Symbol.species);
      expect(descriptor).toEqual({ value: species, writable: false, enumerable: false, configurable: true });
    }
    const rows = new Result();
    rows.push(1, 2, 3);
    expect(rows.map((x) => x * 2).constructor).toBe(Array);
    expect(rows.filter((x) => x > 1).constructor).toBe(Array);
    expect(Object.keys(rows)).toEqual(["0", "1", "2"]);
  });

  const url = process.env.TEST_DATABASE_URL;

  it.skipIf(!url)("answers queries whose then, catch and finally make plain promises", async () => {
    const sql = postgres(url as string, { max: 1, onnotice: () => {} });
    try {
      const query = sql`select 1 as one`;
      const mapped = query.then((rows) => rows.map((row) => row.one));
      expect(mapped.constructor).toBe(Promise);
      expect(await mapped).toEqual([1]);
      const failed = sql`select 1/0`.catch((error: Error) => error.message);
      expect(failed.constructor).toBe(Promise);
      expect(await failed).toMatch(/division by zero/);
    } finally {
      await sql.end();
    }
  });

  it.skipIf(!url)(
    "lets V8 finish compiling Result and Query under load",
    async () => {
      // A loop of prepared queries, as the server runs them; V8's --trace-opt log tells which
      // compilations were aborted once the loop has run for a second.
      const script = `
      import postgres from ${JSON.stringify(pathToFileURL(path.join(esmSources, "index.js")).href)};
      const sql = postgres(process.env.URL, { max: 2, onnotice: () => {} });
      const start = Date.now();
      let marked = false;
      let n = 0;
      const worker = async () => {
        while (Date.now() - start < 3000) {
          if (!marked && Date.now() - start > 1000) { marked = true; console.log("MARK"); }
          await sql.unsafe("select $1::int as a, 'x' as b", [n++ % 1000], { prepare: true }).values();
        }
      };
      await Promise.all(Array.from({ length: 8 }, worker));
      await sql.end();
    `;
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ["--trace-opt", "--input-type=module", "-e", script],
        {
          env: { ...process.env, URL: url },
          maxBuffer: 64 * 1024 * 1024,
        },
      );
      const afterMark = stdout.slice(stdout.indexOf("MARK"));
      expect(afterMark.length).toBeGreaterThan(0);
      const aborted = afterMark.match(/aborted optimizing .*<JSFunction (Result|Query|unsafe|ReadyForQuery) /g) ?? [];
      // Unpatched: about 300 in these two seconds on a 2-core machine; patched: none or a few.
      expect(aborted.length).toBeLessThan(20);
    },
    30_000,
  );
});
