import cluster, { type Worker } from "node:cluster";
import { availableParallelism } from "node:os";
import { answerClusterScrapes } from "./ops/cluster-scrape";

/**
 * The primary process of a multi-worker server (WORKERS > 1, PostgreSQL only): it opens no
 * database and serves nothing; it forks the workers, which share the listening port (node:cluster
 * hands connections out round-robin). The first worker starts alone, so that migrations and the
 * first administrator are made once; the others start when it listens. A worker that dies later
 * is replaced; one that dies before it ever listened stops the server (a bad configuration or a
 * failed migration would only fail again). SIGTERM/SIGINT are passed to every worker, each closes
 * gracefully (in-flight requests finish, app.close()), and the primary exits when all have.
 *
 * Background jobs run in every worker: pg-boss and the domains' loops claim work with row locks
 * (SKIP LOCKED), as they must anyway across instances, and each worker's queued mail wakes its own
 * delivery at once.
 */
export function runPrimary(
  workers: number,
  execArgv: string[] = process.execArgv,
  workerEnv: Record<string, string> = {},
): void {
  cluster.setupPrimary({ execArgv });
  const listening = new Set<Worker>();
  let stopping = false;
  let startedAll = false;
  let exitCode = 0;
  const line = (level: number, msg: string, extra: Record<string, unknown> = {}) =>
    process.stdout.write(`${JSON.stringify({ level, time: Date.now(), pid: process.pid, ...extra, msg })}\n`);

  const fork = () => {
    const worker = cluster.fork(workerEnv);
    worker.once("listening", () => {
      listening.add(worker);
      // The first worker has migrated the database: the others may start together now.
      if (!startedAll) {
        startedAll = true;
        for (let i = 1; i < workers; i++) fork();
      }
    });
    return worker;
  };

  cluster.on("exit", (worker, code, signal) => {
    const wasListening = listening.delete(worker);
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(exitCode);
      return;
    }
    if (!wasListening) {
      line(60, "a worker failed to start; stopping", { worker: worker.process.pid, code, signal });
      exitCode = 1;
      stop("worker failed");
      return;
    }
    line(50, "a worker exited; starting another", { worker: worker.process.pid, code, signal });
    fork();
  });

  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    line(30, "shutting down", { signal, workers: Object.keys(cluster.workers ?? {}).length });
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(exitCode);
    // Each worker gives itself 10 s; past 15 s, whatever is left is stopped.
    setTimeout(() => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGKILL");
      process.exit(1);
    }, 15_000).unref();
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));

  answerClusterScrapes();
  line(30, `starting ${workers} workers`, { workers });
  fork();
}

/** Host names that are this machine. */
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/** Whether `databaseUrl` names a PostgreSQL server on this machine (loopback or a Unix socket). */
export function databaseIsLocal(databaseUrl: string): boolean {
  // postgres.js reads a socket directory from `?host=/path` as well as from an empty host.
  if (/[?&]host=(?:\/|%2F)/i.test(databaseUrl)) return true;
  // An empty host (`postgres:///db`, `postgres://user@/db`): the default socket.
  if (/^[a-z]+:\/\/(?:[^@/?#]*@)?(?:[/?#]|$)/i.test(databaseUrl)) return true;
  try {
    return LOOPBACK.has(new URL(databaseUrl).hostname.toLowerCase());
  } catch {
    return false;
  }
}

/**
 * Workers when WORKERS is not set (PostgreSQL): one per core, but one core fewer when PostgreSQL
 * runs on the same machine. Its backends need a core of their own: on 2 cores with PostgreSQL
 * local, 2 workers answered every endpoint of `pnpm bench:http` no faster than 1 (10–25% slower
 * on the lists, /me and the send) while each call cost the server 30–70% more CPU (two event
 * loops, two JITs and two GCs contending with PostgreSQL and each other; decision 0037, sixth session).
 */
export function defaultWorkers(databaseUrl: string, cores = availableParallelism()): number {
  return databaseIsLocal(databaseUrl) ? Math.max(1, cores - 1) : cores;
}

/**
 * The number of workers, read straight from the environment by the primary, which loads neither
 * the configuration schema (zod) nor anything else of the app: it stays a small supervisor. It
 * agrees with loadConfig's `workers` for every valid setting; an invalid WORKERS (or
 * DATABASE_URL) gives 1, and the single process then stops on loadConfig's error.
 */
export function workersFromEnvironment(env: NodeJS.ProcessEnv): number {
  if (!env.DATABASE_URL) return 1;
  if (env.WORKERS === undefined) return defaultWorkers(env.DATABASE_URL);
  const workers = Number(env.WORKERS);
  return Number.isInteger(workers) && workers >= 1 && workers <= 64 && env.WORKERS.trim() !== "" ? workers : 1;
}

/**
 * V8 settings of every process that serves:
 * - `--max-semi-space-size=4` (workers only: it is fixed when the process starts): a young
 *   generation of 2 × 4 MB instead of 2 × 16 MB. A request's garbage is small and short-lived, and
 *   each worker holds some 20 MB less idle and 40–60 MB less after load, with no measurable cost
 *   per request (decision 0011).
 * - `--no-parallel-scavenge`: the young generation is collected on the thread that serves, not
 *   shared out to V8's helper threads. On these cores PostgreSQL's backends are busy whenever the
 *   server is, and the helpers waited on each other: the parallel scavenges cost twice the CPU of
 *   the same work done by one thread (`--trace-gc-nvp` over one kept database: 0.29 against 0.15 ms
 *   of GC per admin user page, 0.19 against 0.11 per search; seventh session, decision 0037). The pause
 *   is a few ms either way.
 * A setting given on the command line or in NODE_OPTIONS wins, in either of its forms
 * (`--parallel-scavenge` keeps V8's default).
 */
const WORKER_V8_DEFAULTS = ["--max-semi-space-size=4", "--no-parallel-scavenge"];

/**
 * The settings of WORKER_V8_DEFAULTS that V8 reads at each collection, so a process that is
 * already running (the single server process, which no primary started) can still take them with
 * `v8.setFlagsFromString`. A size of the heap is fixed at start and is not among them.
 */
const RUNTIME_V8_DEFAULTS = ["--no-parallel-scavenge"];

/** A V8 flag's name without its value or its `no-` form, dashes for underscores: `--parallel-scavenge`. */
const flagName = (arg: string) => (arg.split("=")[0] as string).replaceAll("_", "-").replace(/^--no-/, "--");

/** `defaults` less those the command line or NODE_OPTIONS already set, either way. */
function notGiven(defaults: string[], execArgv: string[], nodeOptions: string): string[] {
  const given = new Set([...execArgv, ...nodeOptions.split(/\s+/)].filter(Boolean).map(flagName));
  return defaults.filter((flag) => !given.has(flagName(flag)));
}

export function workerExecArgv(execArgv: string[], nodeOptions = ""): string[] {
  return [...notGiven(WORKER_V8_DEFAULTS, execArgv, nodeOptions), ...execArgv];
}

/** The V8 settings the single server process sets on itself at start (see RUNTIME_V8_DEFAULTS). */
export function runtimeV8Flags(execArgv: string[], nodeOptions = ""): string[] {
  return notGiven(RUNTIME_V8_DEFAULTS, execArgv, nodeOptions);
}

/**
 * Environment the workers get beyond the primary's: glibc's malloc keeps a pool (arena) per thread
 * that allocates, and argon2 hashes on libuv's threads with 19 MB each, so every arena ends up
 * holding that much after a few concurrent logins (some 40–60 MB more RSS per worker after eight).
 * Two arenas keep it to one or two; a MALLOC_ARENA_MAX already set wins.
 */
export function workerEnvironment(env: NodeJS.ProcessEnv): Record<string, string> {
  return env.MALLOC_ARENA_MAX === undefined ? { MALLOC_ARENA_MAX: "2" } : {};
}

/** Whether this process is the primary of a multi-worker server. */
export const isClusterPrimary = (workers: number): boolean => workers > 1 && cluster.isPrimary;
