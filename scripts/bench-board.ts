/**
 * `pnpm bench:board`: the board's page and Japanese keyword search must not slow down as the
 * board grows (issue 11: p95 with 1,000,000 posts within 2× of 10,000).
 *
 * Builds the real app (buildApp, logger and jobs off) on a fresh database: embedded PGlite in a
 * temporary DATA_DIR, or, when DATABASE_URL is set, a temporary database created on that
 * PostgreSQL server and dropped afterwards (your data is never touched). Seeds authors and the
 * posts in set-based INSERTs (generate_series; the search text and its grams computed by the same
 * SQL functions the triggers use, in one statement per batch), first BENCH_BOARD_SMALL posts
 * (10,000), times the calls, then grows the board to BENCH_BOARD_POSTS (1,000,000) and times them
 * again. Each call's p95 at the large size is compared with 2× its p95 at the small size (PASS /
 * FAIL per line) and the query plans of the searches are printed (EXPLAIN ANALYZE).
 *
 * The member enters the board once (POST /api/board/enter, charged) and pages and searches inside
 * the window, as a member would. Keywords: 1, 2, 3 and 7 characters, common and rare.
 *
 * Exits 0 whatever the figures; 1 only when something breaks.
 * Environment: BENCH_BOARD_POSTS, BENCH_BOARD_SMALL, BENCH_RUNS (default 30), DATABASE_URL.
 */
import { performance } from "node:perf_hooks";
import { buildApp } from "../apps/server/src/app";
import { createAccount } from "../packages/api/src/accounts/create-account";
import { prepareTarget, query } from "./bench-target";

const LARGE = Number(process.env.BENCH_BOARD_POSTS ?? 1_000_000);
const SMALL = Number(process.env.BENCH_BOARD_SMALL ?? 10_000);
const AUTHORS = 2000;
const BATCH = 50_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const WARMUP = 3;
const MEMBER = { userID: "benchboardreader", password: "bench-board-pass" };

type App = Awaited<ReturnType<typeof buildApp>>;
const log = (line = "") => process.stdout.write(`${line}\n`);

/**
 * Phrases posts are made of (three each, chosen by the post number), so every keyword's share of
 * posts is the same at any size. 「食事」 is in 1 phrase of 24 (common: about 12% of posts),
 * 「鰻重」 in 1 post of 5,000 (rare), 「猫」 in 2 phrases.
 */
const PHRASES = [
  "東京で食事しませんか",
  "週末は映画を観に行きます",
  "カフェ巡りが趣味です",
  "猫と暮らしています",
  "お酒は少しだけ飲みます",
  "休日は料理をしています",
  "温泉旅行が好きです",
  "読書と散歩が好きです",
  "音楽はジャズをよく聴きます",
  "仕事は営業をしています",
  "海外旅行に行きたいです",
  "ドライブが好きな方",
  "写真を撮るのが好きです",
  "ランニングを続けています",
  "美術館によく行きます",
  "動物が好きで犬も飼っています",
  "日曜日に会える方",
  "まずはメッセージから",
  "よろしくお願いします",
  "大阪に住んでいます",
  "名古屋で働いています",
  "家庭的な方が好きです",
  "野球観戦が趣味です",
  "猫カフェに行ってみたい",
];

/** Authors (verified members, half of each gender) in one statement; they never log in. */
async function seedAuthors(app: App): Promise<void> {
  await query(
    app,
    `insert into users (user_id, name, email, password_hash, gender, verification_status, created_at)
     select 'bba' || g, '投稿者' || g, 'bba' || g || '@bench.example', 'x',
            (case when g % 2 = 0 then 'female' else 'male' end)::gender, 'verified', now() - interval '400 days'
     from generate_series(1, ${AUTHORS}) g`,
  );
  await query(
    app,
    "create table bench_authors as select id, row_number() over (order by user_id) as rn from users where user_id like 'bba%'",
  );
  await query(app, "create unique index on bench_authors (rn)");
}

/**
 * Posts number `from`..`to` (one a minute, the newest last, so the larger board is the older
 * posts plus the same newest ones): inserted with the triggers off and their search text and grams
 * written by the triggers' own SQL functions, set-based, one batch at a time.
 */
async function seedPosts(app: App, from: number, to: number): Promise<void> {
  const phrases = `(array[${PHRASES.map((p) => `'${p}'`).join(",")}])`;
  const n = PHRASES.length;
  await query(app, "alter table board_posts disable trigger user");
  try {
    for (let start = from; start <= to; start += BATCH) {
      const end = Math.min(start + BATCH - 1, to);
      await query(
        app,
        `with src as (
           select g, a.id as author_id,
                  ${phrases}[1 + g % ${n}] || '。' || case when g % 5000 = 0 then '鰻重' else '' end as title,
                  ${phrases}[1 + (g / ${n}) % ${n}] || '。' || ${phrases}[1 + (g * 7 + 3) % ${n}] || '。' as content,
                  now() - (${LARGE} - g) * interval '1 minute' as created_at
           from generate_series(${start}, ${end}) g
           join bench_authors a on a.rn = 1 + g % ${AUTHORS}
         ), posts as (
           insert into board_posts (author_id, title, content, created_at, search_text)
           select author_id, title, content, created_at,
                  board_search_normalize(title) || chr(31) || board_search_normalize(content)
           from src
           returning id, created_at, search_text
         )
         insert into board_post_grams (gram, created_at, post_id)
         select gram, p.created_at, p.id from posts p, lateral board_search_grams(p.search_text) gram`,
      );
      if ((end - from + 1) % 200_000 === 0 && end < to) log(`  … ${(end - from + 1).toLocaleString("en")} posts`);
    }
  } finally {
    await query(app, "alter table board_posts enable trigger user");
  }
  await query(app, "analyze board_posts");
  await query(app, "analyze board_post_grams");
}

interface Result {
  name: string;
  median: number;
  p95: number;
}

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

async function time(app: App, name: string, url: string, headers: Record<string, string>): Promise<Result> {
  const samples: number[] = [];
  let firstBody = "";
  for (let run = 0; run < WARMUP + RUNS; run++) {
    const started = performance.now();
    const response = await app.inject({ method: "GET", url, headers });
    const elapsed = performance.now() - started;
    if (response.statusCode !== 200) {
      throw new Error(`${name}: expected 200, got ${response.statusCode}: ${response.body.slice(0, 300)}`);
    }
    if (run === 0) firstBody = response.body;
    if (run >= WARMUP) samples.push(elapsed);
  }
  samples.sort((a, b) => a - b);
  const result = { name, median: percentile(samples, 50), p95: percentile(samples, 95) };
  const body = JSON.parse(firstBody) as {
    posts: unknown[];
    pagination: { totalPosts: number; totalIsLowerBound: boolean };
  };
  log(
    `  ${name}: median ${result.median.toFixed(1)} ms, p95 ${result.p95.toFixed(1)} ms (${body.posts.length} posts, total ${body.pagination.totalPosts}${body.pagination.totalIsLowerBound ? "+" : ""})`,
  );
  return result;
}

const CALLS: Array<[string, string]> = [
  ["page 1", "/api/board/?page=1"],
  ["page 5", "/api/board/?page=5"],
  ["search 1 char 「猫」", `/api/board/?search=${encodeURIComponent("猫")}`],
  ["search 2 chars 「食事」 (common)", `/api/board/?search=${encodeURIComponent("食事")}`],
  ["search 2 chars 「鰻重」 (rare)", `/api/board/?search=${encodeURIComponent("鰻重")}`],
  ["search 3 chars 「カフェ」", `/api/board/?search=${encodeURIComponent("カフェ")}`],
  ["search 7 chars 「食事しませんか」", `/api/board/?search=${encodeURIComponent("食事しませんか")}`],
  ["search 「食事」 page 3", `/api/board/?page=3&search=${encodeURIComponent("食事")}`],
];

async function measure(app: App, headers: Record<string, string>): Promise<Result[]> {
  const out: Result[] = [];
  for (const [name, url] of CALLS) out.push(await time(app, name, url, headers));
  return out;
}

/**
 * The plans of the statements behind a page (the service's SQL, by hand): the walk reads chunks
 * of a gram's posts (or of all live posts) newest first from an index, keyset after the last
 * entry, and checks each chunk by primary key.
 */
async function explain(app: App): Promise<void> {
  const [last] = await query<{ at: string; id: string }>(
    app,
    "select created_at::text as at, post_id::text as id from board_post_grams where gram = '食事' order by created_at desc, post_id desc offset 4095 limit 1",
  );
  const chunk = (gram: string, size: number, after?: { at: string; id: string }) =>
    `select post_id, created_at::text as at from board_post_grams where gram = '${gram}'${
      after ? ` and (created_at, post_id) < ('${after.at}'::timestamptz, '${after.id}'::uuid)` : ""
    } order by created_at desc, post_id desc limit ${size}`;
  const ids = await query<{ id: string }>(
    app,
    chunk("食事", 1024).replace("post_id, created_at::text as at", "post_id as id"),
  );
  const check = (keyword: string) =>
    `select p.id from board_posts p
     where p.id in (${ids.map((r) => `'${r.id}'`).join(",")})
       and exists (select 1 from users u where u.id = p.author_id and p.deleted_at is null and u.deleted_at is null
                   and strpos(p.search_text, '${keyword}') > 0 offset 0)`;
  const statements: Array<[string, string]> = [
    [
      "page walk, first chunk of live posts",
      "select id, created_at::text as at from board_posts where deleted_at is null order by created_at desc, id desc limit 64",
    ],
    ["「食事」 first chunk (driving gram 食事)", chunk("食事", 64)],
    ...(last ? ([["「食事」 a later chunk (keyset)", chunk("食事", 4096, last)]] as Array<[string, string]>) : []),
    ["「食事」 check of a 1,024-post chunk by primary key", check("食事")],
    ["「猫」 first chunk (unigram)", chunk("猫", 64)],
  ];
  for (const [label, statement] of statements) {
    log();
    log(`EXPLAIN ${label}:`);
    for (const row of await query(app, `explain (analyze, buffers, costs off) ${statement}`)) {
      log(`  ${Object.values(row)[0]}`);
    }
  }
}

async function main() {
  const target = await prepareTarget("bench-board");
  let app: App | undefined;
  try {
    log(
      `Board benchmark: ${SMALL.toLocaleString("en")} then ${LARGE.toLocaleString("en")} posts, ${RUNS} timed runs per call`,
    );
    log(`Database: ${target.description}`);
    app = await buildApp(target.config, { logger: false });
    await app.ready();
    const passwordHash = await app.deps.passwords.hash(MEMBER.password);
    await app.database.db.transaction((tx) =>
      createAccount(tx, {
        userID: MEMBER.userID,
        email: "reader@bench.example",
        name: "読者",
        gender: "male",
        role: "user",
        points: 1000,
        sendPoints: 0,
        verificationStatus: "verified",
        passwordHash,
      }),
    );
    await seedAuthors(app);
    let started = performance.now();
    await seedPosts(app, LARGE - SMALL + 1, LARGE);
    log(`Seeded ${SMALL.toLocaleString("en")} posts in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const login = await app.inject({ method: "POST", url: "/api/auth/login", payload: MEMBER });
    if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
    const headers = { authorization: `Bearer ${login.json<{ token: string }>().token}` };
    const enter = async () => {
      const res = await app?.inject({ method: "POST", url: "/api/board/enter", headers, payload: {} });
      if (res?.statusCode !== 201) throw new Error(`enter failed: ${res?.body}`);
      return res.json<{ charged: number }>();
    };
    log(`Entered the board (charged ${(await enter()).charged} points)`);
    log(`${SMALL.toLocaleString("en")} posts:`);
    const small = await measure(app, headers);

    started = performance.now();
    await seedPosts(app, 1, LARGE - SMALL);
    log(
      `Grew the board to ${LARGE.toLocaleString("en")} posts in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const [size] = await query<{ grams: number }>(app, "select count(*)::int as grams from board_post_grams");
    log(`  (${size?.grams.toLocaleString("en")} gram rows)`);
    // A fresh entry when the seeding outlasted the window.
    log(`Entered again if needed (charged ${(await enter()).charged} points)`);
    log(`${LARGE.toLocaleString("en")} posts:`);
    const large = await measure(app, headers);
    await explain(app);

    log();
    log(`p95 at ${LARGE.toLocaleString("en")} vs ${SMALL.toLocaleString("en")} posts (target: within 2×):`);
    for (const [i, result] of large.entries()) {
      const base = small[i];
      if (!base) continue;
      // Below 5 ms timer noise dominates; the bound is 2× the small p95 or 10 ms, whichever is more.
      const bound = Math.max(2 * base.p95, 10);
      const pass = result.p95 <= bound;
      log(
        `  ${pass ? "PASS" : "FAIL"} ${result.name}: ${base.p95.toFixed(1)} ms → ${result.p95.toFixed(1)} ms (${(result.p95 / base.p95).toFixed(2)}×)`,
      );
    }
  } finally {
    await app?.close();
    await target.cleanup();
  }
}

main().catch((error: unknown) => {
  const cause = error instanceof Error && error.cause instanceof Error ? `\ncaused by: ${error.cause.message}` : "";
  log(`bench:board failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}${cause}`);
  process.exit(1);
});
