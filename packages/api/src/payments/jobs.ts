import type { BackgroundJob } from "../jobs";
import { pruneNotificationNonces } from "./service";

export const paymentJobs: BackgroundJob[] = [
  {
    // Replay protection needs a nonce only while its notification's timestamp is accepted (5 min).
    name: "payment-nonce-prune",
    cron: "17 3 * * *",
    async run(deps, log) {
      const removed = await pruneNotificationNonces(deps.db);
      if (removed > 0) log.info({ removed }, "pruned old payment notification nonces");
    },
  },
];
