import { SCHEDULER_POLL_MS } from "@enmusubi/shared";
import type { BackgroundJob } from "../jobs";
import { dispatchDue } from "./service";

export const scheduledJobs: BackgroundJob[] = [
  {
    // Due scheduled messages, every 5 s (spec §9) on every instance; SKIP LOCKED keeps each send single.
    name: "scheduled-messages",
    everyMs: SCHEDULER_POLL_MS,
    async run(deps, log) {
      const run = await dispatchDue(deps, log);
      if (run.sent + run.failed > 0) log.info(run, "dispatched scheduled messages");
    },
  },
];
