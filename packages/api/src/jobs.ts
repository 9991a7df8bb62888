import type { ApiDeps } from "./context";
import { photoJobs } from "./photos/jobs";
import { pointsJobs } from "./points/jobs";

/** What a background job may log (the host passes its logger). */
export interface JobLog {
  info(details: Record<string, unknown>, message: string): void;
  error(details: Record<string, unknown>, message: string): void;
}

/** A job a domain runs on a schedule; the server's job runner registers each one (apps/server/src/jobs). */
export interface BackgroundJob {
  /** Queue name: unique, kebab-case. */
  name: string;
  /** Cron expression (UTC). */
  cron: string;
  run(deps: ApiDeps, log: JobLog): Promise<void>;
}

/** Every domain's jobs; a new domain adds its list here, like a router in root.ts. */
export const backgroundJobs: BackgroundJob[] = [...pointsJobs, ...photoJobs];
