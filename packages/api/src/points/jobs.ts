import type { BackgroundJob } from "../jobs";
import { refundExpiredPrepaid } from "./ledger";

export const pointsJobs: BackgroundJob[] = [
  {
    // Points prepaid through the legacy deduct-points call and never used go back to the member.
    name: "prepaid-refund",
    cron: "* * * * *",
    async run(deps, log) {
      const run = await refundExpiredPrepaid(deps.db);
      if (run.refunded > 0) log.info({ refunded: run.refunded }, "refunded expired prepaid points");
      for (const failure of run.failed) {
        log.error({ err: failure.error, creditId: failure.creditId }, "prepaid refund failed; retried next run");
      }
    },
  },
];
