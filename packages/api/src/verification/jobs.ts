import type { BackgroundJob } from "../background-job";
import { expireIdImages } from "./service";

export const verificationJobs: BackgroundJob[] = [
  {
    // ID images are deleted ID_IMAGE_RETENTION_HOURS after submission at the latest, whatever their state (privacy policy).
    name: "id-image-expiry",
    cron: "*/10 * * * *",
    async run(deps, log) {
      const run = await expireIdImages(deps);
      if (run.deleted + run.strayFiles > 0) log.info(run, "deleted expired ID images");
    },
  },
];
