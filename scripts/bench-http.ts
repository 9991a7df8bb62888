/**
 * `pnpm bench:http`: each hot endpoint against the database's own speed (decision 0011), on PostgreSQL.
 *
 * 1. Builds the production server (scripts/build-server.mjs) and starts it as `pnpm start` does
 *    (`node apps/server/dist/main.mjs`, NODE_ENV=production, its default workers and log level, the
 *    log written to a file) on a temporary database created on DATABASE_URL's server (default
 *    postgres://postgres@127.0.0.1:5432/postgres) and dropped afterwards.
 * 2. Fills it with set-based SQL: BENCH_HTTP_MEMBERS members (100,000 by default) with their
 *    opening ledger rows and lots, 100,000 messages (1% to the member whose inbox is read), 20,000
 *    board posts.
 * 3. Captures the SQL each endpoint issues, exactly: one request per endpoint through a second,
 *    single-worker instance of the same server signed in to PostgreSQL as a temporary role with
 *    log_statement=all, read back from the server log (BENCH_PG_LOG, Debian's
 *    /var/log/postgresql/postgresql-15-main.log by default) with the bound parameters written in.
 *    An endpoint answered from memory (the reference lists) runs no SQL after its first call: it is
 *    compared with the SQL that first call ran.
 * 4. For each endpoint: pgbench runs that SQL as one transaction (16 clients, prepared statements)
 *    and autocannon the endpoint (16 connections), BENCH_HTTP_SECONDS each (10 by default), each
 *    after BENCH_HTTP_WARM_SECONDS (3 by default) of the same load that is not counted (the
 *    server's until it has answered BENCH_HTTP_WARM_CALLS calls too, 30 s at most). Prints
 *    req/s, p50/p99 and the ratio req/s ÷ pgbench TPS (for information: on one 2-core machine the
 *    load generator competes with both), then where each call's CPU goes.
 * 5. The HTTP ceiling: node:http alone answering the same load (scripts/http-ceiling.mjs).
 * 6. The targets of decision 0037, each PASS or FAIL, and one verdict line: PostgreSQL's CPU per call
 *    in the HTTP run within 1.15× of pgbench's for the same SQL (every endpoint of the issue's
 *    table); the ratio bound pgbench ÷ (server + pgbench) ≥ 60% on the data endpoints; the
 *    server's CPU per `/api/auth/me` within 6× of the ceiling's per call.
 * 7. The server's memory (RSS and PSS of the primary and each worker) idle and after the runs.
 *
 * BENCH_HTTP_SQL_DIR=<dir> keeps each endpoint's captured SQL there (0.sql, 1.sql… in the table's order).
 * BENCH_HTTP_TSX=1 starts the server through tsx instead (the run before the bundled build);
 * WORKERS is passed on when set. Exits 0 whatever the figures (the verdict line says); 1 when
 * something breaks.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { workersFromEnvironment } from "../apps/server/src/cluster";
import {
  call,
  describeMemory,
  type Endpoint,
  memoryOf,
  processTree,
  SERVER_URL,
  startServer,
  startTarget,
  stopServer,
  waitHealthy,
} from "./lib/server";
import { log } from "./lib/stats";

const MEMBERS = Number(process.env.BENCH_HTTP_MEMBERS ?? 100_000);
const MESSAGES = 100_000;
const POSTS = 20_000;
const SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 10);
/**
 * Uncounted load before each measured run, pgbench's and the server's (BENCH_HTTP_WARM_SECONDS,
 * 3 by default; 0 measures from cold). Without it an endpoint's first seconds include V8
 * compiling its code on background threads: 4–15% of the server's CPU in a 10 s run (perf, decision 0037).
 */
const WARM_SECONDS = Number(process.env.BENCH_HTTP_WARM_SECONDS ?? 3);
/**
 * The server's warm-up also lasts until it has answered BENCH_HTTP_WARM_CALLS calls (5,000 by
 * default), at most WARM_MAX_SECONDS: V8 optimises a function after enough calls, not after
 * enough seconds. On a machine a quarter as fast, 3 s held 470 sends, and V8 was still compiling
 * the send's code through the measured run: a fifth of the server's CPU (`--trace-opt`: 1.5 s of
 * compiling in 8 s after 5 s of warm-up, 0.24 s after 30 s; sixth session).
 */
const WARM_CALLS = Number(process.env.BENCH_HTTP_WARM_CALLS ?? 5000);
const WARM_MAX_SECONDS = 30;
const CLIENTS = 16;
const TARGET_RATIO = 0.6;
/** Decision 0037's targets: PostgreSQL's CPU per call ÷ pgbench's, the ratio bound, /me against the floor. */
const TARGET_DB_OVER_PGBENCH = 1.15;
const TARGET_BOUND = 0.6;
const TARGET_ME_OVER_FLOOR = 6;
/** The endpoints the targets cover (the point costs answer from memory: no SQL to compare). */
const DATA_ENDPOINTS = new Set([
  "GET /api/admin/users?page=1",
  "GET /api/messages/inbox?page=1",
  "GET /api/board?page=1",
  "GET /api/users/search?page=1",
  "POST /api/messages/:id (send)",
]);
const ME = "GET /api/auth/me";
const PG_LOG = process.env.BENCH_PG_LOG ?? "/var/log/postgresql/postgresql-15-main.log";
const USE_TSX = process.env.BENCH_HTTP_TSX === "1";
const CLOCK_TICKS = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;

function readFrom(file: string, offset: number): string {
  const size = statSync(file).size;
  if (size <= offset) return "";
  const buffer = Buffer.alloc(size - offset);
  const fd = openSync(file, "r");
  readSync(fd, buffer, 0, buffer.length, offset);
  closeSync(fd);
  return buffer.toString("utf8");
}

/**
 * The statements `who` (user@database) ran, from log_statement=all lines: simple ones
 * ("statement: …") as they are, extended ones ("execute <name>: …" then "DETAIL:  parameters:
 * $1 = '…'") with their parameters written in as literals.
 */
export function statementsOf(logText: string, who: string): string[] {
  const entries: Array<{ head: string; body: string[] }> = [];
  for (const line of logText.split("\n")) {
    if (/^\d{4}-\d\d-\d\d /.test(line)) entries.push({ head: line, body: [] });
    else if (line.startsWith("\t")) entries.at(-1)?.body.push(line.slice(1));
  }
  const out: string[] = [];
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as { head: string; body: string[] };
    if (!entry.head.includes(` ${who} `)) continue;
    const m = /(?:LOG: {2}statement: |LOG: {2}execute [^:]*: )(.*)$/.exec(entry.head);
    if (!m) continue;
    let text = [m[1], ...entry.body].join("\n");
    const next = entries[i + 1];
    const params = next?.head.includes(` ${who} `) ? /DETAIL: {2}parameters: (.*)$/.exec(next.head) : null;
    if (params) {
      const values = new Map<string, string>();
      const detail = [params[1], ...(next?.body ?? [])].join("\n");
      for (const p of detail.matchAll(/\$(\d+) = (NULL|'(?:[^']|'')*')/g)) values.set(p[1] as string, p[2] as string);
      text = text.replace(/\$(\d+)\b/g, (all, n: string) => values.get(n) ?? all);
    }
    out.push(text.trim().replace(/;$/, ""));
  }
  return out;
}

/**
 * A captured statement as pgbench can run it again and again: an INSERT that gives its rows' ids
 * (the server makes a message's id before its insert, so the charge can follow in the same write)
 * gets a new id per row from `gen_random_uuid()`, as a second call of the endpoint would; replayed
 * as captured, every transaction after the first would fail on the primary key.
 */
export function replayable(statement: string): string {
  if (!/^insert into "\w+" \("id",/.test(statement)) return statement;
  return statement.replace(
    /\(\s*'[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'/g,
    "(gen_random_uuid()",
  );
}

interface PgbenchResult {
  tps: number;
  latencyMs: number;
  failed: number;
  calls: number;
}

function pgbench(url: string, script: string, seconds = SECONDS): PgbenchResult {
  const output = execFileSync(
    "pgbench",
    ["-n", "-M", "prepared", "-c", String(CLIENTS), "-j", "2", "-T", String(seconds), "-f", script, url],
    { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
  );
  const tps = Number(/tps = ([\d.]+)/.exec(output)?.[1] ?? 0);
  const latencyMs = Number(/latency average = ([\d.]+) ms/.exec(output)?.[1] ?? 0);
  const failed = Number(/number of failed transactions: (\d+)/.exec(output)?.[1] ?? 0);
  const calls = Number(/number of transactions actually processed: (\d+)/.exec(output)?.[1] ?? 0);
  return { tps, latencyMs, failed, calls };
}

/** The machine's busy CPU time so far, in seconds (all cores; /proc/stat less idle and iowait). */
function machineBusySeconds(): number {
  const fields = (readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "").trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((sum, n) => sum + n, 0);
  return (total - (fields[3] ?? 0) - (fields[4] ?? 0)) / CLOCK_TICKS;
}

/** CPU time (user + system, seconds) each of `pids` has used so far; an ended one is left out. */
function cpuSecondsOf(pids: number[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const pid of pids) {
    try {
      // Fields after the command's closing parenthesis: state is the 3rd, utime the 14th, stime the 15th.
      const after = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
      out.set(pid, (Number(after[11]) + Number(after[12])) / CLOCK_TICKS);
    } catch {
      // ended meanwhile
    }
  }
  return out;
}

const sumOf = (cpu: Map<number, number>) => [...cpu.values()].reduce((sum, seconds) => sum + seconds, 0);

/** The PostgreSQL server's processes (postmaster, backends, background workers). */
function postgresPids(): number[] {
  try {
    return execFileSync("pgrep", ["-x", "postgres"], { encoding: "utf8" }).trim().split(/\s+/).map(Number);
  } catch {
    return [];
  }
}

/** CPU PostgreSQL's processes used between two readings (a process started meanwhile counts whole). */
function postgresCpuSince(before: Map<number, number>): number {
  const now = cpuSecondsOf(postgresPids());
  let total = 0;
  for (const [pid, seconds] of now) total += seconds - (before.get(pid) ?? 0);
  return total;
}

/**
 * Where one call's CPU goes while `run` loads the machine: the machine's busy time, the server's
 * and this process's (the load generator runs in it) per completed call, in ms. The rest of the
 * machine's time is PostgreSQL's (and whatever else runs: the load average is printed).
 */
async function cpuPerCall<T extends { calls: number }>(
  server: ChildProcess | undefined,
  run: () => Promise<T> | T,
): Promise<T & { cpu: { machine: number; server: number; client: number; db: number } }> {
  const machine0 = machineBusySeconds();
  const server0 = server ? sumOf(cpuSecondsOf(processTree(server))) : 0;
  const db0 = cpuSecondsOf(postgresPids());
  const client0 = process.cpuUsage();
  const result = await run();
  const client = process.cpuUsage(client0);
  const db = postgresCpuSince(db0);
  const per = (seconds: number) => (result.calls > 0 ? (seconds * 1000) / result.calls : 0);
  return {
    ...result,
    cpu: {
      machine: per(machineBusySeconds() - machine0),
      server: per(server ? sumOf(cpuSecondsOf(processTree(server))) - server0 : 0),
      client: per((client.user + client.system) / 1e6),
      // PostgreSQL's backends for the server's pool live through the run; pgbench's end with it,
      // so this reading is only printed for the HTTP runs.
      db: per(db),
    },
  };
}

async function load(port: number, endpoint: Endpoint, token: string | undefined, seconds = SECONDS) {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${endpoint.path}`,
    method: endpoint.method,
    connections: CLIENTS,
    duration: seconds,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(endpoint.body ? { "content-type": "application/json" } : {}),
    },
    body: endpoint.body ? JSON.stringify(endpoint.body) : undefined,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bad: result.non2xx + result.errors + result.timeouts,
    calls: result.requests.total,
  };
}

/** WARM_SECONDS of load, then more until WARM_CALLS calls were answered (WARM_MAX_SECONDS in all at most). */
async function warmUp(port: number, endpoint: Endpoint, token: string | undefined) {
  const first = await load(port, endpoint, token, WARM_SECONDS);
  const rate = first.calls / WARM_SECONDS;
  if (first.calls >= WARM_CALLS || rate <= 0) return;
  const more = Math.min(WARM_MAX_SECONDS - WARM_SECONDS, Math.ceil((WARM_CALLS - first.calls) / rate));
  if (more > 0) await load(port, endpoint, token, more);
}

function cpuLine(
  name: string,
  pgbenchMs: number,
  http: { machine: number; server: number; client: number; db: number },
): string {
  const rest = Math.max(0, http.machine - http.server - http.client - http.db);
  const bound = pgbenchMs / (http.server + pgbenchMs);
  const f = (ms: number, width: number) => ms.toFixed(3).padStart(width);
  return `${name.padEnd(34)} ${f(pgbenchMs, 8)} ${f(http.machine, 8)} ${f(http.server, 7)} ${f(http.db, 8)} ${f(http.client, 7)} ${f(rest, 7)}  ${`${(bound * 100).toFixed(0)}%`.padStart(5)}`;
}

/**
 * The same load against node:http alone (scripts/http-ceiling.mjs, as many workers as the server)
 * answering the point costs' very bytes: what any Node server answers at most on these cores.
 */
async function httpCeiling(
  target: Awaited<ReturnType<typeof startTarget>>,
  pgbenchTps: Map<string, number>,
): Promise<number | undefined> {
  const costs = target.endpoints.find((e) => e.path === "/api/point-costs");
  if (!costs) return undefined;
  const res = await fetch(`http://127.0.0.1:${target.port}${costs.path}`);
  const bodyFile = path.join(target.work, "ceiling-body");
  writeFileSync(bodyFile, Buffer.from(await res.arrayBuffer()));
  const port = target.port + 2000;
  // As many workers as the server runs (its default, or WORKERS).
  const workers = String(workersFromEnvironment({ ...process.env, DATABASE_URL: target.dbUrl.toString() }));
  const ceiling = spawn(
    process.execPath,
    [
      path.join(import.meta.dirname, "http-ceiling.mjs"),
      String(port),
      workers,
      res.headers.get("content-type") ?? "application/json",
      bodyFile,
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  try {
    await new Promise<void>((resolve, reject) => {
      ceiling.stdout?.on("data", (chunk: Buffer) => chunk.toString().includes("listening") && resolve());
      ceiling.on("exit", (code) => reject(new Error(`the ceiling server exited (${code})`)));
    });
    const result = await cpuPerCall(ceiling, () => load(port, { ...costs, name: "ceiling" }, undefined));
    log();
    log(
      `HTTP ceiling (node:http alone, ${workers} worker${workers === "1" ? "" : "s"}, the point costs' ${statSync(bodyFile).size} bytes): ${result.rps.toFixed(0)} req/s, p50 ${result.p50} p99 ${result.p99} ms; CPU per call: machine ${result.cpu.machine.toFixed(3)} ms, server ${result.cpu.server.toFixed(3)}, client ${result.cpu.client.toFixed(3)}`,
    );
    for (const [name, tps] of pgbenchTps) {
      const needed = tps * TARGET_RATIO;
      if (needed > result.rps)
        log(
          `  ${name}: 60% of pgbench is ${needed.toFixed(0)} req/s, above this ceiling: out of reach for any Node server here`,
        );
    }
    return result.cpu.server;
  } finally {
    ceiling.kill("SIGTERM");
  }
}

/** Decision 0037's targets, each PASS or FAIL, and the verdict (done when every line passes). */
function verdict(
  figures: Map<string, { pgbench: number; server: number; db: number }>,
  floor: number | undefined,
  broken: string[],
) {
  const lines: Array<{ text: string; ok: boolean }> = [];
  const add = (text: string, ok: boolean) => lines.push({ text, ok });
  for (const name of broken) add(`${name.padEnd(34)} answered every call 2xx, pgbench without failures`, false);
  for (const [name, f] of figures) {
    if (name !== ME && !DATA_ENDPOINTS.has(name)) continue;
    const over = f.pgbench > 0 ? f.db / f.pgbench : Number.POSITIVE_INFINITY;
    add(
      `${name.padEnd(34)} postgres ÷ pgbench ${f.db.toFixed(3)} ÷ ${f.pgbench.toFixed(3)} = ${over.toFixed(2)}× (≤ ${TARGET_DB_OVER_PGBENCH}×)`,
      over <= TARGET_DB_OVER_PGBENCH,
    );
    if (DATA_ENDPOINTS.has(name)) {
      const bound = f.pgbench / (f.server + f.pgbench);
      add(
        `${name.padEnd(34)} ratio bound ${f.pgbench.toFixed(3)} ÷ (${f.server.toFixed(3)} + ${f.pgbench.toFixed(3)}) = ${(bound * 100).toFixed(0)}% (≥ ${TARGET_BOUND * 100}%)`,
        bound >= TARGET_BOUND,
      );
    }
    if (name === ME) {
      const times = floor ? f.server / floor : Number.POSITIVE_INFINITY;
      add(
        `${name.padEnd(34)} server ÷ node:http floor ${f.server.toFixed(3)} ÷ ${floor?.toFixed(3) ?? "?"} = ${times.toFixed(1)}× (≤ ${TARGET_ME_OVER_FLOOR}×)`,
        times <= TARGET_ME_OVER_FLOOR,
      );
    }
  }
  log();
  log("Targets (decision 0037; /login's JavaScript is measured by pnpm bench:web):");
  for (const line of lines) log(`  ${line.ok ? "PASS" : "FAIL"}  ${line.text}`);
  const failed = lines.filter((line) => !line.ok).length;
  log(
    failed === 0
      ? `bench:http: PASS, all ${lines.length} targets met`
      : `bench:http: FAIL, ${failed} of ${lines.length} targets missed`,
  );
}

async function main(): Promise<void> {
  if (!existsSync(PG_LOG)) throw new Error(`cannot read PostgreSQL's log at ${PG_LOG} (set BENCH_PG_LOG)`);
  log(
    `Server: ${USE_TSX ? "tsx apps/server/src/main.ts" : "node apps/server/dist/main.mjs"}, WORKERS=${process.env.WORKERS ?? `(default: ${workersFromEnvironment({ ...process.env, DATABASE_URL: SERVER_URL })})`}; ${CLIENTS} clients, ${SECONDS} s per run after ${WARM_SECONDS} s uncounted (and ${WARM_CALLS} calls)`,
  );
  const target = await startTarget({ members: MEMBERS, messages: MESSAGES, posts: POSTS }, { tsx: USE_TSX });
  const tracer = `enmusubi_trace_${randomBytes(4).toString("hex")}`;
  let trace: ChildProcess | undefined;
  try {
    log(`Database ${target.name} (temporary)`);
    await target.adminSql(`create role ${tracer} superuser login`);
    await target.adminSql(`alter role ${tracer} set log_statement = 'all'`);
    const traceUrl = new URL(target.dbUrl);
    traceUrl.username = tracer;
    traceUrl.password = "";
    const { tokens, endpoints } = target;
    // Idle once the first requests have loaded what they load lazily.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    log(`Server memory idle (all its processes): ${describeMemory(memoryOf(target.server))}`);
    log(`Load average (1 min): ${loadavg()[0]?.toFixed(1)}`);

    // The SQL of each endpoint, from a traced single-worker instance of the same server.
    const tracePort = target.port + 1000;
    trace = startServer(
      {
        ...target.baseEnv,
        DATABASE_URL: traceUrl.toString(),
        PORT: String(tracePort),
        WORKERS: "1",
        JOBS: "false",
      },
      path.join(target.work, "trace.log"),
    );
    await waitHealthy(tracePort, trace, path.join(target.work, "trace.log"));
    const scripts = new Map<string, string>();
    const fromMemory = new Set<string>();
    for (const endpoint of endpoints) {
      const token = endpoint.token ? tokens[endpoint.token] : undefined;
      const who = `${tracer}@${target.name}`;
      const warmOffset = statSync(PG_LOG).size;
      await call(tracePort, endpoint, token); // warm: lazy reads happen once
      await new Promise((resolve) => setTimeout(resolve, 300));
      const warm = statementsOf(readFrom(PG_LOG, warmOffset), who);
      const offset = statSync(PG_LOG).size;
      await call(tracePort, endpoint, token);
      await new Promise((resolve) => setTimeout(resolve, 500));
      let statements = statementsOf(readFrom(PG_LOG, offset), who);
      // Answered from memory (a reference list): the database's own speed is that of the SQL
      // the first call ran to fill the copy, so pgbench runs that.
      if (statements.length === 0 && warm.length > 0) {
        statements = warm;
        fromMemory.add(endpoint.name);
      }
      const file = path.join(process.env.BENCH_HTTP_SQL_DIR ?? target.work, `${scripts.size}.sql`);
      writeFileSync(file, `${statements.map((s) => `${replayable(s)};`).join("\n")}\n`);
      scripts.set(endpoint.name, file);
      log(
        fromMemory.has(endpoint.name)
          ? `  ${endpoint.name}: 0 statements (from memory); pgbench runs the ${statements.length} its first call ran (${file})`
          : `  ${endpoint.name}: ${statements.length} statement(s) (${file})`,
      );
    }
    await stopServer(trace);
    trace = undefined;

    log();
    log(
      `${"endpoint".padEnd(34)} ${"req/s".padStart(8)} ${"p50".padStart(5)} ${"p99".padStart(5)} ${"pgbench TPS".padStart(12)} ${"ratio".padStart(6)}`,
    );
    const cpuLines: string[] = [];
    const figures = new Map<string, { pgbench: number; server: number; db: number }>();
    /** Endpoints whose run had refusals or errors: their figures do not count. */
    const broken: string[] = [];
    const pgbenchTps = new Map<string, number>();
    for (const endpoint of endpoints) {
      // Both sides first run WARM_SECONDS uncounted: the figures are a long-running server's (its
      // JIT has compiled the endpoint's code) against PostgreSQL's with its caches filled.
      if (WARM_SECONDS > 0) {
        pgbench(target.dbUrl.toString(), scripts.get(endpoint.name) as string, WARM_SECONDS);
        await warmUp(target.port, endpoint, endpoint.token ? tokens[endpoint.token] : undefined);
      }
      const db = await cpuPerCall(undefined, () =>
        pgbench(target.dbUrl.toString(), scripts.get(endpoint.name) as string),
      );
      const http = await cpuPerCall(target.server, () =>
        load(target.port, endpoint, endpoint.token ? tokens[endpoint.token] : undefined),
      );
      const ratio = db.tps > 0 ? http.rps / db.tps : 0;
      if (http.bad > 0 || db.failed > 0) broken.push(endpoint.name);
      log(
        `${endpoint.name.padEnd(34)} ${http.rps.toFixed(0).padStart(8)} ${`${http.p50}`.padStart(5)} ${`${http.p99}`.padStart(5)} ${db.tps.toFixed(0).padStart(12)} ${`${(ratio * 100).toFixed(0)}%`.padStart(6)}${http.bad ? ` (${http.bad} non-2xx/errors)` : ""}${db.failed ? ` (pgbench: ${db.failed} failed)` : ""}`,
      );
      cpuLines.push(cpuLine(endpoint.name, db.cpu.machine, http.cpu));
      figures.set(endpoint.name, { pgbench: db.cpu.machine, server: http.cpu.server, db: http.cpu.db });
      pgbenchTps.set(endpoint.name, db.tps);
    }
    log("(latencies in ms; pgbench: the endpoint's captured SQL as one transaction, prepared, same client count;");
    log(" ratio = req/s ÷ pgbench TPS, for information: the load generator shares the cores with both)");
    log();
    log("CPU per call, ms. pgbench: every core's busy time ÷ transactions in the pgbench run. In the HTTP run:");
    log(" machine (the same), server (its processes), postgres (PostgreSQL's processes), client (the load generator),");
    log(" rest (the machine's other time: the kernel's own work, anything else running):");
    log(
      `${"endpoint".padEnd(34)} ${"pgbench".padStart(8)} ${"machine".padStart(8)} ${"server".padStart(7)} ${"postgres".padStart(8)} ${"client".padStart(7)} ${"rest".padStart(7)}  ratio bound`,
    );
    for (const line of cpuLines) log(line);
    log("(Ratio bound = pgbench ÷ (server + pgbench): the ratio the endpoint could reach if its load generator ran on");
    log(
      " another machine and nothing but the server's own CPU were added to PostgreSQL's, both runs keeping the cores busy.)",
    );
    const floor = await httpCeiling(target, pgbenchTps);
    verdict(figures, floor, broken);
    log(`Server memory after the runs (all its processes): ${describeMemory(memoryOf(target.server))}`);
    log(`Load average (1 min) at the end: ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} cores`);
  } finally {
    if (trace) await stopServer(trace);
    await target.adminSql(`drop role if exists ${tracer}`).catch(() => {});
    await target.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
