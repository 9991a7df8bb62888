/**
 * The scheduled dispatch of `pnpm bench` (PostgreSQL only: PGlite is one process, so there is no
 * second instance to race): BENCH_SCHEDULED scheduled messages (10,000 by default) all due at once
 * are dispatched by two "instances" (two connection pools, each running the job's dispatcher
 * loops, DISPATCH_LOOPS of `dispatchDue`, until nothing is due); the wall time is compared with
 * 10 s and every row must be sent exactly once. BENCH_MEMBERS ≥ 2 × BENCH_SCHEDULED gives each
 * sender one message (their points suffice). Diagnoses: BENCH_SCHEDULED_WORKERS=n runs n loops per
 * instance instead, BENCH_SCHEDULED_CLAIM=n claims n rows per transaction (1: one row each, as
 * before batching), BENCH_PROFILE=1 writes a CPU profile of the dispatch, BENCH_SCHEDULED_INDEX=1
 * adds a bench-only claim index (the schema has scheduled_due_idx since migration 0008).
 */
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createDatabase } from "@enmusubi/db";
import { dispatchDue } from "../../packages/api/src/scheduled/dispatch";
import { DISPATCH_LOOPS } from "../../packages/api/src/scheduled/jobs";
import { log } from "../lib/stats";
import { type App, query } from "../lib/target";
import { MEMBERS, SCHEDULED } from "./context";

/** Concurrent dispatcher loops per instance: as the job runs them (DISPATCH_LOOPS) unless set. */
const WORKERS = Math.max(1, Number(process.env.BENCH_SCHEDULED_WORKERS ?? DISPATCH_LOOPS));
/**
 * Rows one dispatcher transaction claims (diagnosis; the product's DISPATCH_CLAIM unless set). 1
 * is the dispatcher before batching: one row per transaction, a savepoint around each send.
 */
const CLAIM = Number(process.env.BENCH_SCHEDULED_CLAIM ?? 0);

/** BENCH_PROFILE=1 (diagnosis): a V8 CPU profile of the dispatch alone, written to the temp directory. */
async function startProfile(): Promise<{ stop(): Promise<string> }> {
  const { Session } = await import("node:inspector/promises");
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  return {
    async stop() {
      const { profile } = await session.post("Profiler.stop");
      const file = path.join(tmpdir(), `enmusubi-dispatch-${Date.now()}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
      return file;
    },
  };
}

export interface ScheduledResult {
  line: string;
  ms: number;
  problems: string[];
}

/**
 * SCHEDULED scheduled messages, all due, from members to members (each sender a member with
 * enough points when BENCH_MEMBERS ≥ 2 × SCHEDULED), inserted in one set-based statement into
 * scheduled_messages; then two instances (two pools of their own) each run the dispatcher loop of
 * the scheduled-messages job until nothing is due, concurrently. Checks: every row sent, exactly
 * one message per recipient per row (and no other), each sender's ledger sums to the balance.
 */
export async function benchScheduled(app: App, url: string | undefined): Promise<ScheduledResult | null> {
  const name = `${SCHEDULED.toLocaleString("en")} due scheduled messages, 2 instances × ${WORKERS} loops${CLAIM ? ` (claim ${CLAIM})` : ""}${process.env.BENCH_SCHEDULED_INDEX ? " (+index)" : ""}`;
  if (!url) {
    log(`Scheduled messages: skipped on PGlite (one process per database: no second instance); set DATABASE_URL`);
    return null;
  }
  const half = Math.max(1, Math.floor(MEMBERS / 2));
  await query(
    app,
    `with m as (select id, row_number() over (order by user_id) as rn from users where user_id like 'bm%')
     insert into scheduled_messages (type, owner_id, recipients, content, scheduled_at, source, needs_point_deduction)
     select 'direct', s.id, array[r.id], '予約ベンチのメッセージ ' || g || ' 番目です。',
            now() - interval '1 minute', 'user:sent', true
     from generate_series(1, ${SCHEDULED}) g
     join m s on s.rn = 1 + (g - 1) % ${half}
     join m r on r.rn = 1 + (${half} + g) % ${MEMBERS}
     where s.id <> r.id`,
  );
  if (process.env.BENCH_SCHEDULED_INDEX) {
    // Diagnosis only (not in the schema): the index the claim's ORDER BY scheduled_at, id needs to
    // be an index scan that stops at the first unlocked row, instead of a scan and sort of every
    // due row (and its dead versions) per claimed row.
    await query(
      app,
      "create index bench_scheduled_due_order_idx on scheduled_messages (scheduled_at, id) where status = 'pending'",
    );
    log("Scheduled messages: BENCH_SCHEDULED_INDEX set, bench-only index (scheduled_at, id) where pending added");
  }
  await query(app, "analyze scheduled_messages");
  const [{ due = 0 } = {}] = await query<{ due: number }>(
    app,
    "select count(*)::int as due from scheduled_messages where status = 'pending' and scheduled_at <= now()",
  );
  log(`Scheduled messages: ${due.toLocaleString("en")} due rows inserted; dispatching with two instances…`);
  if (process.env.BENCH_EXPLAIN) {
    for (const row of await query(
      app,
      `explain (analyze, buffers, costs off) select * from scheduled_messages
       where status = 'pending' and scheduled_at <= now() order by scheduled_at, id limit 1 for update skip locked`,
    ))
      log(`  ${Object.values(row)[0]}`);
  }

  // The first unexpected failure is printed (a failed row otherwise shows only the generic message).
  let reported = 0;
  const jobLog = {
    info: () => {},
    error: (details: Record<string, unknown>, message: string) => {
      if (reported++ === 0) log(`  first error: ${message}: ${(details.err as Error)?.stack ?? String(details.err)}`);
    },
  };
  // Two instances: each its own pool (as two servers would have), the job's loop on each.
  const instances = await Promise.all([
    createDatabase({ url, max: WORKERS + 1 }),
    createDatabase({ url, max: WORKERS + 1 }),
  ]);
  let counts: Array<{ sent: number; failed: number; runs: number }> = [];
  let ms = 0;
  try {
    const profiler = process.env.BENCH_PROFILE ? await startProfile() : undefined;
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    counts = await Promise.all(
      instances.map(async (instance) => {
        const deps = { ...app.deps, db: instance.db };
        const mine = { sent: 0, failed: 0, runs: 0 };
        // WORKERS loops per instance (by default DISPATCH_LOOPS, as the job runs them).
        await Promise.all(
          Array.from({ length: WORKERS }, async () => {
            for (;;) {
              // dispatchDue handles at most 1000 rows a run; the job loop would wait 5 s between runs.
              const run = await dispatchDue(deps, jobLog, CLAIM ? { batch: CLAIM, careful: CLAIM === 1 } : {});
              mine.runs += 1;
              mine.sent += run.sent;
              mine.failed += run.failed;
              if (run.sent + run.failed === 0) return;
            }
          }),
        );
        return mine;
      }),
    );
    ms = performance.now() - started;
    if (profiler) log(`  CPU profile of the dispatch: ${await profiler.stop()}`);
    // This process's own CPU (both instances' JavaScript): what a busy machine cannot hide.
    const cpu = process.cpuUsage(cpuBefore);
    log(`  bench process CPU: ${((cpu.user + cpu.system) / 1000 / Math.max(1, due)).toFixed(2)} ms per row`);
  } finally {
    await Promise.all(instances.map((i) => i.close()));
  }
  log(
    `  ${counts.map((c, n) => `instance ${n + 1}: ${c.sent} sent, ${c.failed} failed (${c.runs} runs)`).join("; ")}; ${(ms / 1000).toFixed(2)} s`,
  );

  const problems: string[] = [];
  const [status] = await query<{ sent: number; other: number }>(
    app,
    `select count(*) filter (where status = 'sent')::int as sent, count(*) filter (where status <> 'sent')::int as other
     from scheduled_messages where content like '予約ベンチ%'`,
  );
  if (status?.sent !== due || status.other !== 0) {
    problems.push(`${status?.sent} of ${due} rows sent, ${status?.other} not sent`);
    for (const row of await query<{ status: string; last_error: string | null; n: number }>(
      app,
      `select status, last_error, count(*)::int as n from scheduled_messages
       where content like '予約ベンチ%' and status <> 'sent' group by 1, 2 order by 3 desc limit 5`,
    ))
      log(`  not sent: ${row.n} ${row.status} (${row.last_error ?? "no error"})`);
  }
  const handled = counts.reduce((sum, c) => sum + c.sent + c.failed, 0);
  if (handled !== due) problems.push(`dispatchers handled ${handled} rows for ${due} due`);
  // One message per recipient per row: the row's message ids are exactly one message to each
  // recipient with the row's text, and no other message carries that text.
  const [exact] = await query<{ bad: number; messages: number; distinct_bodies: number }>(
    app,
    `select
       (select count(*)::int from scheduled_messages s
         where s.content like '予約ベンチ%' and (
           coalesce(cardinality(s.message_ids), 0) <> cardinality(s.recipients)
           or (select count(*) from messages m where m.id = any(s.message_ids) and m.to_user_id = any(s.recipients)
                 and m.from_user_id = s.owner_id and m.body = s.content) <> cardinality(s.recipients))) as bad,
       (select count(*)::int from messages where body like '予約ベンチ%') as messages,
       (select count(distinct body)::int from messages where body like '予約ベンチ%') as distinct_bodies`,
  );
  if (exact?.bad !== 0) problems.push(`${exact?.bad} rows without exactly one message per recipient`);
  if (exact?.messages !== due || exact.distinct_bodies !== due)
    problems.push(`${exact?.messages} messages (${exact?.distinct_bodies} distinct) for ${due} rows`);
  // Charged once each: every sender's ledger sums to the balance, on both accounts.
  const [ledger] = await query<{ senders: number; off: number; charged: number }>(
    app,
    `with senders as (select distinct owner_id as id from scheduled_messages where content like '予約ベンチ%')
     select (select count(*)::int from senders) as senders,
       (select count(*)::int from senders s join users u on u.id = s.id
         where u.points <> coalesce((select sum(delta) from point_ledger l where l.user_id = s.id and l.account = 'points'), 0)
            or u.send_points <> coalesce((select sum(delta) from point_ledger l where l.user_id = s.id and l.account = 'send_points'), 0)) as off,
       (select coalesce(-sum(delta), 0)::int from point_ledger l join senders s on s.id = l.user_id where l.delta < 0) as charged`,
  );
  if (ledger?.off !== 0) problems.push(`${ledger?.off} senders whose ledger does not sum to their balance`);
  const [{ cost = 0 } = {}] = await query<{ cost: number }>(
    app,
    "select point_cost as cost from point_costs where action_name = 'send_message'",
  );
  log(
    `  checks: ${status?.sent} rows sent, ${exact?.messages} messages, ${ledger?.senders} senders charged ${ledger?.charged} pt in all (${due} × ${cost} pt = ${due * cost}), ledger = balance for ${(ledger?.senders ?? 0) - (ledger?.off ?? 0)}`,
  );
  if (ledger && ledger.charged !== due * cost) problems.push(`charged ${ledger.charged} pt, expected ${due * cost}`);
  for (const p of problems) log(`  ✗ ${p}`);
  return { line: name, ms, problems };
}
