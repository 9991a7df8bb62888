import type { BackgroundJob } from "../background-job";
import { purgeWithdrawn } from "./retention";

export const accountJobs: BackgroundJob[] = [
  {
    // The personal data of members who withdrew goes once the retention ends (decision 0034).
    name: "withdrawn-retention",
    cron: "37 * * * *",
    async run(deps, log) {
      for (let round = 0; round < 100; round += 1) {
        const run = await purgeWithdrawn(deps);
        if (run.members > 0) log.info({ members: run.members }, "deleted withdrawn members' personal data");
        if (run.members < 100) break;
      }
    },
  },
];
