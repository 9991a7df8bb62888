import { appRouter, createCaller, createContextInner } from "@enmusubi/api";
import { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import fc from "fast-check";
import { beforeAll, expect, it, vi } from "vitest";
import { restRoutes } from "../src/rest";
import { changedTables, databaseFingerprint } from "./fingerprint";
import { type RestUser, type TestServer, useTestServer } from "./helpers";
import { keysOf } from "./schema-keys";
import { createWriteGuard, type WriteGuard } from "./write-guard";

/*
 * Property-based bad input ("Reliability"): the generators, targets and checking loop
 * of property-bad-input-rest.test.ts (every REST route) and property-bad-input-trpc.test.ts (every
 * tRPC procedure but the subscriptions: an SSE stream has no single answer).
 *
 * What is sent: arbitrary JSON, wrong types, strings past every length limit, NUL bytes and lone
 * surrogates, deep nesting, numbers at the edges, unknown keys next to the schema's real ones,
 * odd path parameters, impossible days, year 0 and far futures, reversed ranges and huge pages
 * (see `valueFor`); REST as query string or JSON body, tRPC mostly handed to the procedure in
 * process and one request in ten over HTTP (see `envelope`). Each route and procedure gets
 * PROPERTY_RUNS requests (default 1,000), split evenly over anonymous, a member and an
 * administrator (334 each). Every answer must be below 500, every refusal (4xx) must say why in
 * Japanese, every REST answer must match /api/openapi.json, and after every refusal the write
 * guard (write-guard.ts) must report no table changed; once per route the full row digest checks
 * the guard itself. (This replaced the fixed sweeps of a few hand-written bodies per route and
 * procedure that bad-input.test.ts files once ran: the generated inputs hold those shapes.)
 *
 * What it costs, measured on this 2-core machine on 23 Nov 2026 under the bench lock (load
 * average 1.5 to 4; vitest runs one file at a time here, maxWorkers = cores − 1):
 *   before, the old single file at its default of 30 per route (5,730 requests, a whole-table
 *   digest per route, refusals replayed one by one when something changed): 44.6 s wall on
 *   PGlite, 43.4 s on PostgreSQL, about 6 ms a request (19 min at 1,000 per route);
 *   now, both files at the default 1,000 per route (191,000 requests, the guard after each):
 *   PGlite 2 min 47 s wall (REST 100 s, tRPC 55 s, 3 min 8 s of CPU); PostgreSQL
 *   (TEST_DATABASE_URL) 2 min 49 s wall (REST 90 s, tRPC 70 s). Under a load average of 10 the
 *   same PGlite run took 8 min wall. On PGlite a REST request averages 1.2 ms, a tRPC call
 *   0.5 ms. (The "before" run already had the contract checker's one-time operation list.)
 * The sign-in and sign-up routes hash with the tests' cheap argon2 parameters (helpers.ts), so
 * they need no count of their own.
 *
 * Replaying: the seed is fixed (PROPERTY_SEED, default 14) and each route and caller has its own
 * derived seed, so PROPERTY_ONLY='<regex of labels>' replays one with the same inputs; a failure
 * prints the seed, the path and the request (fast-check's report, shrunk). PROPERTY_RUNS=3000
 * gives each caller 1,000.
 */

/** Requests per route or procedure, split evenly over the three callers (rounded up). */
export const RUNS = Number(process.env.PROPERTY_RUNS ?? 1000);
/** Only the routes and procedures whose label matches (e.g. PROPERTY_ONLY='tRPC messages\.'), to replay one. */
export const ONLY = new RegExp(process.env.PROPERTY_ONLY ?? "");
export const SEED = Number(process.env.PROPERTY_SEED ?? 14);

export const CALLERS = ["anonymous", "member", "admin"] as const;
export type Who = (typeof CALLERS)[number];
export const runsPerCaller = Math.ceil(RUNS / CALLERS.length);

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

/**
 * Strings that break rules: odd characters, one past every length limit of the spec (1,000 and
 * 10,000 characters are the longest), and rarely one of 200,000 (600 KB of UTF-8, most of the
 * body limit). The rare weight matters: a 600 KB body costs as much as a hundred small requests,
 * and the length limits are already crossed by the 1,001 and 10,001 character strings.
 */
const oddString = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...ODD_STRINGS) },
  { weight: 4, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ maxLength: 20 }).map((s) => `${s}\u0000${s}`) },
  { weight: 2, arbitrary: fc.string({ maxLength: 20 }).map((s) => `${s}\uD83D`) },
  { weight: 1, arbitrary: fc.constantFrom(1_001, 1_001, 10_001).map((n) => "あ".repeat(n)) },
  { weight: 2, arbitrary: fc.uuid() },
);
const hugeString = fc.constant("あ".repeat(200_000));
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

/*
 * Values (decision 0019 "No 500 for any input"): every key that holds a day, an instant or a page also
 * gets impossible days (2025-02-31, 2023-02-29), year 0 and years the database or `Date` cannot
 * hold, far futures, ISO instants of those years (as text and as `Date`, which tRPC carries), and
 * huge pages (page × limit far past any offset, "1e15"); objects holding a pair of days also get
 * the pair reversed (end before start).
 */
const IMPOSSIBLE_DAYS = [
  "2025-02-31",
  "2023-02-29",
  "2025-04-31",
  "2025-13-01",
  "2025-00-10",
  "0000-01-01",
  "0001-01-01",
  "1899-12-31",
  "3000-01-01",
  "9999-12-31",
  "+275760-09-13",
  "-000001-01-01",
];
const someDay = fc
  .date({ min: new Date("1900-01-01T00:00:00Z"), max: new Date("2999-12-31T00:00:00Z"), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const anyYearDay = fc
  .tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }))
  .map(([y, m, d]) => `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`);
const dayValue = fc.oneof(fc.constantFrom(...IMPOSSIBLE_DAYS), anyYearDay, someDay);
const instantValue = fc.oneof(
  dayValue.map((d) => `${d}T00:00:00Z`),
  anyYearDay.map((d) => `${d}T23:59:59+09:00`),
  fc.constantFrom("0000-01-01T00:00:00Z", "-000001-01-01T00:00:00Z", "+275760-09-13T00:00:00Z", "2025-02-31T00:00:00"),
  fc.constantFrom(
    new Date("0000-01-01T00:00:00Z"),
    new Date(-8.64e15),
    new Date(8.64e15),
    new Date(Number.NaN),
    new Date("9999-12-31T23:59:59Z"),
  ),
  fc.date({ min: new Date(-8.64e15), max: new Date(8.64e15) }),
);
const hugePage = fc.oneof(
  fc.constantFrom(100_001, 1_000_001, 1e15, 2 ** 31, 2 ** 53, 10_000, 0, -1),
  fc.constantFrom("100001", "1e15", "1000000000000000", "99999999999999999999", "10000", "1.5", " 7 "),
  fc.integer({ min: 1, max: 2 ** 40 }),
);
const DAY_KEY = /date|Date|^(from|to)$|At$/;
const PAGE_KEY = /^(page|limit|pageSize)$/;
const RANGES: Array<[string, string]> = [
  ["startDate", "endDate"],
  ["dateFrom", "dateTo"],
  ["from", "to"],
];

/** Valid values of the other fields a list needs (e.g. the sales report's granularity). */
const COMPANIONS: Record<string, fc.Arbitrary<unknown>> = { granularity: fc.constantFrom("day", "month") };

/** Besides any value: the values a key's name says it holds (days, instants, pages). */
function valueFor(key: string): fc.Arbitrary<unknown> {
  const any = fc.oneof(value, oddString, edgeNumber);
  if (DAY_KEY.test(key)) return fc.oneof(any, key.endsWith("At") ? instantValue : dayValue, instantValue);
  if (PAGE_KEY.test(key)) return fc.oneof(any, hugePage, hugePage);
  return any;
}

/** A pair of real days, the end before the start. */
const reversedRange = ([start, end]: [string, string]) =>
  fc
    .tuple(someDay, someDay)
    .filter(([a, b]) => a !== b)
    .map(([a, b]) => (a > b ? { [start]: a, [end]: b } : { [start]: b, [end]: a }));

/** An object with the schema's keys (some), each holding any value, plus unknown keys. */
function inputFor(keys: string[]): fc.Arbitrary<unknown> {
  const base = keys.length
    ? fc.record(Object.fromEntries(keys.map((k) => [k, valueFor(k)])), {
        requiredKeys: [],
      })
    : fc.constant({});
  const pairs = RANGES.filter(([a, b]) => keys.includes(a) && keys.includes(b));
  const known = pairs.length
    ? fc.oneof(
        { weight: 3, arbitrary: base },
        {
          weight: 1,
          arbitrary: fc
            .tuple(base, fc.constantFrom(...pairs).chain(reversedRange))
            .map(([a, r]) => ({ ...(a as object), ...r })),
        },
      )
    : base;
  // Only the value keys (with the few other fields a list needs to reach its query), so that an
  // impossible day or a huge page is not hidden behind another field's refusal.
  const valueKeys = keys.filter((k) => DAY_KEY.test(k) || PAGE_KEY.test(k));
  const focused = valueKeys.length
    ? fc
        .tuple(
          fc.record<Record<string, unknown>>(
            Object.fromEntries([
              ...valueKeys.map((k) => [k, DAY_KEY.test(k) ? fc.oneof(dayValue, instantValue) : hugePage]),
              ...keys.filter((k) => k in COMPANIONS).map((k) => [k, COMPANIONS[k] as fc.Arbitrary<unknown>]),
            ]),
            { requiredKeys: keys.filter((k) => k in COMPANIONS) as never[] },
          ),
          pairs.length ? fc.option(fc.constantFrom(...pairs).chain(reversedRange)) : fc.constant(null),
        )
        .map(([a, r]) => ({ ...a, ...(r ?? {}) }))
    : undefined;
  const withUnknown = fc
    .tuple(known, fc.dictionary(fc.string({ maxLength: 12 }), value, { maxKeys: 3 }))
    .map(([a, b]) => ({ ...b, ...a }));
  // About one request in 400 carries the 200,000-character string in one of the real keys.
  const huge = keys.length
    ? fc.tuple(known, fc.constantFrom(...keys), hugeString).map(([a, k, s]) => ({ ...(a as object), [k]: s }))
    : hugeString.map((s) => ({ text: s }));
  return fc.oneof(
    { weight: 250, arbitrary: withUnknown },
    ...(focused ? [{ weight: 150, arbitrary: focused }] : []),
    { weight: 100, arbitrary: value },
    { weight: 50, arbitrary: deep },
    { weight: 1, arbitrary: huge },
  );
}

const param = fc.oneof(fc.uuid(), oddString, fc.constantFrom("..", ".", "a/b", "a?b", "a#b", "%zz"));

/** A lone surrogate: one half of a pair without the other. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Percent-encoding that keeps a lone surrogate as the bytes of one (not valid UTF-8, which is the point). */
export function encode(s: string): string {
  return s.split(LONE_SURROGATE).map(encodeURIComponent).join("%ED%A0%80");
}

function querystring(input: unknown): string {
  if (!input || typeof input !== "object" || Array.isArray(input)) return `q=${encode(JSON.stringify(input) ?? "")}`;
  return Object.entries(input)
    .map(([k, v]) => `${encode(k)}=${encode(typeof v === "string" ? v : (JSON.stringify(v) ?? ""))}`)
    .join("&");
}

/** One request: over HTTP (`app.inject`), or a tRPC procedure called in process (`call`: its path). */
export type Sent = { method: string; url: string; payload?: string } | { call: string; input: unknown };

export interface Target {
  label: string;
  /** The requests to send as one caller. */
  requests(who: Who): fc.Arbitrary<Sent>;
}

export const restTargets: Target[] = restRoutes.map((r) => {
  const names = [...r.path.matchAll(/:(\w+)/g)].map((m) => m[1] as string);
  const body = r.method !== "GET" && r.method !== "DELETE";
  const requests = fc
    .record({ params: fc.tuple(...names.map(() => param)), input: inputFor(keysOf(r.input)) })
    .map(({ params, input }): Sent => {
      let i = 0;
      const path = r.path.replace(/:(\w+)/g, () => encode(String(params[i++])));
      return body
        ? { method: r.method, url: path, payload: JSON.stringify(input) ?? "null" }
        : { method: r.method, url: `${path}?${querystring(input)}` };
    });
  return { label: `${r.method} ${r.path}`, requests: () => requests };
});

/**
 * How a tRPC input travels. Over HTTP the superjson envelope the web app sends carries a JSON
 * value to the procedure unchanged, so most inputs are handed to the procedure in process (a
 * tenth of the cost of a request); one in ten still goes over HTTP, in the envelope, bare or
 * absent, so that the transport (query-string encoding, JSON parsing, superjson) meets bad input
 * on every procedure too.
 */
const envelope = fc.oneof(
  { weight: 36, arbitrary: fc.constant("in process" as const) },
  { weight: 2, arbitrary: fc.constant("superjson" as const) },
  { weight: 1, arbitrary: fc.constant("bare" as const) },
  { weight: 1, arbitrary: fc.constant("none" as const) },
);

type ProcedureDef = { _def: { type: string; inputs?: unknown[] } };
export const trpcTargets: Target[] = Object.entries(
  appRouter._def.procedures as unknown as Record<string, ProcedureDef>,
)
  .filter(([, p]) => p._def.type !== "subscription")
  .map(([path, p]) => {
    const requests = fc
      .record({ input: inputFor(keysOf(p._def.inputs?.[0])), envelope })
      .map(({ input, envelope }): Sent => {
        if (envelope === "in process") return { call: path, input };
        const encoded = envelope === "none" ? undefined : JSON.stringify(envelope === "bare" ? input : { json: input });
        return p._def.type === "query"
          ? { method: "GET", url: `/trpc/${path}${encoded === undefined ? "" : `?input=${encode(encoded)}`}` }
          : { method: "POST", url: `/trpc/${path}`, payload: encoded ?? "" };
      });
    return { label: `tRPC ${path}`, requests: () => requests };
  });

const isRest = (url: string) => url.startsWith("/api/");

export interface Answer {
  statusCode: number;
  body: string;
  /** A procedure called in process: its error's message (an HTTP answer carries it in the body). */
  message?: string;
}

const JAPANESE = /[\u3040-\u30ff\u4e00-\u9fff]/;

/**
 * The message a refusal gives its caller: REST's `message`, tRPC's `error.json.message` (bare or
 * batched), or the text of a body that is not JSON.
 */
export function refusalMessage(answer: Answer): string {
  if (answer.message !== undefined) return answer.message;
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return answer.body;
  }
  const first = (Array.isArray(body) ? body[0] : body) as
    | { message?: unknown; error?: { message?: unknown; json?: { message?: unknown } } }
    | null
    | undefined;
  return String(first?.message ?? first?.error?.json?.message ?? first?.error?.message ?? "");
}

type Procedure = (input: unknown) => Promise<unknown>;

/**
 * Sends one request as one caller. REST answers are also held to the published OpenAPI document;
 * a procedure called in process answers with the HTTP status its error maps to (200 when it
 * returns), as the tRPC adapter would.
 */
export function sender(server: TestServer, users: Record<Who, RestUser | undefined>) {
  const callers = Object.fromEntries(
    CALLERS.map((who) => {
      const user = users[who];
      const session = user ? user.session : null;
      return [who, createCaller(createContextInner(server.app.deps, session))];
    }),
  ) as Record<Who, unknown>;
  const procedure = (who: Who, path: string) =>
    path.split(".").reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], callers[who]) as Procedure;

  return async (who: Who, s: Sent): Promise<Answer> => {
    if ("call" in s) {
      try {
        await procedure(who, s.call)(s.input);
        return { statusCode: 200, body: "" };
      } catch (error) {
        if (!(error instanceof TRPCError)) return { statusCode: 500, body: String(error) };
        return {
          statusCode: getHTTPStatusCodeFromError(error),
          body: `${error.code} ${error.message} ${error.cause ? String(error.cause) : ""}`,
          message: error.message,
        };
      }
    }
    const options = {
      method: s.method as "GET",
      url: s.url,
      ...(s.payload === undefined ? {} : { payload: s.payload, headers: { "content-type": "application/json" } }),
    };
    const user = users[who];
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
  };
}

/** A stable seed per target and caller, so one route's failure replays alone with the same inputs. */
function seedOf(label: string): number {
  let h = SEED;
  for (const ch of label) h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
  return h;
}

export interface Checked {
  /** What went wrong, one line per failed route and caller ([] when all held). */
  failures: string[];
  /** Requests sent (shrinking included), refused (4xx) and accepted (below 400). */
  sent: number;
  refused: number;
}

export interface Exercise {
  send(who: Who, s: Sent): Promise<Answer>;
  database: TestServer["database"];
}

/**
 * Tables a refusal writes by design: SmartPit's and the card processor's notifications store every
 * call received with its outcome, refused ones included (decisions 0018, 0046); a wrong phone
 * verification code is counted on the code before it is refused, and a failed SMS voids its code
 * (decision 0048). Nothing else may change.
 */
function recordsOfRefusal(label: string): string[] {
  if (/smartpit\/notify|smartPitNotify|card\/notify|cardNotify/.test(label)) return ["payment_notifications"];
  if (/phone\/confirm|phone\.confirmCode|phone\/code|phone\.requestCode/.test(label))
    return ["phone_verification_codes"];
  return [];
}

/**
 * Sends `runsPerCaller` generated requests per caller to each target. After every request the
 * write guard says which tables changed: any answer ≥ 500 fails, and so does a refusal (4xx)
 * after which a table changed. Accepted requests (a valid-looking profile edit, a paid action)
 * may write. Once per target the full row digest (`databaseFingerprint`) checks the guard itself:
 * when the guard saw no write during the whole target, the rows must be the same, byte for byte.
 */
export async function exercise(targets: Target[], io: Exercise, runs = runsPerCaller): Promise<Checked> {
  const guard: WriteGuard = await createWriteGuard(io.database);
  const result: Checked = { failures: [], sent: 0, refused: 0 };
  let rows = await databaseFingerprint(io.database);
  for (const target of targets) {
    let wrote = false;
    for (const who of CALLERS) {
      const seed = seedOf(`${target.label} ${who}`);
      const details = await fc.check(
        fc.asyncProperty(target.requests(who), async (sent) => {
          let res: Answer | undefined;
          let offContract: unknown;
          try {
            res = await io.send(who, sent);
          } catch (error) {
            // The contract checker throws on an answer the OpenAPI document does not describe.
            offContract = error;
          }
          result.sent += 1;
          const changed = await guard.changed();
          if (changed.length > 0) wrote = true;
          if (!res) {
            const url = "url" in sent ? sent.url : sent.call;
            throw new Error(`answer off contract: ${String(offContract).replaceAll(url, "<url>").slice(0, 400)}`);
          }
          if (res.statusCode >= 500) throw new Error(`${res.statusCode} ${res.body.slice(0, 200)}`);
          if (res.statusCode >= 400) {
            result.refused += 1;
            const message = refusalMessage(res);
            if (!JAPANESE.test(message))
              throw new Error(`refused with ${res.statusCode} without Japanese: ${message.slice(0, 200)}`);
            const unexpected = changed.filter((t) => !recordsOfRefusal(target.label).includes(t));
            if (unexpected.length > 0) {
              throw new Error(`refused with ${res.statusCode} yet ${unexpected.join(", ")} changed`);
            }
          }
        }),
        { seed, numRuns: runs, endOnFailure: false },
      );
      if (details.failed) {
        const counterexample = JSON.stringify(details.counterexample?.[0]).slice(0, 400);
        result.failures.push(
          `${target.label} as ${who} (PROPERTY_SEED=${SEED}, seed ${seed}, path ${details.counterexamplePath}): ${String(details.errorInstance).slice(0, 400)}; request ${counterexample}`,
        );
      }
    }
    // A write that lands after the last answer (work the request left running) is still this target's.
    const late = await guard.changed();
    const after = await databaseFingerprint(io.database);
    if (!wrote && late.length > 0) {
      result.failures.push(`${target.label}: no request wrote, yet ${late.join(", ")} changed after the last answer`);
    } else if (!wrote && after !== rows) {
      result.failures.push(
        `${target.label}: the write guard saw no write, yet ${changedTables(rows, after).join(", ")} changed`,
      );
    }
    rows = after;
  }
  return result;
}

/**
 * One half of the run (a test file of its own, with its own server and database): every target
 * of `kind` gets its generated requests; no answer ≥ 500, every refusal in Japanese and changing nothing.
 */
export function badInputRun(kind: "REST" | "tRPC", targets: Target[], atLeast: number): void {
  // Opening the server on the shared, loaded machine can pass the 10 s default.
  vi.setConfig({ hookTimeout: 120_000 });
  const server = useTestServer();
  let users: Record<Who, RestUser | undefined>;
  beforeAll(async () => {
    users = {
      anonymous: undefined,
      member: await server.createUser({ points: 1000 }),
      admin: await server.createUser({ role: "admin" }),
    };
    // A signed-in request records the caller's activity once every few minutes (members/activity.ts),
    // whatever its answer: a run longer than that (CI under load) saw a refused request write users.
    // The callers' activity is dated ahead, so the refresh never falls inside the run.
    await server.database.db.execute(
      `update users set last_active_at = now() + interval '1 day' where id in ('${users.member?.id}', '${users.admin?.id}')`,
    );
  });
  const unit = kind === "REST" ? "route" : "procedure";
  it(`${kind}: ${RUNS} generated requests per ${unit} (${runsPerCaller} per caller, seed ${SEED}): no answer ≥ 500, every refusal in Japanese and changing nothing`, async () => {
    expect(targets.length).toBeGreaterThan(atLeast);
    const { failures, refused } = await exercise(
      targets.filter((t) => ONLY.test(t.label)),
      { send: sender(server, users), database: server.database },
    );
    expect(failures).toEqual([]);
    // The generators aim at refusals; a run that refused nothing would prove nothing.
    expect(refused).toBeGreaterThan(0);
  }, 1_800_000);
}
