import type { BackgroundJob } from "../background-job";
import { sweepOrphanPhotos } from "./service";

export const photoJobs: BackgroundJob[] = [
  {
    // Stored photos nobody uses (abandoned drafts) are removed once they are a day old.
    name: "photo-sweep",
    cron: "17 * * * *",
    async run(deps, log) {
      const removed = await sweepOrphanPhotos(deps);
      if (removed > 0) log.info({ removed }, "removed unused photo files");
    },
  },
];
