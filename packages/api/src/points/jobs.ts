import type { BackgroundJob } from "../background-job";
import { expireLots } from "./expiry";
import { sendExpiryNotices } from "./expiry-notice";
import { refundExpiredPrepaid } from "./prepaid";

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
  {
    // Points past their lot's expiry (3 years when bought, §9) leave the balance through an `expire` row.
    name: "point-lot-expiry",
    cron: "7 * * * *",
    async run(deps, log) {
      // Batches until a short one (members whose run failed are left for the next hour, not retried now).
      for (let round = 0; round < 1000; round += 1) {
        const run = await expireLots(deps.db);
        if (run.members > 0) log.info({ members: run.members, points: run.points }, "expired point lots");
        for (const failure of run.failed) {
          log.error({ err: failure.error, userId: failure.userId }, "point lot expiry failed; retried next run");
        }
        if (run.due < 100 || run.members === 0) break;
      }
    },
  },
  {
    // 7 days before a lot's points expire, its owner is told by mail, once per lot (decision 0034).
    name: "point-expiry-notice",
    cron: "17 * * * *",
    async run(deps, log) {
      for (let round = 0; round < 100; round += 1) {
        const run = await sendExpiryNotices(deps);
        if (run.mails > 0) {
          log.info({ lots: run.lots, mails: run.mails }, "queued point expiry notices");
          deps.onMailQueued();
        }
        if (run.lots < 500) break;
      }
    },
  },
];
