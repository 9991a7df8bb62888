import type { BackgroundJob } from "../background-job";
import { pruneNotificationNonces, pruneRefusedNotifications } from "./notifications";
import { failExpiredCardOrders, failExpiredSmartPit } from "./transactions";

export const paymentJobs: BackgroundJob[] = [
  {
    // A SmartPit code past its validity can no longer be paid at a store: the order ends as failed.
    name: "smartpit-code-expiry",
    cron: "*/10 * * * *",
    async run(deps, log) {
      const failed = await failExpiredSmartPit(deps.db);
      if (failed > 0) log.info({ failed }, "SmartPit orders past their code's validity marked failed");
    },
  },
  {
    // A card order whose payment page was left unfinished ends as failed (a late payment is reinstated).
    name: "card-order-expiry",
    cron: "*/10 * * * *",
    async run(deps, log) {
      const failed = await failExpiredCardOrders(deps.db);
      if (failed > 0) log.info({ failed }, "card orders without a result from the processor marked failed");
    },
  },
  {
    // Replay protection needs a nonce only while its notification's timestamp is accepted (5 min).
    name: "payment-nonce-prune",
    cron: "17 3 * * *",
    async run(deps, log) {
      const removed = await pruneNotificationNonces(deps.db);
      if (removed > 0) log.info({ removed }, "pruned old payment notification nonces");
      // Records of refused or duplicate notifications (no money moved) after 90 days; money's records stay.
      const refused = await pruneRefusedNotifications(deps.db);
      if (refused > 0) log.info({ refused }, "pruned old records of refused payment notifications");
    },
  },
];
