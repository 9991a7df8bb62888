/**
 * `pnpm bench:http`: each hot endpoint against the database's own speed (issue 14), on PostgreSQL.
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
 * 4. For each endpoint: pgbench runs that SQL as one transaction (16 clients, prepared statements)
 *    and autocannon the endpoint (16 connections), BENCH_HTTP_SECONDS each (10 by default). Prints
 *    req/s, p50/p99, the ratio req/s ÷ pgbench TPS and PASS when it is ≥ 60%.
 *
 * BENCH_HTTP_TSX=1 starts the server through tsx instead (the run before the bundled build);
 * WORKERS is passed on when set. Exits 0 whatever the figures; 1 when something breaks.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, existsSync, mkdtempSync, openSync, readSync, rmSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { createDatabase } from "@enmusubi/db";
import autocannon from "autocannon";

const ROOT = path.resolve(import.meta.dirname, "..");
const SERVER_URL = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const MEMBERS = Number(process.env.BENCH_HTTP_MEMBERS ?? 100_000);
const MESSAGES = 100_000;
const POSTS = 20_000;
const SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 10);
const CLIENTS = 16;
const TARGET_RATIO = 0.6;
const PG_LOG = process.env.BENCH_PG_LOG ?? "/var/log/postgresql/postgresql-15-main.log";
const USE_TSX = process.env.BENCH_HTTP_TSX === "1";
const ADMIN = { userID: "benchhttpadmin", password: "bench-http-admin-pass" };
const PORT = 3300 + Math.floor(Math.random() * 200);

const log = (line = "") => process.stdout.write(`${line}\n`);
const memberId = (i: number) => `bm${String(i).padStart(7, "0")}`;

interface Endpoint {
  name: string;
  method: "GET" | "POST";
  path: string;
  token: "reader" | "sender" | "admin" | null;
  body?: Record<string, unknown>;
}

/** Resident memory of a process and its children (the cluster's workers), in MB. */
function rssMb(child: ChildProcess): number {
  const kb = execFileSync("ps", ["-o", "rss=", "--ppid", String(child.pid), "-p", String(child.pid)], {
    encoding: "utf8",
  });
  return (
    kb
      .trim()
      .split(/\s+/)
      .reduce((sum, value) => sum + Number(value), 0) / 1024
  );
}

function startServer(env: Record<string, string>, logFile: string): ChildProcess {
  const out = openSync(logFile, "a");
  const command = USE_TSX
    ? [path.join(ROOT, "apps/server/node_modules/.bin/tsx"), path.join(ROOT, "apps/server/src/main.ts")]
    : [process.execPath, path.join(ROOT, "apps/server/dist/main.mjs")];
  const child = spawn(command[0] as string, command.slice(1), {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", out, out],
    detached: true,
  });
  closeSync(out);
  return child;
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  process.kill(-child.pid, "SIGTERM");
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
  if (child.exitCode === null) process.kill(-child.pid, "SIGKILL");
}

async function waitHealthy(port: number, child: ChildProcess, logFile: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}); see ${logFile}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (res.ok) return;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the server did not answer /healthz within 120 s; see ${logFile}`);
}

async function call(port: number, endpoint: Omit<Endpoint, "name" | "token">, token?: string) {
  const res = await fetch(`http://127.0.0.1:${port}${endpoint.path}`, {
    method: endpoint.method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(endpoint.body ? { "content-type": "application/json" } : {}),
    },
    body: endpoint.body ? JSON.stringify(endpoint.body) : undefined,
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${endpoint.method} ${endpoint.path} answered ${res.status}: ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** Members, ledger, lots, messages and board posts, in set-based statements (as scripts/bench.ts). */
async function seed(sql: (q: string) => Promise<unknown>): Promise<void> {
  const hash = `(select password_hash from users where user_id = '${ADMIN.userID}')`;
  await sql(
    `insert into users (user_id, name, email, password_hash, gender, points, send_points, birthday, address,
       photo_link, verification_status, created_at)
     select 'bm' || lpad(i::text, 7, '0'), '会員' || i, 'bm' || lpad(i::text, 7, '0') || '@bench.example', ${hash},
            (case when i % 2 = 0 then 'female' else 'male' end)::gender,
            case when i <= 2 then 10000000 else 100 + i % 500 end, 20,
            make_date(1980 + i % 25, 1 + i % 12, 1 + i % 28), '東京都',
            case when i % 3 = 0 then '/uploads/bench-' || i || '.jpg' end,
            'verified', now() - (${MEMBERS + 1} - i) * interval '1 second'
     from generate_series(1, ${MEMBERS}) i`,
  );
  for (const account of ["points", "send_points"]) {
    await sql(
      `insert into point_ledger (user_id, account, kind, delta, balance_after)
       select u.id, '${account}', 'initial', u.${account}, u.${account} from users u
       where u.user_id like 'bm%' and u.${account} <> 0`,
    );
  }
  await sql(
    `insert into point_lots (user_id, source, ledger_id, paid, amount, remaining, expires_at)
     select l.user_id, 'initial', l.id, false, l.delta, l.delta, now() + interval '180 days'
     from point_ledger l where l.account = 'points' and l.kind = 'initial' and l.delta > 0`,
  );
  await sql(
    "create temporary table bench_members as select id, row_number() over (order by user_id) as rn from users where user_id like 'bm%'",
  );
  await sql("create unique index on bench_members (rn)");
  await sql(
    `insert into messages (from_user_id, to_user_id, body, is_read, has_reply, created_at)
     select s.id, r.id, 'ベンチのメッセージ ' || g || ' 番目です。', g % 3 = 0, g % 7 = 0,
            now() - (${MESSAGES} - g) * interval '1 second'
     from generate_series(1, ${MESSAGES}) g
     join bench_members s on s.rn = 3 + (g * 7919::bigint) % (${MEMBERS} - 2)
     join bench_members r on r.rn = case when g % 100 = 0 then 1 else 3 + (g * 104729::bigint + 13) % (${MEMBERS} - 2) end
     where s.id <> r.id`,
  );
  await sql(
    `insert into board_posts (author_id, title, content, search_text, created_at)
     select a.id, '掲示板の投稿 ' || g, 'よろしくお願いします ' || g, '掲示板の投稿 ' || g || chr(31) || 'よろしくお願いします ' || g,
            now() - (${POSTS} - g) * interval '1 second'
     from generate_series(1, ${POSTS}) g join bench_members a on a.rn = 3 + (g * 31) % (${MEMBERS} - 2)`,
  );
  await sql("drop table bench_members");
  await sql("analyze");
}

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
    const params = next && next.head.includes(` ${who} `) ? /DETAIL: {2}parameters: (.*)$/.exec(next.head) : null;
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

interface PgbenchResult {
  tps: number;
  latencyMs: number;
  failed: number;
}

function pgbench(url: string, script: string): PgbenchResult {
  const output = execFileSync(
    "pgbench",
    ["-n", "-M", "prepared", "-c", String(CLIENTS), "-j", "2", "-T", String(SECONDS), "-f", script, url],
    { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
  );
  const tps = Number(/tps = ([\d.]+)/.exec(output)?.[1] ?? 0);
  const latencyMs = Number(/latency average = ([\d.]+) ms/.exec(output)?.[1] ?? 0);
  const failed = Number(/number of failed transactions: (\d+)/.exec(output)?.[1] ?? 0);
  return { tps, latencyMs, failed };
}

async function load(port: number, endpoint: Endpoint, token: string | undefined) {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${endpoint.path}`,
    method: endpoint.method,
    connections: CLIENTS,
    duration: SECONDS,
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
  };
}

async function main(): Promise<void> {
  if (!existsSync(PG_LOG)) throw new Error(`cannot read PostgreSQL's log at ${PG_LOG} (set BENCH_PG_LOG)`);
  if (!USE_TSX) execFileSync(process.execPath, [path.join(ROOT, "scripts/build-server.mjs")], { stdio: "inherit" });
  const name = `enmusubi_http_${randomBytes(4).toString("hex")}`;
  const tracer = `enmusubi_trace_${randomBytes(4).toString("hex")}`;
  const admin = await createDatabase({ url: SERVER_URL, max: 1 });
  const adminSql = (q: string) => admin.sql?.unsafe(q) as Promise<unknown>;
  await adminSql(`create database ${name}`);
  await adminSql(`create role ${tracer} superuser login`);
  await adminSql(`alter role ${tracer} set log_statement = 'all'`);
  const dbUrl = new URL(SERVER_URL);
  dbUrl.pathname = `/${name}`;
  const traceUrl = new URL(dbUrl);
  traceUrl.username = tracer;
  traceUrl.password = "";
  const work = mkdtempSync(path.join(tmpdir(), "enmusubi-http-"));
  const baseEnv = {
    NODE_ENV: "production",
    DATA_DIR: path.join(work, "data"),
    JWT_SECRET: randomBytes(32).toString("hex"),
    ADMIN_USERID: ADMIN.userID,
    ADMIN_PASSWORD: ADMIN.password,
    HOST: "127.0.0.1",
  };
  const logFile = path.join(work, "server.log");
  let server: ChildProcess | undefined;
  let trace: ChildProcess | undefined;
  const db = await createDatabase({ url: dbUrl.toString(), max: 1 });
  try {
    log(
      `Server: ${USE_TSX ? "tsx apps/server/src/main.ts" : "node apps/server/dist/main.mjs"}, WORKERS=${process.env.WORKERS ?? "(default)"}; database ${name} (temporary); ${CLIENTS} clients, ${SECONDS} s per run`,
    );
    server = startServer({ ...baseEnv, DATABASE_URL: dbUrl.toString(), PORT: String(PORT) }, logFile);
    await waitHealthy(PORT, server, logFile);
    const t0 = Date.now();
    await seed((q) => db.sql?.unsafe(q) as Promise<unknown>);
    log(
      `Filled: ${MEMBERS.toLocaleString("en")} members, ${MESSAGES.toLocaleString("en")} messages, ${POSTS.toLocaleString("en")} board posts in ${((Date.now() - t0) / 1000).toFixed(0)} s`,
    );

    const login = async (userID: string, password: string) =>
      (await call(PORT, { method: "POST", path: "/api/auth/login", body: { userID, password } })).token as string;
    const tokens = {
      reader: await login(memberId(1), ADMIN.password),
      sender: await login(memberId(2), ADMIN.password),
      admin: await login(ADMIN.userID, ADMIN.password),
    };
    await call(PORT, { method: "POST", path: "/api/board/enter" }, tokens.reader);
    log(
      `Server RSS idle (all its processes): ${rssMb(server).toFixed(0)} MB; load average (1 min): ${loadavg()[0]?.toFixed(1)}`,
    );
    const recipient = (await db.sql?.unsafe(`select id from users where user_id = '${memberId(3)}'`)) as Array<{
      id: string;
    }>;
    const endpoints: Endpoint[] = [
      { name: "GET /api/auth/me", method: "GET", path: "/api/auth/me", token: "reader" },
      { name: "GET /api/point-costs", method: "GET", path: "/api/point-costs", token: null },
      { name: "GET /api/admin/users?page=1", method: "GET", path: "/api/admin/users?page=1", token: "admin" },
      { name: "GET /api/messages/inbox?page=1", method: "GET", path: "/api/messages/inbox?page=1", token: "reader" },
      { name: "GET /api/board?page=1", method: "GET", path: "/api/board?page=1", token: "reader" },
      { name: "GET /api/users/search?page=1", method: "GET", path: "/api/users/search?page=1", token: "reader" },
      {
        name: "POST /api/messages/:id (send)",
        method: "POST",
        path: `/api/messages/${recipient[0]?.id}`,
        token: "sender",
        body: { content: "ベンチマークからのメッセージです。" },
      },
    ];

    // The SQL of each endpoint, from a traced single-worker instance of the same server.
    const tracePort = PORT + 1000;
    trace = startServer(
      {
        ...baseEnv,
        DATABASE_URL: traceUrl.toString(),
        PORT: String(tracePort),
        WORKERS: "1",
        JOBS: "false",
      },
      path.join(work, "trace.log"),
    );
    await waitHealthy(tracePort, trace, path.join(work, "trace.log"));
    const scripts = new Map<string, string>();
    for (const endpoint of endpoints) {
      const token = endpoint.token ? tokens[endpoint.token] : undefined;
      await call(tracePort, endpoint, token); // warm: lazy reads happen once
      await new Promise((resolve) => setTimeout(resolve, 300));
      const offset = statSync(PG_LOG).size;
      await call(tracePort, endpoint, token);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const statements = statementsOf(readFrom(PG_LOG, offset), `${tracer}@${name}`);
      const file = path.join(work, `${scripts.size}.sql`);
      writeFileSync(file, `${statements.map((s) => `${s};`).join("\n")}\n`);
      scripts.set(endpoint.name, file);
      log(`  ${endpoint.name}: ${statements.length} statement(s) (${file})`);
    }
    await stopServer(trace);
    trace = undefined;

    log();
    log(
      `${"endpoint".padEnd(34)} ${"req/s".padStart(8)} ${"p50".padStart(5)} ${"p99".padStart(5)} ${"pgbench TPS".padStart(12)} ${"ratio".padStart(6)}  target ≥ 60%`,
    );
    for (const endpoint of endpoints) {
      const db = pgbench(dbUrl.toString(), scripts.get(endpoint.name) as string);
      const http = await load(PORT, endpoint, endpoint.token ? tokens[endpoint.token] : undefined);
      const ratio = db.tps > 0 ? http.rps / db.tps : 0;
      const ok = ratio >= TARGET_RATIO && http.bad === 0;
      log(
        `${endpoint.name.padEnd(34)} ${http.rps.toFixed(0).padStart(8)} ${`${http.p50}`.padStart(5)} ${`${http.p99}`.padStart(5)} ${db.tps.toFixed(0).padStart(12)} ${`${(ratio * 100).toFixed(0)}%`.padStart(6)}  ${ok ? "PASS" : "FAIL"}${http.bad ? ` (${http.bad} non-2xx/errors)` : ""}${db.failed ? ` (pgbench: ${db.failed} failed)` : ""}`,
      );
    }
    log("(latencies in ms; pgbench: the endpoint's captured SQL as one transaction, prepared, same client count)");
    log(`Server RSS after the runs (all its processes): ${rssMb(server).toFixed(0)} MB`);
    log(`Load average (1 min) at the end: ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} cores`);
  } finally {
    if (trace) await stopServer(trace);
    if (server) await stopServer(server);
    await db.close();
    await adminSql(`drop database if exists ${name} with (force)`);
    await adminSql(`drop role if exists ${tracer}`);
    await admin.close();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
