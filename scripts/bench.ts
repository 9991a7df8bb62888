/**
 * `pnpm bench`: performance of the calls that must stay fast with a large membership.
 *
 * Builds the real app (buildApp, logger and jobs off) on a fresh database: embedded PGlite in a
 * temporary DATA_DIR, or, when DATABASE_URL is set, a temporary database created on that
 * PostgreSQL server and dropped afterwards (your data is never touched). Seeds BENCH_MEMBERS
 * members (100,000 by default) with multi-row INSERTs and one precomputed password hash, then
 * times each call with app.inject and compares the p95 with its target.
 *
 * Exits 0 whatever the figures (PASS/FAIL is printed per line); 1 only when something breaks.
 * Environment: BENCH_MEMBERS, BENCH_RUNS (default 30), DATABASE_URL.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createDatabase, users } from "@enmusubi/db";
import { PREFECTURES } from "@enmusubi/shared";
import { buildApp } from "../apps/server/src/app";
import { type Config, loadConfig } from "../apps/server/src/config";

const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const WARMUP = 3;
const BATCH = 1000;
const PAGE_SIZE = 50;
const MEMBER_PASSWORD = "bench-pass-1234";
const ADMIN = { userID: "benchadmin", password: "bench-admin-pass" };

/**
 * p95 targets in milliseconds (admin screens interactive with 100,000 members; a login bounded by
 * argon2id at its production cost) and the RSS target in MB. With PGlite the database's WASM heap
 * lives in this process, so RSS includes it.
 */
const TARGETS = {
  list: 200,
  search: 200,
  login: 500,
  pointCosts: 50,
  rssMb: 1024,
};

const SURNAMES = ["佐藤", "鈴木", "高橋", "田中", "伊藤", "渡辺", "山本", "中村", "小林", "加藤", "吉田", "山田"];
const GIVEN_MALE = ["健太", "翔太", "大輔", "拓也", "直樹", "亮", "和也", "悠斗", "誠", "蓮"];
const GIVEN_FEMALE = ["美咲", "愛", "彩花", "優子", "さくら", "由美", "真由", "結衣", "葵", "陽菜"];

/** The app as buildApp returns it (the root package does not depend on fastify itself). */
type App = Awaited<ReturnType<typeof buildApp>>;
interface InjectOptions {
  method: "GET" | "POST";
  url: string;
  headers?: Record<string, string>;
  payload?: Record<string, unknown>;
  remoteAddress?: string;
}

const log = (line = "") => process.stdout.write(`${line}\n`);
const memberId = (i: number) => `bm${String(i).padStart(6, "0")}`;
const rssMb = () => process.memoryUsage().rss / 1024 / 1024;

interface Target {
  config: Config;
  cleanup(): Promise<void>;
  description: string;
}

/** A fresh, empty place for the benchmark database. */
async function prepareTarget(): Promise<Target> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "enmusubi-bench-"));
  const base = {
    NODE_ENV: "production",
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(32).toString("hex"),
    ADMIN_USERID: ADMIN.userID,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: "silent",
  };
  const url = process.env.DATABASE_URL;
  if (!url) {
    return {
      config: { ...loadConfig(base), jobs: false },
      description: `PGlite in ${dataDir}`,
      cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `enmusubi_bench_${randomBytes(4).toString("hex")}`;
  const server = await createDatabase({ url, max: 1 });
  await server.sql?.unsafe(`create database ${name}`);
  const benchUrl = new URL(url);
  benchUrl.pathname = `/${name}`;
  return {
    config: { ...loadConfig({ ...base, DATABASE_URL: benchUrl.toString() }), jobs: false },
    description: `PostgreSQL database ${name} on ${benchUrl.host} (temporary)`,
    cleanup: async () => {
      await server.sql?.unsafe(`drop database if exists ${name} with (force)`);
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Members in multi-row INSERTs of BATCH rows, each with its opening ledger rows. */
async function seedMembers(app: App): Promise<void> {
  const db = app.database.db;
  const passwordHash = await app.deps.passwords.hash(MEMBER_PASSWORD);
  const now = Date.now();
  for (let start = 1; start <= MEMBERS; start += BATCH) {
    const rows: Array<typeof users.$inferInsert> = [];
    for (let i = start; i < Math.min(start + BATCH, MEMBERS + 1); i++) {
      const gender = i % 2 === 0 ? "female" : "male";
      const given = gender === "male" ? GIVEN_MALE : GIVEN_FEMALE;
      const userId = memberId(i);
      rows.push({
        userId,
        name: `${SURNAMES[i % SURNAMES.length]} ${given[(i >> 1) % given.length]}`,
        email: `${userId}@bench.example`,
        passwordHash,
        gender,
        points: 100 + (i % 500),
        sendPoints: 20,
        birthday: `${1980 + (i % 25)}-${String((i % 12) + 1).padStart(2, "0")}-${String((i % 28) + 1).padStart(2, "0")}`,
        address: PREFECTURES[i % PREFECTURES.length],
        // One a second, newest last, like real sign-ups.
        createdAt: new Date(now - (MEMBERS - i + 1) * 1000),
      });
    }
    await db.insert(users).values(rows);
    const done = Math.min(start + BATCH - 1, MEMBERS);
    if (done % 20_000 === 0 && done < MEMBERS) log(`  … ${done.toLocaleString("en")} members`);
  }
  // Opening ledger rows for every balance (sum of the ledger = balance), in one statement per account.
  for (const [account, column] of [
    ["points", "points"],
    ["send_points", "send_points"],
  ] as const) {
    await db.execute(
      `insert into point_ledger (user_id, account, kind, delta, balance_after)
       select id, '${account}', 'initial', ${column}, ${column} from users where user_id like 'bm%' and ${column} <> 0`,
    );
  }
  // Fresh statistics, as autovacuum would have gathered on a live server.
  await db.execute("analyze");
}

interface Result {
  name: string;
  median: number;
  p95: number;
  target: number;
}

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

/** Times `RUNS` calls after `WARMUP` untimed ones; every answer must have the expected status. */
async function time(
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
  samples.sort((a, b) => a - b);
  return { name, median: percentile(samples, 50), p95: percentile(samples, 95), target };
}

async function main() {
  const totalStarted = performance.now();
  const target = await prepareTarget();
  let app: App | undefined;
  try {
    log(`Enmusubi benchmark: ${MEMBERS.toLocaleString("en")} members, ${RUNS} timed runs per call`);
    log(`Database: ${target.description}`);
    let started = performance.now();
    app = await buildApp(target.config, { logger: false });
    await app.ready();
    const rssAfterBuild = rssMb();
    log(
      `App built (migrations, reference data, first admin) in ${(performance.now() - started).toFixed(0)} ms; RSS ${rssAfterBuild.toFixed(0)} MB`,
    );

    started = performance.now();
    await seedMembers(app);
    const seedSeconds = (performance.now() - started) / 1000;
    log(`Seeded ${MEMBERS.toLocaleString("en")} members and their ledger in ${seedSeconds.toFixed(1)} s`);
    const rssAfterSeed = rssMb();

    const adminLogin = await app.inject({ method: "POST", url: "/api/auth/login", payload: ADMIN });
    if (adminLogin.statusCode !== 200) throw new Error(`admin login failed: ${adminLogin.body}`);
    const auth = { authorization: `Bearer ${adminLogin.json<{ token: string }>().token}` };
    const lastPage = Math.ceil((MEMBERS + 1) / PAGE_SIZE);
    const list = (query: string) => ({ method: "GET" as const, url: `/api/admin/users?${query}`, headers: auth });
    const expectRows = (count: number, first?: string) => (body: string) => {
      const rows = JSON.parse(body) as Array<{ userID: string }>;
      if (rows.length !== count) throw new Error(`expected ${count} rows, got ${rows.length}`);
      if (first && rows[0]?.userID !== first) throw new Error(`expected ${first} first, got ${rows[0]?.userID}`);
    };

    const results: Result[] = [];
    results.push(
      await time(
        app,
        "GET /api/admin/users page 1 (limit 50)",
        TARGETS.list,
        () => list(`page=1&limit=${PAGE_SIZE}`),
        expectRows(PAGE_SIZE),
      ),
    );
    const probe = memberId(Math.ceil(MEMBERS / 2));
    results.push(
      await time(
        app,
        `GET /api/admin/users userID search (${probe})`,
        TARGETS.search,
        () => list(`field=userID&search=${probe}`),
        expectRows(1, probe),
      ),
    );
    results.push(
      await time(
        app,
        "GET /api/admin/users gender search (female, page 1)",
        TARGETS.search,
        () => list(`field=gender&search=female&page=1&limit=${PAGE_SIZE}`),
        expectRows(PAGE_SIZE),
      ),
    );
    results.push(
      await time(
        app,
        `GET /api/admin/users last page (page ${lastPage})`,
        TARGETS.list,
        () => list(`page=${lastPage}&limit=${PAGE_SIZE}`),
        expectRows((MEMBERS + 1) % PAGE_SIZE || PAGE_SIZE),
      ),
    );
    // Each simulated client logs in from its own address, so the per-IP login limit stays realistic.
    results.push(
      await time(app, "POST /api/auth/login (argon2id, production cost)", TARGETS.login, (run) => ({
        method: "POST",
        url: "/api/auth/login",
        payload: { userID: memberId(1 + ((run * 7919) % MEMBERS)), password: MEMBER_PASSWORD },
        remoteAddress: `10.77.${run >> 8}.${run & 255}`,
      })),
    );
    results.push(
      await time(app, "GET /api/point-costs", TARGETS.pointCosts, () => ({ method: "GET", url: "/api/point-costs" })),
    );

    const rss = rssMb();
    log();
    log(`${"call".padEnd(56)} ${"median".padStart(9)} ${"p95".padStart(9)}  target p95`);
    for (const r of results) {
      const verdict = r.p95 < r.target ? "PASS" : "FAIL";
      log(
        `${r.name.padEnd(56)} ${`${r.median.toFixed(1)} ms`.padStart(9)} ${`${r.p95.toFixed(1)} ms`.padStart(9)}  < ${r.target} ms  ${verdict}`,
      );
    }
    log(
      `${"process RSS after the calls".padEnd(56)} ${`${rss.toFixed(0)} MB`.padStart(19)}  < ${TARGETS.rssMb} MB  ${rss < TARGETS.rssMb ? "PASS" : "FAIL"}`,
    );
    log(
      `(RSS after seeding: ${rssAfterSeed.toFixed(0)} MB; total time ${((performance.now() - totalStarted) / 1000).toFixed(0)} s)`,
    );
  } finally {
    await app?.close();
    await target.cleanup();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`Benchmark failed: ${(error as Error)?.stack ?? error}\n`);
    process.exit(1);
  },
);
