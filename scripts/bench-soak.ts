/**
 * `pnpm bench:soak`: ten minutes of mixed traffic against the production server (reliability):
 * RSS and p99 must stay flat. Not part of the test suite.
 *
 * Starts the bundled server with its default workers on a temporary PostgreSQL database filled as
 * `bench:http` fills it (scripts/lib/server.ts; BENCH_SOAK_MEMBERS members, 100,000 by default),
 * then runs 16 connections, each cycling through the hot calls (own account, point costs, inbox,
 * board page, profile search, a paid send, the admin user list), for BENCH_SOAK_SECONDS (600) in
 * windows of BENCH_SOAK_WINDOW seconds (30). After each window it prints req/s, p50/p99, errors
 * and the server's memory (RSS and PSS of all its processes).
 *
 * Verdict, after the first third of the windows (warm-up: JIT, caches, pools, the heap growing to
 * its working size), the last third against the middle third, by medians (a garbage collection
 * caught at the end of one window does not decide): memory flat when the late median PSS is within
 * 20% of the middle one; p99 flat when the late median p99 is within 1.5× of it; no error at all. Exits 0 with the
 * figures either way; 1 when something breaks.
 */
import { availableParallelism, loadavg } from "node:os";
import autocannon from "autocannon";
import { describeMemory, memoryOf, startTarget } from "./lib/server";
import { log } from "./lib/stats";

const SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 600);
const WINDOW = Number(process.env.BENCH_SOAK_WINDOW ?? 30);
const MEMBERS = Number(process.env.BENCH_SOAK_MEMBERS ?? 100_000);
const CONNECTIONS = 16;

interface Window {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  rss: number;
  pss: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
};

async function main(): Promise<void> {
  const target = await startTarget({ members: MEMBERS, messages: 100_000, posts: 20_000 }, { prefix: "enmusubi_soak" });
  try {
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    log(`Server memory idle: ${describeMemory(memoryOf(target.server))}; load average ${loadavg()[0]?.toFixed(1)}`);
    const requests = target.endpoints.map((endpoint) => {
      const token = endpoint.token ? target.tokens[endpoint.token] : undefined;
      return {
        method: endpoint.method,
        path: endpoint.path,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(endpoint.body ? { "content-type": "application/json" } : {}),
        },
        ...(endpoint.body ? { body: JSON.stringify(endpoint.body) } : {}),
      };
    });
    log(
      `Soak: ${SECONDS} s of ${CONNECTIONS} connections cycling ${target.endpoints.map((e) => e.name).join(", ")}; a line every ${WINDOW} s`,
    );
    log(
      `${"window".padEnd(8)} ${"req/s".padStart(7)} ${"p50".padStart(5)} ${"p99".padStart(5)} ${"errors".padStart(7)}  memory`,
    );
    const windows: Window[] = [];
    for (let elapsed = 0; elapsed < SECONDS; elapsed += WINDOW) {
      const result = await autocannon({
        url: `http://127.0.0.1:${target.port}`,
        connections: CONNECTIONS,
        duration: Math.min(WINDOW, SECONDS - elapsed),
        requests,
      });
      const memory = memoryOf(target.server);
      const window = {
        rps: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        errors: result.non2xx + result.errors + result.timeouts,
        rss: memory.rss,
        pss: memory.pss,
      };
      windows.push(window);
      log(
        `${`${elapsed + WINDOW} s`.padEnd(8)} ${window.rps.toFixed(0).padStart(7)} ${`${window.p50}`.padStart(5)} ${`${window.p99}`.padStart(5)} ${`${window.errors}`.padStart(7)}  ${describeMemory(memory)}`,
      );
    }
    if (windows.length < 7) {
      log("Too short for a verdict (needs 7 windows); set BENCH_SOAK_SECONDS ≥ 7 × BENCH_SOAK_WINDOW");
      return;
    }
    // The first third warms up (JIT, caches, pools, the heap growing to its working size); the
    // middle third against the last, by medians, so one garbage collection caught at a window's
    // end does not decide.
    const third = Math.floor(windows.length / 3);
    const early = windows.slice(third, 2 * third);
    const late = windows.slice(-third);
    const pss = [median(early.map((w) => w.pss)), median(late.map((w) => w.pss))] as const;
    const p99 = [median(early.map((w) => w.p99)), median(late.map((w) => w.p99))] as const;
    const errors = windows.reduce((sum, w) => sum + w.errors, 0);
    const memoryFlat = pss[1] <= pss[0] * 1.2;
    const latencyFlat = p99[1] <= p99[0] * 1.5;
    log();
    log(
      `${memoryFlat ? "PASS" : "FAIL"} memory flat: median PSS ${pss[0].toFixed(0)} MB (windows ${third + 1}–${2 * third}) → ${pss[1].toFixed(0)} MB (last ${third}) (×${(pss[1] / pss[0]).toFixed(2)}, ≤ 1.2)`,
    );
    log(
      `${latencyFlat ? "PASS" : "FAIL"} p99 flat: median ${p99[0]} ms (windows ${third + 1}–${2 * third}) → ${p99[1]} ms (last ${third}) (×${(p99[1] / Math.max(1, p99[0])).toFixed(2)}, ≤ 1.5)`,
    );
    log(`${errors === 0 ? "PASS" : "FAIL"} errors: ${errors} non-2xx, errors or timeouts`);
    log(`Load average (1 min) at the end: ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} cores`);
  } finally {
    await target.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
