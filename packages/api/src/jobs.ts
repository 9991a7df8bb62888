import type { BackgroundJob } from "./background-job";
import { paymentJobs } from "./payments/jobs";
import { photoJobs } from "./photos/jobs";
import { pointsJobs } from "./points/jobs";
import { scheduledJobs } from "./scheduled/jobs";
import { securityJobs } from "./security/jobs";
import { verificationJobs } from "./verification/jobs";

/** Until points/jobs.ts and scheduled/ import the leaf module themselves (issue 22: no type cycle with this registry). */
export type { BackgroundJob, JobLog } from "./background-job";

/** Every domain's jobs; a new domain adds its list here, like a router in root.ts. */
export const backgroundJobs: BackgroundJob[] = [
  ...pointsJobs,
  ...photoJobs,
  ...scheduledJobs,
  ...paymentJobs,
  ...verificationJobs,
  ...securityJobs,
];
