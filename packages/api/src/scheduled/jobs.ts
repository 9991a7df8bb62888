import { SCHEDULER_POLL_MS } from "@enmusubi/shared";
import type { BackgroundJob, JobLog } from "../background-job";
import type { ApiDeps } from "../deps";
import { dispatchDue } from "./dispatch";

const DISPATCH_BATCH = 1000;

/**
 * Dispatcher loops per instance. Each claims its own batches (SKIP LOCKED keeps them apart), so
 * one loop's round trips to the database overlap another's sends; two leave the pool's other
 * connections to requests.
 */
export const DISPATCH_LOOPS = 2;

/** Every due scheduled message, by DISPATCH_LOOPS loops; answers what was handled. */
export async function dispatchAllDue(deps: ApiDeps, log?: JobLog): Promise<{ sent: number; failed: number }> {
  const total = { sent: 0, failed: 0 };
  await Promise.all(
    Array.from({ length: DISPATCH_LOOPS }, async () => {
      // A full run means more may be due: go on at once instead of waiting for the next tick.
      for (;;) {
        const run = await dispatchDue(deps, log, { max: DISPATCH_BATCH });
        total.sent += run.sent;
        total.failed += run.failed;
        if (run.sent + run.failed < DISPATCH_BATCH) return;
      }
    }),
  );
  return total;
}

export const scheduledJobs: BackgroundJob[] = [
  {
    // Due scheduled messages, every 5 s (spec §9) on every instance; SKIP LOCKED keeps each send single.
    name: "scheduled-messages",
    everyMs: SCHEDULER_POLL_MS,
    async run(deps, log) {
      const run = await dispatchAllDue(deps, log);
      if (run.sent + run.failed > 0) log.info(run, "dispatched scheduled messages");
    },
  },
];
