import cluster, { type Worker } from "node:cluster";

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
export function runPrimary(workers: number): void {
  const listening = new Set<Worker>();
  let stopping = false;
  let startedAll = false;
  let exitCode = 0;
  const line = (level: number, msg: string, extra: Record<string, unknown> = {}) =>
    process.stdout.write(`${JSON.stringify({ level, time: Date.now(), pid: process.pid, ...extra, msg })}\n`);

  const fork = () => {
    const worker = cluster.fork();
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

  line(30, `starting ${workers} workers`, { workers });
  fork();
}

/** Whether this process is the primary of a multi-worker server. */
export const isClusterPrimary = (workers: number): boolean => workers > 1 && cluster.isPrimary;
