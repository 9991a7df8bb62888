import { performance } from "node:perf_hooks";
import { MEMBER_PASSWORD } from "../lib/seed";
import { log, summarize } from "../lib/stats";
import { type App, BENCH_ADMIN, query } from "../lib/target";

/** Sizes and settings of `pnpm bench` (run.ts describes them), shared by its scenarios. */
export const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 1_000_000);
export const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 1_000_000);
export const SCHEDULED = Number(process.env.BENCH_SCHEDULED ?? 10_000);
export const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const WARMUP = 3;
/** The size the scale comparison starts from (members and messages). */
export const SMALL = 10_000;
export const SCALE_FLOOR_MS = 5;
export const PAGE_SIZE = 50;

/**
 * p95 targets in milliseconds (admin screens interactive with 100,000 members; a login bounded by
 * argon2id at its production cost) and the RSS target in MB. With PGlite the database's WASM heap
 * lives in this process, so RSS includes it.
 */
export const TARGETS = {
  list: 200,
  search: 200,
  login: 500,
  pointCosts: 50,
  /** A member's mailbox page and the admin email-management page (spec §9: 50 rows by default). */
  inbox: 200,
  adminMessages: 300,
  rssMb: 1024,
  /** Spec: 10,000 scheduled messages due at once all sent by two instances, each exactly once. */
  scheduledMs: 10_000,
};

export interface Result {
  name: string;
  median: number;
  p95: number;
  target: number;
}

export interface InjectOptions {
  method: "GET" | "POST";
  url: string;
  headers?: Record<string, string>;
  payload?: Record<string, unknown>;
  remoteAddress?: string;
}

export type Phase = "small" | "large";
export type Headers = Record<string, string>;

/** Times `RUNS` calls after `WARMUP` untimed ones; every answer must have the expected status. */
export async function time(
  app: App,
  name: string,
  target: number,
  request: (run: number) => InjectOptions,
  check?: (body: string) => void,
  status = 200,
): Promise<Result> {
  const samples: number[] = [];
  for (let run = 0; run < WARMUP + RUNS; run++) {
    const started = performance.now();
    const response = await app.inject(request(run));
    const elapsed = performance.now() - started;
    if (response.statusCode !== status) {
      throw new Error(`${name}: expected ${status}, got ${response.statusCode}: ${response.body.slice(0, 300)}`);
    }
    if (run === 0) check?.(response.body);
    if (run >= WARMUP) samples.push(elapsed);
  }
  const result = { name, ...summarize(samples), target };
  log(`  ${name}: median ${result.median.toFixed(1)} ms, p95 ${result.p95.toFixed(1)} ms`);
  return result;
}

/** The run's app and what every scenario does with it: sign in, ask, record a result per phase. */
export interface Bench {
  app: App;
  adminLogin(): Promise<Headers>;
  login(userID: string): Promise<Headers>;
  /** Results timed at both sizes, by call: the scale table compares them. */
  scaled: Map<string, { small?: Result; large?: Result }>;
  record(phase: Phase, result: Result): Result;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export function benchOf(app: App): Bench {
  const scaled = new Map<string, { small?: Result; large?: Result }>();
  return {
    app,
    scaled,
    async adminLogin() {
      const res = await app.inject({ method: "POST", url: "/api/auth/login", payload: BENCH_ADMIN });
      if (res.statusCode !== 200) throw new Error(`admin login failed: ${res.body}`);
      return bearer(res.json<{ token: string }>().token);
    },
    async login(userID) {
      const res = await app.inject({
        method: "POST",
        url: "/api/auth/login",
        payload: { userID, password: MEMBER_PASSWORD },
        remoteAddress: "10.88.0.1",
      });
      if (res.statusCode !== 200) throw new Error(`member login failed: ${res.body}`);
      return bearer(res.json<{ token: string }>().token);
    },
    record(phase, result) {
      const entry = scaled.get(result.name) ?? {};
      entry[phase] = result;
      scaled.set(result.name, entry);
      return result;
    },
  };
}

/** A GET request as `time` takes it. */
export const get = (url: string, headers: Headers) => () => ({ method: "GET" as const, url, headers });

/** Prints EXPLAIN (ANALYZE, BUFFERS) of each statement. */
export async function explain(app: App, statements: Array<[string, string]>): Promise<void> {
  for (const [label, statement] of statements) {
    log();
    log(`EXPLAIN ${label}:`);
    for (const row of await query(app, `explain (analyze, buffers, costs off) ${statement}`)) {
      log(`  ${Object.values(row)[0]}`);
    }
  }
}
