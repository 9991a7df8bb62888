/**
 * `pnpm bench:lists`: the administrators' lists stay as fast at 1,000,000 rows as at 10,000
 * (decision 0011: "Lists never count every row per page at 1M").
 *
 * Builds the real app (buildApp, logger and jobs off) on a temporary PostgreSQL database created
 * on DATABASE_URL's server and dropped afterwards (PGlite in a temporary DATA_DIR when unset; its
 * 1,000,000-row seeding is slow). Seeds set-based (generate_series): BENCH_SMALL rows (10,000)
 * of members, inquiries, purchase transactions, audit entries and open reports; times page 1 of
 * each list through tRPC over HTTP (app.inject, as the admin screens call them); grows every
 * table to BENCH_ROWS (1,000,000) and times them again. PASS when the p95 at the full size is
 * within 2× of the small one (or under SCALE_FLOOR_MS, below which timer noise dominates).
 * BENCH_EXPLAIN=1 prints EXPLAIN (ANALYZE, BUFFERS) of the lists' main statements at both sizes
 * (each must read an index, not the whole table).
 * Exits 0 whatever the figures; 1 when something breaks. Environment: BENCH_ROWS, BENCH_SMALL,
 * BENCH_RUNS (100: the p95 of 30 runs is their second slowest, one stray sample), BENCH_EXPLAIN, DATABASE_URL.
 */
import { performance } from "node:perf_hooks";
import { buildApp } from "../apps/server/src/app";
import { log, summarize } from "./lib/stats";
import { type App, BENCH_ADMIN, prepareTarget, query } from "./lib/target";

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const SMALL = Math.min(ROWS, Number(process.env.BENCH_SMALL ?? 10_000));
const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const WARMUP = 10;
const SCALE_FLOOR_MS = 5;
const BATCH = 250_000;

/**
 * Rows `from`..`to` of every listed table, set-based. Members lm0000001… alternate male/female,
 * one sign-up a second (newest last), every thousandth named 佐藤 (the user search's name); inquiries, transactions and reports belong to members
 * spread over the range (i-th row → member i), a third of the inquiries unread; audit entries are
 * the first administrator's, in eight actions; member i reports member i - 1.
 */
async function seed(app: App, from: number, to: number): Promise<void> {
  for (let start = from; start <= to; start += BATCH) {
    const end = Math.min(start + BATCH - 1, to);
    const at = (column: string) => `now() - (${ROWS + 1} - ${column}) * interval '1 second'`;
    await query(
      app,
      `insert into users (user_id, name, email, password_hash, gender, verification_status, created_at)
       select 'lm' || lpad(i::text, 7, '0'), (case when i % 1000 = 0 then '佐藤' else '会員' end) || i,
              'lm' || i || '@bench.example', 'x',
              (case when i % 2 = 0 then 'female' else 'male' end)::gender, 'verified', ${at("i")}
       from generate_series(${start}, ${end}) i`,
    );
    // Fresh statistics before the inserts below read the new members back by user_id.
    await query(app, "analyze users");
    const members = `(select id, substr(user_id, 3)::int as i from users where user_id between 'lm${String(start).padStart(7, "0")}' and 'lm${String(end).padStart(7, "0")}')`;
    await query(
      app,
      `insert into inquiries (user_id, title, message, is_read, created_at)
       select m.id, 'お問い合わせ ' || m.i, 'ポイントについて教えてください。', m.i % 3 <> 0, ${at("m.i")} from ${members} m`,
    );
    await query(
      app,
      `insert into purchase_transactions (transaction_id, user_id, payment_method, amount, points, status, created_at)
       select 'BL' || lpad(m.i::text, 9, '0'), m.id,
              (case when m.i % 2 = 0 then 'bank_transfer' else 'smart_pit' end)::payment_method,
              1000 + (m.i % 5) * 1000, 100 + (m.i % 5) * 100,
              (array['pending','paid','paid','cancelled','failed'])[1 + m.i % 5]::transaction_status, ${at("m.i")}
       from ${members} m`,
    );
    await query(
      app,
      `insert into admin_audit_log (admin_id, action, target_type, target_id, details, created_at)
       select a.id, (array['user.update','user.sendPoints','inquiry.reply','payment.confirm','report.dismiss','user.create','board.remove','verification.approve'])[1 + m.i % 8],
              'user', m.id::text, '{}'::jsonb, ${at("m.i")}
       from ${members} m, (select id from users where user_id = '${BENCH_ADMIN.userID}') a`,
    );
    // Open reports: member i reports member i - 1 of the same batch (its first member reports
    // nobody), so reports spread over the members as they would (the queue counts each reported
    // member's recent reports) and no row is looked up per report.
    await query(
      app,
      `insert into reports (reporter_id, target_type, target_id, target_user_id, reason, status, created_at)
       select p.id, 'member', p.target, p.target, 'business', 'open', ${at("p.i")}
       from (select m.id, m.i, lag(m.id) over (order by m.i) as target from ${members} m) p
       where p.target is not null`,
    );
    if (end < to) log(`  … ${end.toLocaleString("en")} rows each`);
  }
  await query(app, "vacuum analyze");
}

/** The lists as the admin screens ask for them: [label, URL]. */
function lists(): Array<[string, string]> {
  const trpc = (procedure: string, input: Record<string, unknown>) =>
    `/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`;
  return [
    ["GET /api/admin/users?page=1", "/api/admin/users?page=1"],
    ["GET /api/admin/users?page=1 gender=female", "/api/admin/users?page=1&field=gender&search=female"],
    ["adminUsers.list page 1", trpc("adminUsers.list", { page: 1 })],
    ["adminUsers.list gender 女性", trpc("adminUsers.list", { page: 1, field: "gender", search: "女性" })],
    // A prefix as an administrator types one: 100 matches at either size (lm0001200…lm0001299).
    ["adminUsers.list userID prefix lm00012", trpc("adminUsers.list", { page: 1, search: "lm00012" })],
    // A broad one: every member at 10,000, the oldest 99,999 at 1,000,000.
    ["adminUsers.list userID prefix lm00 (broad)", trpc("adminUsers.list", { page: 1, search: "lm00" })],
    ["adminInquiries.list page 1", trpc("adminInquiries.list", { page: 1 })],
    ["adminInquiries.list unread only", trpc("adminInquiries.list", { page: 1, unreadOnly: true })],
    ["adminPayments.list page 1", trpc("adminPayments.list", { page: 1 })],
    ["adminPayments.list status paid", trpc("adminPayments.list", { page: 1, status: "paid" })],
    [
      "adminPayments.list bank transfer, pending",
      trpc("adminPayments.list", { page: 1, method: "bank_transfer", status: "pending" }),
    ],
    ["adminAudit.list page 1", trpc("adminAudit.list", { page: 1 })],
    ["adminAudit.list action user.update", trpc("adminAudit.list", { page: 1, action: "user.update" })],
    ["adminModeration.queue open", trpc("adminModeration.queue", { status: "open" })],
    ["adminAudit.actions (filter choices)", trpc("adminAudit.actions", {})],
    // Decision 0036: the user list's keyword (name, e-mail, user ID) and the operator's dashboard.
    ["adminUsers.list keyword 佐藤 (name)", trpc("adminUsers.list", { page: 1, q: "佐藤" })],
    ["adminUsers.list keyword lm1234@bench (e-mail)", trpc("adminUsers.list", { page: 1, q: "lm1234@bench" })],
    ["adminUsers.list keyword m0001234 (inside a user ID)", trpc("adminUsers.list", { page: 1, q: "m0001234" })],
    ["GET /api/admin/users?q=佐藤", `/api/admin/users?page=1&q=${encodeURIComponent("佐藤")}`],
    ["adminDashboard.summary", trpc("adminDashboard.summary", {})],
    ["adminDashboard.waiting (menu counts)", trpc("adminDashboard.waiting", {})],
  ];
}

async function timeAll(app: App, authorization: string): Promise<Map<string, number>> {
  const results = new Map<string, number>();
  for (const [label, url] of lists()) {
    const samples: number[] = [];
    for (let run = 0; run < WARMUP + RUNS; run++) {
      const started = performance.now();
      const res = await app.inject({ method: "GET", url, headers: { authorization } });
      const elapsed = performance.now() - started;
      if (res.statusCode !== 200) throw new Error(`${label}: ${res.statusCode} ${res.body.slice(0, 300)}`);
      if (run >= WARMUP) samples.push(elapsed);
    }
    const { median, p95 } = summarize(samples);
    results.set(label, p95);
    log(`  ${label}: median ${median.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms`);
  }
  return results;
}

/** The lists' main statements as the services issue them (values bound by hand). */
async function explainLists(app: App): Promise<void> {
  const page = (table: string, where: string, order = "created_at desc, id desc") =>
    `select * from ${table} where ${where} order by ${order} limit 20`;
  const capped = (table: string, where: string, cap = 1001) =>
    `select count(*) from (select 1 from ${table} where ${where} limit ${cap}) matches`;
  const statements: Array<[string, string]> = [
    ["user list count (capped at 10,001)", capped("users", "deleted_at is null", 10_001)],
    ["user list page 1, gender", page("users", "deleted_at is null and gender = 'female'")],
    [
      "user list page 1, userID prefix lm00 (userID order)",
      "select id from users where deleted_at is null and lower(user_id) like 'lm00%' order by lower(user_id) using ~<~, user_id using ~<~ limit 50",
    ],
    [
      "user list count, userID prefix lm00 (capped, along the prefix index as the service counts it)",
      "select count(*) from (select 1 from users where deleted_at is null and lower(user_id) like 'lm00%' order by lower(user_id) using ~<~, user_id using ~<~ limit 10001) matches",
    ],
    ["estimate (EXPLAIN only)", "select 1 from users where deleted_at is null and gender = 'female'"],
    ["inquiry desk page 1", page("inquiries", "deleted_at is null")],
    ["inquiry desk unread count (capped)", capped("inquiries", "deleted_at is null and not is_read")],
    ["payments page 1", page("purchase_transactions", "true")],
    ["payments page 1, paid", page("purchase_transactions", "status = 'paid'")],
    [
      "payments totals (purchase_daily_totals)",
      "select sum(count), sum(amount), sum(points) from purchase_daily_totals where status = 'paid'",
    ],
    ["audit page 1, user.update", page("admin_audit_log", "action = 'user.update'")],
    ["moderation queue page 1", page("reports", "status = 'open'", "created_at, id")],
    ["moderation queue count (capped)", capped("reports", "status = 'open'")],
    // Decision 0036: the keyword's candidates, each branch from its own index.
    [
      "user keyword 佐藤: candidates (a word outside ASCII: names only, its gram's members)",
      "select user_id from member_search_grams where gram = '佐藤' limit 2000",
    ],
    [
      "user keyword lm1234@bench: candidates (gram ∪ e-mail trigram ∪ user ID trigram)",
      "select id from (select user_id as id from member_search_grams where gram = 'lm' union select id from users where lower(email) like '%lm1234@bench%' union select id from users where user_id ilike '%lm1234@bench%') c limit 2000",
    ],
    [
      "user keyword lm1234@bench: e-mail trigram (users_email_trgm_idx)",
      "select id from users where lower(email) like '%lm1234@bench%'",
    ],
    ["user keyword m0001234: user ID trigram", "select id from users where user_id ilike '%m0001234%'"],
    [
      "dashboard: sign-ups over 30 days (member_daily_signups)",
      "select day, count from member_daily_signups where day >= current_date - 29 and day < current_date + 1",
    ],
    [
      "dashboard: sales over 30 days (purchase_daily_totals)",
      "select day, sum(amount) from purchase_daily_totals where status = 'paid' and day >= current_date - 29 group by day",
    ],
    ["dashboard: members (capped at 10,001)", capped("users", "deleted_at is null and role = 'user'", 10_001)],
    [
      "dashboard: messages today (capped, along messages_live_idx)",
      "select count(*) from (select 1 from messages where deleted_at is null and created_at >= date_trunc('day', now()) order by created_at desc limit 10001) m",
    ],
    [
      "dashboard: points spent this month (point_ledger_spent_created_idx)",
      "select -sum(delta) from point_ledger where account = 'points' and kind in ('charge', 'prepaid_charge') and created_at >= date_trunc('month', now())",
    ],
    ["dashboard: verifications waiting (capped)", capped("id_verifications", "status = 'pending'")],
    ["dashboard: failed scheduled messages (capped)", capped("scheduled_messages", "status = 'failed'")],
  ];
  for (const [label, statement] of statements) {
    const analyze = label.includes("EXPLAIN only") ? "" : "analyze, buffers, ";
    const plan = await query<{ "QUERY PLAN": string }>(app, `explain (${analyze}costs off) ${statement}`);
    log(`  EXPLAIN ${label}:`);
    for (const row of plan) log(`    ${row["QUERY PLAN"]}`);
  }
}

async function main() {
  const target = await prepareTarget("bench-lists");
  let app: App | undefined;
  try {
    log(`Enmusubi list benchmark: ${SMALL.toLocaleString("en")} → ${ROWS.toLocaleString("en")} rows, ${RUNS} runs`);
    log(`Database: ${target.description}`);
    app = await buildApp(target.config, { logger: false });
    await app.ready();
    const res = await app.inject({ method: "POST", url: "/api/auth/login", payload: BENCH_ADMIN });
    if (res.statusCode !== 200) throw new Error(`admin login failed: ${res.body}`);
    const authorization = `Bearer ${res.json<{ token: string }>().token}`;

    let started = performance.now();
    await seed(app, 1, SMALL);
    log(
      `Seeded ${SMALL.toLocaleString("en")} rows per table in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const small = await timeAll(app, authorization);
    if (process.env.BENCH_EXPLAIN) await explainLists(app);

    started = performance.now();
    await seed(app, SMALL + 1, ROWS);
    log(
      `Grew to ${ROWS.toLocaleString("en")} rows per table in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const large = await timeAll(app, authorization);
    if (process.env.BENCH_EXPLAIN) await explainLists(app);

    log();
    log(`p95 at ${SMALL.toLocaleString("en")} → ${ROWS.toLocaleString("en")} rows (PASS within 2×):`);
    let failed = 0;
    for (const [label] of lists()) {
      const a = small.get(label) ?? Number.NaN;
      const b = large.get(label) ?? Number.NaN;
      const pass = b <= Math.max(2 * a, SCALE_FLOOR_MS);
      if (!pass) failed++;
      log(`  ${pass ? "PASS" : "FAIL"} ${label}: ${a.toFixed(1)} → ${b.toFixed(1)} ms (×${(b / a).toFixed(2)})`);
    }
    log(failed ? `${failed} list(s) FAIL` : "Every list PASS");
  } finally {
    await app?.close();
    await target.cleanup();
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
