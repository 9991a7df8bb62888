/**
 * `pnpm bench` (with board, lists and screening, which run after it): performance of the calls
 * that must stay fast with a large membership. Each scenario is a file of this folder; this runner
 * seeds, runs them in turn and prints the tables.
 *
 * Builds the real app (buildApp, logger and jobs off) on a fresh database: embedded PGlite in a
 * temporary DATA_DIR, or, when DATABASE_URL is set, a temporary database created on that
 * PostgreSQL server and dropped afterwards (your data is never touched; lib/target.ts).
 *
 * Scale: seeds 10,000 members and 10,000 messages in set-based INSERTs (lib/seed.ts; balances
 * opened through the points module) and times the profile search (search.ts), the member mailbox,
 * the administrators' message lists and the conversations (messages.ts, conversations.ts); then
 * grows to BENCH_MEMBERS members (1,000,000 by default) and BENCH_MESSAGES messages (1,000,000 by
 * default; 1% of them to one busy member), times the same calls and prints each p95 against the
 * small one: PASS within 2×. The admin user list and login (admin-users.ts) are timed at the full
 * size against fixed targets. Last, on PostgreSQL only, the scheduled dispatch (scheduled.ts).
 * BENCH_EXPLAIN=1 prints the query plans of the search and admin-list statements.
 *
 * BENCH_ONLY=scheduled runs the dispatch alone, BENCH_ONLY=messages the message lists alone
 * (members and messages seeded to the same sizes, no profile search, admin user list, login or
 * dispatch), BENCH_ONLY=search the profile search alone (members only).
 *
 * Exits 0 whatever the figures (PASS/FAIL is printed per line); 1 only when something breaks.
 * Environment: BENCH_MEMBERS, BENCH_MESSAGES, BENCH_SCHEDULED, BENCH_SCHEDULED_INDEX, BENCH_SCHEDULED_WORKERS,
 * BENCH_SCHEDULED_CLAIM, BENCH_PROFILE, BENCH_ONLY, BENCH_RUNS (default 30), BENCH_EXPLAIN, DATABASE_URL.
 */
import { performance } from "node:perf_hooks";
import { buildApp } from "../../apps/server/src/app";
import { memberId, seedMembers, seedMessages } from "../lib/seed";
import { log, rssMb, secondsSince } from "../lib/stats";
import { type App, prepareTarget } from "../lib/target";
import { benchAdminUsers } from "./admin-users";
import { benchOf, MEMBERS, MESSAGES, type Result, RUNS, SCALE_FLOOR_MS, SCHEDULED, SMALL, TARGETS } from "./context";
import { seedLongConversation } from "./conversations";
import { explainAdminList, messageLists } from "./messages";
import { benchScheduled } from "./scheduled";
import { explainSearch, SEARCHER, timeSearches } from "./search";

async function main() {
  const totalStarted = performance.now();
  const target = await prepareTarget("bench");
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

    // Scale: the member- and admin-facing lists are timed at SMALL members / messages first, then
    // again at the full size; each p95 at the full size must be within 2× of the small one.
    const small = { members: Math.min(SMALL, MEMBERS), messages: Math.min(SMALL, MESSAGES) };
    const bench = benchOf(app);
    const messages = messageLists(bench, small.members);

    if (process.env.BENCH_ONLY === "scheduled") {
      // Diagnosis: only the scheduled dispatch (members seeded for it, no HTTP timing).
      await seedMembers(app, 1, MEMBERS, MEMBERS);
      const only = await benchScheduled(app, target.config.databaseUrl);
      if (only)
        log(
          `${only.line}: ${(only.ms / 1000).toFixed(2)} s  < ${TARGETS.scheduledMs / 1000} s  ${only.ms < TARGETS.scheduledMs && only.problems.length === 0 ? "PASS" : "FAIL"}`,
        );
      return;
    }
    started = performance.now();
    await seedMembers(app, 1, small.members, MEMBERS);
    log(`Seeded ${small.members.toLocaleString("en")} members in ${secondsSince(started)} s`);
    const messagesOnly = process.env.BENCH_ONLY === "messages";
    // BENCH_ONLY=search: the profile search alone (no messages, admin lists, login or dispatch).
    const searchOnly = process.env.BENCH_ONLY === "search";
    log(`At ${small.members.toLocaleString("en")} members:`);
    if (!messagesOnly) await timeSearches(bench, "small");
    if (small.messages > 0 && !searchOnly) {
      await seedMessages(app, 1, small.messages, small.members, MESSAGES);
      await seedLongConversation(app, memberId(1), memberId(2), MESSAGES);
      log(`At ${small.messages.toLocaleString("en")} messages:`);
      await messages.time("small");
    }

    if (MEMBERS > small.members) {
      started = performance.now();
      await seedMembers(app, small.members + 1, MEMBERS, MEMBERS);
      log(`Seeded members up to ${MEMBERS.toLocaleString("en")} and their ledger in ${secondsSince(started)} s`);
    }
    const rssAfterSeed = rssMb();
    log(`At ${MEMBERS.toLocaleString("en")} members:`);
    if (MEMBERS > small.members && !messagesOnly) await timeSearches(bench, "large");
    if (process.env.BENCH_EXPLAIN && !messagesOnly) await explainSearch(app, SEARCHER);

    // The admin user list and login at the full size, against fixed targets.
    const results: Result[] = !messagesOnly && !searchOnly ? await benchAdminUsers(bench) : [];
    if (MESSAGES > small.messages && !searchOnly) {
      started = performance.now();
      await seedMessages(app, small.messages + 1, MESSAGES, MEMBERS, MESSAGES);
      log(`Seeded messages up to ${MESSAGES.toLocaleString("en")} in ${secondsSince(started)} s`);
      log(`At ${MESSAGES.toLocaleString("en")} messages:`);
      await messages.time("large");
      if (process.env.BENCH_EXPLAIN) await explainAdminList(app, messages.typical, messages.day());
    }
    for (const entry of bench.scaled.values())
      if (entry.large ?? entry.small) results.push((entry.large ?? entry.small) as Result);

    const scheduled =
      SCHEDULED > 0 && !messagesOnly && !searchOnly ? await benchScheduled(app, target.config.databaseUrl) : null;

    const rss = rssMb();
    log();
    log(`${"call".padEnd(64)} ${"median".padStart(9)} ${"p95".padStart(9)}  target p95`);
    for (const r of results) {
      const verdict = r.p95 < r.target ? "PASS" : "FAIL";
      log(
        `${r.name.padEnd(64)} ${`${r.median.toFixed(1)} ms`.padStart(9)} ${`${r.p95.toFixed(1)} ms`.padStart(9)}  < ${r.target} ms  ${verdict}`,
      );
    }
    log(
      `${"process RSS after the calls".padEnd(64)} ${`${rss.toFixed(0)} MB`.padStart(19)}  < ${TARGETS.rssMb} MB  ${rss < TARGETS.rssMb ? "PASS" : "FAIL"}`,
    );
    log();
    log(
      `Scale: p95 at ${MEMBERS.toLocaleString("en")} members / ${MESSAGES.toLocaleString("en")} messages against ${SMALL.toLocaleString("en")} (within 2×; a p95 under ${SCALE_FLOOR_MS} ms counts as ${SCALE_FLOOR_MS} ms, timer noise)`,
    );
    for (const [name, { small: at10k, large }] of bench.scaled) {
      if (!at10k || !large) continue;
      const ratio = large.p95 / Math.max(at10k.p95, SCALE_FLOOR_MS);
      log(
        `${name.padEnd(64)} ${`${at10k.p95.toFixed(1)} ms`.padStart(9)} → ${`${large.p95.toFixed(1)} ms`.padStart(9)}  ×${ratio.toFixed(2)}  ${ratio <= 2 ? "PASS" : "FAIL"}`,
      );
    }
    if (scheduled) {
      const ok = scheduled.ms < TARGETS.scheduledMs && scheduled.problems.length === 0;
      log(
        `${`${scheduled.line} (each exactly once${scheduled.problems.length ? `: ${scheduled.problems.length} problems` : ""})`.padEnd(64)} ${`${(scheduled.ms / 1000).toFixed(2)} s`.padStart(19)}  < ${TARGETS.scheduledMs / 1000} s  ${ok ? "PASS" : "FAIL"}`,
      );
    }
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
