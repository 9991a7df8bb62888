import type { BackgroundJob } from "../background-job";
import { sweepRateLimitCounters } from "./rate-limit";

export const securityJobs: BackgroundJob[] = [
  {
    // Rate-limit counters whose window has ended count nothing any more: removed every ten minutes.
    name: "rate-limit-sweep",
    cron: "*/10 * * * *",
    async run(deps, log) {
      const removed = await sweepRateLimitCounters(deps.db);
      if (removed > 0) log.info({ removed }, "removed ended rate-limit windows");
    },
  },
];
