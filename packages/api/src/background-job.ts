import type { ApiDeps } from "./deps";

/** What a background job may log (the host passes its logger). */
export interface JobLog {
  info(details: Record<string, unknown>, message: string): void;
  error(details: Record<string, unknown>, message: string): void;
}

/**
 * A job a domain runs on a schedule; the server's job runner registers each one (apps/server/src/jobs).
 * Either `cron` (minute granularity, once across all instances) or `everyMs` (a poll shorter than a
 * minute: every instance runs it, one run after another, so it must be safe to run concurrently).
 */
export type BackgroundJob = {
  /** Queue name: unique, kebab-case. */
  name: string;
  run(deps: ApiDeps, log: JobLog): Promise<void>;
} & ({ /** Cron expression (UTC). */ cron: string; everyMs?: never } | { everyMs: number; cron?: never });
