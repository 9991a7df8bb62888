import { SCHEDULER_POLL_MS } from "@enmusubi/shared";
import type { BackgroundJob } from "../jobs";
import { dispatchDue } from "./service";

const DISPATCH_BATCH = 1000;

export const scheduledJobs: BackgroundJob[] = [
  {
    // Due scheduled messages, every 5 s (spec §9) on every instance; SKIP LOCKED keeps each send single.
    name: "scheduled-messages",
    everyMs: SCHEDULER_POLL_MS,
    async run(deps, log) {
      // A full batch means more may be due: go on at once instead of waiting for the next tick.
      for (;;) {
        const run = await dispatchDue(deps, log, { max: DISPATCH_BATCH });
        if (run.sent + run.failed > 0) log.info(run, "dispatched scheduled messages");
        if (run.sent + run.failed < DISPATCH_BATCH) return;
      }
    },
  },
];
