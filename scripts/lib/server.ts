/**
 * The production server on a temporary PostgreSQL database, filled and signed in: what the HTTP
 * benchmarks (`bench:http`, `bench:soak`) load. The server is started as `pnpm start` does
 * (`node apps/server/dist/main.mjs`, NODE_ENV=production, its default workers and log level, the
 * log written to a file); the database is created on DATABASE_URL's server (default
 * postgres://postgres@127.0.0.1:5432/postgres) and dropped by `close()`.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createDatabase, type Db } from "@enmusubi/db";
import { PRODUCTION_PARTICULARS, PRODUCTION_TEST_SMS } from "../../apps/server/test/legal-env";
import { memberId, openMemberBalances } from "./seed";
import { log } from "./stats";

export const ROOT = path.resolve(import.meta.dirname, "../..");
export const SERVER_URL = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
export const ADMIN = { userID: "benchhttpadmin", password: "bench-http-admin-pass" };

export interface Endpoint {
  name: string;
  method: "GET" | "POST";
  path: string;
  token: "reader" | "sender" | "admin" | null;
  body?: Record<string, unknown>;
}

/**
 * Memory of a process and its children (the cluster's workers), in MB: RSS, which counts the code
 * the processes share once per process, and PSS (proportional set size, /proc/<pid>/smaps_rollup),
 * which splits each shared page between its processes, so the PSS figures add up to what the
 * server as a whole holds.
 */
/** The server's processes: the one started and its children (the workers), primary first. */
export function processTree(child: ChildProcess): number[] {
  return execFileSync("ps", ["-o", "pid=", "--ppid", String(child.pid), "-p", String(child.pid)], {
    encoding: "utf8",
  })
    .trim()
    .split(/\s+/)
    .map(Number);
}

export function memoryOf(child: ChildProcess): { rss: number; pss: number; each: string } {
  const each = processTree(child).map((pid) => {
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(rollup)?.[1] ?? 0);
    return { rss: kb("Rss") / 1024, pss: kb("Pss") / 1024 };
  });
  const sum = (key: "rss" | "pss") => each.reduce((total, process) => total + process[key], 0);
  return {
    rss: sum("rss"),
    pss: sum("pss"),
    each: each.map((process) => `${process.rss.toFixed(0)}/${process.pss.toFixed(0)}`).join(" + "),
  };
}

export const describeMemory = (memory: ReturnType<typeof memoryOf>) =>
  `RSS ${memory.rss.toFixed(0)} MB, PSS ${memory.pss.toFixed(0)} MB (primary first, each RSS/PSS: ${memory.each})`;

export function startServer(env: Record<string, string>, logFile: string, { tsx = false } = {}): ChildProcess {
  const out = openSync(logFile, "a");
  const command = tsx
    ? [path.join(ROOT, "apps/server/node_modules/.bin/tsx"), path.join(ROOT, "apps/server/src/main.ts")]
    : // BENCH_SERVER_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" with WORKERS=1 to profile the server.
      [
        process.execPath,
        ...(process.env.BENCH_SERVER_NODE_ARGS ?? "").split(" ").filter(Boolean),
        path.join(ROOT, "apps/server/dist/main.mjs"),
      ];
  const child = spawn(command[0] as string, command.slice(1), {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", out, out],
    detached: true,
  });
  closeSync(out);
  return child;
}

export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  process.kill(-child.pid, "SIGTERM");
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
  if (child.exitCode === null) process.kill(-child.pid, "SIGKILL");
}

export async function waitHealthy(port: number, child: ChildProcess, logFile: string): Promise<void> {
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

export async function call(port: number, endpoint: Omit<Endpoint, "name" | "token">, token?: string) {
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

export interface Sizes {
  members: number;
  messages: number;
  posts: number;
}

/**
 * Members, their opening balances (through the points module: lib/seed.ts), messages and board
 * posts, in set-based statements.
 */
export async function seed(db: Db, { members, messages, posts }: Sizes): Promise<void> {
  const sql = (q: string) => db.execute(q);
  const hash = `(select password_hash from users where user_id = '${ADMIN.userID}')`;
  await sql(
    `insert into users (user_id, name, email, password_hash, gender, points, send_points, birthday, address,
       photo_link, verification_status, created_at)
     select 'bm' || lpad(i::text, 7, '0'), '会員' || i, 'bm' || lpad(i::text, 7, '0') || '@bench.example', ${hash},
            (case when i % 2 = 0 then 'female' else 'male' end)::gender, 0, 0,
            make_date(1980 + i % 25, 1 + i % 12, 1 + i % 28), '東京都',
            case when i % 3 = 0 then '/uploads/bench-' || i || '.jpg' end,
            'verified', now() - (${members + 1} - i) * interval '1 second'
     from generate_series(1, ${members}) i`,
  );
  // Members 1 and 2 (the reader and the sender) are rich: the sender sends through every run.
  await openMemberBalances(db, "bm", 1, members, (i) => ({
    points: i <= 2 ? 10_000_000 : 100 + (i % 500),
    sendPoints: 20,
  }));
  await sql(
    "create temporary table bench_members as select id, row_number() over (order by user_id) as rn from users where user_id like 'bm%'",
  );
  await sql("create unique index on bench_members (rn)");
  await sql(
    `insert into messages (from_user_id, to_user_id, body, is_read, has_reply, created_at)
     select s.id, r.id, 'ベンチのメッセージ ' || g || ' 番目です。', g % 3 = 0, g % 7 = 0,
            now() - (${messages} - g) * interval '1 second'
     from generate_series(1, ${messages}) g
     join bench_members s on s.rn = 3 + (g * 7919::bigint) % (${members} - 2)
     join bench_members r on r.rn = case when g % 100 = 0 then 1 else 3 + (g * 104729::bigint + 13) % (${members} - 2) end
     where s.id <> r.id`,
  );
  // The seeded messages are history: their new-message notices (one per recipient, about 99,000
  // rows due at once, decision 0033) would keep the notice job busy through every run, every
  // 2 minutes while the seeded members count as on the site and then as 50,000 mails to deliver,
  // and that work was measured as part of whichever endpoint ran then (decision 0037).
  await sql("truncate message_notices");
  await sql(
    `insert into board_posts (author_id, title, content, search_text, created_at)
     select a.id, '掲示板の投稿 ' || g, 'よろしくお願いします ' || g, '掲示板の投稿 ' || g || chr(31) || 'よろしくお願いします ' || g,
            now() - (${posts} - g) * interval '1 second'
     from generate_series(1, ${posts}) g join bench_members a on a.rn = 3 + (g * 31) % (${members} - 2)`,
  );
  await sql("drop table bench_members");
  // Vacuumed too, not only analyzed: a freshly loaded table is otherwise vacuumed by autovacuum
  // during the first runs (taking the cores from them), and index-only scans read the heap until
  // the visibility map is set.
  await sql("vacuum analyze");
  // And written out: the fill leaves about a gigabyte of dirty pages, which the checkpointer
  // otherwise writes (spread over minutes) during the first endpoints' runs, counted as
  // PostgreSQL's CPU per call there (sixth session: /me's 0.13 ms went to 0.15 in one run).
  await sql("checkpoint");
}

export interface Target {
  port: number;
  server: ChildProcess;
  /** The temporary database (one connection) and its URL. */
  db: Awaited<ReturnType<typeof createDatabase>>;
  dbUrl: URL;
  name: string;
  work: string;
  baseEnv: Record<string, string>;
  logFile: string;
  tokens: Record<"reader" | "sender" | "admin", string>;
  /** The hot endpoints: what a member and an administrator call most. */
  endpoints: Endpoint[];
  adminSql(q: string): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * Builds and starts the server on a new temporary database, fills it, signs in the reader (member
 * 1, whose inbox holds 1% of the messages), the sender (member 2, rich) and the administrator, and
 * opens the reader's board window.
 */
export async function startTarget(
  sizes: Sizes,
  { tsx = false, port = 3300 + Math.floor(Math.random() * 200), prefix = "enmusubi_http" } = {},
): Promise<Target> {
  if (!tsx) execFileSync(process.execPath, [path.join(ROOT, "scripts/build-server.mjs")], { stdio: "inherit" });
  const name = `${prefix}_${randomBytes(4).toString("hex")}`;
  const admin = await createDatabase({ url: SERVER_URL, max: 1 });
  const adminSql = (q: string) => admin.sql?.unsafe(q) as Promise<unknown>;
  await adminSql(`create database ${name}`);
  const dbUrl = new URL(SERVER_URL);
  dbUrl.pathname = `/${name}`;
  const work = mkdtempSync(path.join(tmpdir(), "enmusubi-http-"));
  const baseEnv = {
    NODE_ENV: "production",
    ...PRODUCTION_PARTICULARS,
    ...PRODUCTION_TEST_SMS,
    DATA_DIR: path.join(work, "data"),
    JWT_SECRET: randomBytes(32).toString("hex"),
    ADMIN_USERID: ADMIN.userID,
    ADMIN_PASSWORD: ADMIN.password,
    HOST: "127.0.0.1",
  };
  const logFile = path.join(work, "server.log");
  const db = await createDatabase({ url: dbUrl.toString(), max: 1 });
  let server: ChildProcess | undefined;
  const close = async () => {
    if (server) await stopServer(server);
    await db.close();
    // BENCH_KEEP_DB=1 keeps the filled database (its name is printed) to study a plan by hand.
    if (process.env.BENCH_KEEP_DB === "1") log(`Kept database ${name} (BENCH_KEEP_DB=1): drop it when done`);
    else await adminSql(`drop database if exists ${name} with (force)`);
    await admin.close();
    rmSync(work, { recursive: true, force: true });
  };
  try {
    // BENCH_SERVER_DB_PARAMS (e.g. plan_cache_mode=force_custom_plan): connection settings for the
    // server's own sessions only (postgres.js passes a URL's query parameters on as settings).
    const serverUrl = new URL(dbUrl);
    for (const [key, value] of new URLSearchParams(process.env.BENCH_SERVER_DB_PARAMS ?? ""))
      serverUrl.searchParams.set(key, value);
    server = startServer({ ...baseEnv, DATABASE_URL: serverUrl.toString(), PORT: String(port) }, logFile, { tsx });
    await waitHealthy(port, server, logFile);
    const t0 = Date.now();
    await seed(db.db, sizes);
    log(
      `Filled: ${sizes.members.toLocaleString("en")} members, ${sizes.messages.toLocaleString("en")} messages, ${sizes.posts.toLocaleString("en")} board posts in ${((Date.now() - t0) / 1000).toFixed(0)} s`,
    );
    const login = async (userID: string, password: string) =>
      (await call(port, { method: "POST", path: "/api/auth/login", body: { userID, password } })).token as string;
    const tokens = {
      reader: await login(memberId(1), ADMIN.password),
      sender: await login(memberId(2), ADMIN.password),
      admin: await login(ADMIN.userID, ADMIN.password),
    };
    await call(port, { method: "POST", path: "/api/board/enter" }, tokens.reader);
    const recipients = (await db.sql?.unsafe(`select id from users where user_id = '${memberId(3)}'`)) as
      | Array<{ id: string }>
      | undefined;
    const recipient = recipients?.[0];
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
        path: `/api/messages/${recipient?.id}`,
        token: "sender",
        body: { content: "ベンチマークからのメッセージです。" },
      },
    ];
    return { port, server, db, dbUrl, name, work, baseEnv, logFile, tokens, endpoints, adminSql, close };
  } catch (error) {
    await close();
    throw error;
  }
}
