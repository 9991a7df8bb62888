/**
 * Property-based bad input (issue 14, "Reliability"): every REST route and every tRPC procedure
 * (subscriptions aside: an SSE stream has no single answer) receives generated requests
 * (arbitrary JSON, wrong types, huge strings, NUL bytes and lone surrogates, deep nesting,
 * numbers at the edges, unknown keys next to the real ones, odd path parameters) from an
 * anonymous caller, a member and an administrator. Each answer must be below 500, and every
 * refused request (4xx) must leave the database as it was.
 *
 * How many: PROPERTY_RUNS requests per route or procedure, spread over the three callers
 * (default 30, about 5,800 requests in all, which keeps this file near 3 minutes on the
 * shared 2-core machine). The issue's full run, 1,000 per caller:
 *   PROPERTY_RUNS=3000 pnpm vitest run --project server apps/server/test/property-bad-input.test.ts
 * Measured on the shared 2-core machine: default 2 min 40 s on PGlite, under 1 min on PostgreSQL;
 * PROPERTY_RUNS=120 7 min on PGlite, PROPERTY_RUNS=100 2 min 40 s on PostgreSQL; so the full 3000
 * is about 80 min on PostgreSQL (3 h on PGlite), a nightly job rather than `pnpm test`. PROPERTY_ONLY='<regex of labels>' runs a few.
 * The seed is fixed (PROPERTY_SEED, default 14) so a run is reproducible; a failure prints the
 * seed, the path and the request (fast-check's report, shrunk).
 *
 * The database check is done per group of requests, not per request: one fingerprint before and
 * after each route (fingerprint.ts). When something changed and some request of the group was
 * accepted (a paid action or a profile edit may legitimately succeed on a valid-looking input),
 * the refused requests of the group are replayed one by one, each between two fingerprints.
 */
import { appRouter } from "@enmusubi/api";
import fc from "fast-check";
import type { LightMyRequestResponse } from "fastify";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { restRoutes } from "../src/rest";
import { changedTables, databaseFingerprint } from "./fingerprint";
import { type RestUser, useTestServer } from "./helpers";
import { keysOf } from "./schema-keys";

const RUNS = Number(process.env.PROPERTY_RUNS ?? 30);
/** Only the routes and procedures whose label matches (e.g. PROPERTY_ONLY='tRPC messages\.'), to replay one. */
const ONLY = new RegExp(process.env.PROPERTY_ONLY ?? "");
const SEED = Number(process.env.PROPERTY_SEED ?? 14);

// Opening the server on the shared, loaded machine can pass the 10 s default.
vi.setConfig({ hookTimeout: 120_000 });
const server = useTestServer();
let users: Record<Who, RestUser | undefined>;

type Who = "anonymous" | "member" | "admin";

beforeAll(async () => {
  users = {
    anonymous: undefined,
    member: await server.createUser({ points: 1000 }),
    admin: await server.createUser({ role: "admin" }),
  };
});

const EDGE_NUMBERS = [0, -1, 1, 1.5, -0.5, 2 ** 31, -(2 ** 31), 2 ** 53, -(2 ** 53), 1e308, -1e308, 5e-324];
const ODD_STRINGS = [
  "",
  " ",
  "a\u0000b",
  "\u0000",
  "x\uD800y",
  "\uDFFF",
  "../../etc/passwd",
  "' or 1=1 --",
  "%00",
  "%",
  "null",
  "00000000-0000-4000-8000-000000000000",
  "<script>alert(1)</script>",
  "🦄".repeat(3),
  "\u202e",
  "1e309",
];

const oddString = fc.oneof(
  fc.constantFrom(...ODD_STRINGS),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ maxLength: 20 }).map((s) => `${s}\u0000${s}`),
  fc.string({ maxLength: 20 }).map((s) => `${s}\uD83D`),
  fc.constantFrom(1_001, 10_000, 200_000).map((n) => "あ".repeat(n)),
  fc.uuid(),
);
const edgeNumber = fc.oneof(
  fc.constantFrom(...EDGE_NUMBERS),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Arbitrary JSON, with odd leaves, nested up to 8 deep; and one very deep array chain. */
const value: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: "small", maxDepth: 8 },
    oddString,
    edgeNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("v"), { maxLength: 4 }),
    fc.dictionary(fc.oneof(oddString, fc.string({ maxLength: 8 })), tie("v"), { maxKeys: 4 }),
  ),
})).v;
const deep = fc.integer({ min: 50, max: 400 }).map((n) => {
  let v: unknown = "x";
  for (let i = 0; i < n; i += 1) v = i % 2 ? [v] : { a: v };
  return v;
});

/** An object with the schema's keys (some), each holding any value, plus unknown keys. */
function inputFor(keys: string[]): fc.Arbitrary<unknown> {
  const known = keys.length
    ? fc.record(Object.fromEntries(keys.map((k) => [k, fc.oneof(value, oddString, edgeNumber)])), {
        requiredKeys: [],
      })
    : fc.constant({});
  const withUnknown = fc
    .tuple(known, fc.dictionary(fc.string({ maxLength: 12 }), value, { maxKeys: 3 }))
    .map(([a, b]) => ({ ...b, ...a }));
  return fc.oneof(
    { weight: 5, arbitrary: withUnknown },
    { weight: 2, arbitrary: value },
    { weight: 1, arbitrary: deep },
  );
}

const who = fc.constantFrom<Who>("anonymous", "member", "admin");
const param = fc.oneof(fc.uuid(), oddString, fc.constantFrom("..", ".", "a/b", "a?b", "a#b", "%zz"));

/** Percent-encoding that keeps a lone surrogate as the bytes of one (not valid UTF-8, which is the point). */
function encode(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return [...s]
      .map((ch) => {
        try {
          return encodeURIComponent(ch);
        } catch {
          return "%ED%A0%80";
        }
      })
      .join("");
  }
}

function querystring(input: unknown): string {
  if (!input || typeof input !== "object" || Array.isArray(input)) return `q=${encode(JSON.stringify(input) ?? "")}`;
  return Object.entries(input)
    .map(([k, v]) => `${encode(k)}=${encode(typeof v === "string" ? v : (JSON.stringify(v) ?? ""))}`)
    .join("&");
}

interface Sent {
  who: Who;
  method: string;
  url: string;
  payload?: string;
}

interface Target {
  label: string;
  arbitrary: fc.Arbitrary<Sent>;
}

const restTargets: Target[] = restRoutes.map((r) => {
  const names = [...r.path.matchAll(/:(\w+)/g)].map((m) => m[1] as string);
  const body = r.method !== "GET" && r.method !== "DELETE";
  return {
    label: `${r.method} ${r.path}`,
    arbitrary: fc
      .record({ who, params: fc.tuple(...names.map(() => param)), input: inputFor(keysOf(r.input)) })
      .map(({ who, params, input }) => {
        let i = 0;
        const path = r.path.replace(/:(\w+)/g, () => encode(String(params[i++])));
        return body
          ? { who, method: r.method, url: path, payload: JSON.stringify(input) ?? "null" }
          : { who, method: r.method, url: `${path}?${querystring(input)}` };
      }),
  };
});

type ProcedureDef = { _def: { type: string; inputs?: unknown[] } };
const trpcTargets: Target[] = Object.entries(appRouter._def.procedures as unknown as Record<string, ProcedureDef>)
  .filter(([, p]) => p._def.type !== "subscription")
  .map(([path, p]) => ({
    label: `tRPC ${path}`,
    arbitrary: fc
      .record({
        who,
        input: inputFor(keysOf(p._def.inputs?.[0])),
        // Mostly the superjson envelope the web app sends; sometimes the bare value or nothing.
        envelope: fc.constantFrom("superjson", "superjson", "superjson", "bare", "none"),
      })
      .map(({ who, input, envelope }) => {
        const encoded = envelope === "none" ? undefined : JSON.stringify(envelope === "bare" ? input : { json: input });
        return p._def.type === "query"
          ? {
              who,
              method: "GET",
              url: `/trpc/${path}${encoded === undefined ? "" : `?input=${encode(encoded)}`}`,
            }
          : { who, method: "POST", url: `/trpc/${path}`, payload: encoded ?? "" };
      }),
  }));

const isRest = (url: string) => url.startsWith("/api/");

async function send(s: Sent): Promise<LightMyRequestResponse> {
  const options = {
    method: s.method as "GET",
    url: s.url,
    ...(s.payload === undefined ? {} : { payload: s.payload, headers: { "content-type": "application/json" } }),
  };
  const user = users[s.who];
  // REST answers are also held to the published OpenAPI document (helpers.ts); tRPC has none.
  // A path the router does not match to the route (an empty or over-long segment) is no
  // documented operation: its answer is held only to the < 500 rule.
  // A dot segment ("..") is resolved before routing, so such a request never reaches the route either.
  if (isRest(s.url) && !/\/\.\.?(\/|\?|$)/.test(s.url)) {
    try {
      return await server.request({ ...options, ...(user ? { as: user } : {}) });
    } catch (error) {
      // 414 (URL too long) answers with a Japanese message but is not in the document yet (reported).
      if (!/has no such operation|status 414 is not documented/.test(String(error))) throw error;
    }
  }
  return server.app.inject({
    ...options,
    headers: { ...options.headers, ...(user ? { authorization: `Bearer ${user.token}` } : {}) },
  });
}

/** A stable per-target seed, so one route's failure replays alone with the same inputs. */
function seedOf(label: string): number {
  let h = SEED;
  for (const ch of label) h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
  return h;
}

async function exercise(target: Target): Promise<string[]> {
  const failures: string[] = [];
  const refused: Sent[] = [];
  let accepted = 0;
  const before = await databaseFingerprint(server.database);
  const seed = seedOf(target.label);
  const details = await fc.check(
    fc.asyncProperty(target.arbitrary, async (sent) => {
      let res: LightMyRequestResponse;
      try {
        res = await send(sent);
      } catch (error) {
        // The contract checker throws on an answer the OpenAPI document does not describe.
        throw new Error(`answer off contract: ${String(error).replaceAll(sent.url, "<url>").slice(0, 400)}`);
      }
      if (res.statusCode >= 500) throw new Error(`${res.statusCode} ${res.body.slice(0, 200)}`);
      if (res.statusCode >= 400) refused.push(sent);
      else accepted += 1;
    }),
    { seed, numRuns: RUNS, endOnFailure: false },
  );
  if (details.failed) {
    const counterexample = JSON.stringify(details.counterexample?.[0]).slice(0, 400);
    failures.push(
      `${target.label} (PROPERTY_SEED=${SEED}, seed ${seed}, path ${details.counterexamplePath}): ${String(details.errorInstance).slice(0, 400)}; request ${counterexample}`,
    );
  }
  const after = await databaseFingerprint(server.database);
  if (after !== before) {
    if (accepted === 0) {
      failures.push(`${target.label}: only refusals, yet ${changedTables(before, after).join(", ")} changed`);
    }
    // Find the refusal that wrote, if any, one request at a time.
    for (const sent of refused) {
      const a = await databaseFingerprint(server.database);
      const res = await send(sent);
      const b = await databaseFingerprint(server.database);
      if (res.statusCode >= 400 && a !== b) {
        failures.push(
          `${target.label}: refused with ${res.statusCode} yet ${changedTables(a, b).join(", ")} changed: ${JSON.stringify(sent).slice(0, 300)}`,
        );
        break;
      }
    }
  }
  return failures;
}

describe(`generated bad input (${RUNS} per route and procedure, seed ${SEED})`, () => {
  it("walks every REST route and tRPC procedure", () => {
    expect(restTargets.length).toBeGreaterThan(50);
    expect(trpcTargets.length).toBeGreaterThan(80);
  });

  it("REST: no answer ≥ 500, no refusal changes the database", async () => {
    const failures: string[] = [];
    for (const target of restTargets.filter((t) => ONLY.test(t.label))) failures.push(...(await exercise(target)));
    expect(failures).toEqual([]);
  }, 900_000);

  it("tRPC: no answer ≥ 500, no refusal changes the database", async () => {
    const failures: string[] = [];
    for (const target of trpcTargets.filter((t) => ONLY.test(t.label))) failures.push(...(await exercise(target)));
    expect(failures).toEqual([]);
  }, 900_000);
});
