import { accountJobs } from "./accounts/jobs";
import type { BackgroundJob } from "./background-job";
import { noticeJobs } from "./notices/jobs";
import { paymentJobs } from "./payments/jobs";
import { photoJobs } from "./photos/jobs";
import { pointsJobs } from "./points/jobs";
import { scheduledJobs } from "./scheduled/jobs";
import { securityJobs } from "./security/jobs";
import { verificationJobs } from "./verification/jobs";

/** Every domain's jobs; a new domain adds its list here, like a router in root.ts. */
export const backgroundJobs: BackgroundJob[] = [
  ...pointsJobs,
  ...photoJobs,
  ...scheduledJobs,
  ...paymentJobs,
  ...verificationJobs,
  ...securityJobs,
  ...noticeJobs,
  ...accountJobs,
];
