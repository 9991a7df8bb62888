import { type BackgroundJob, backgroundJobs } from "@enmusubi/api";
import type { FastifyInstance } from "fastify";
import { fromPglite, PgBoss } from "pg-boss";
import { createMailTransport, deliverDueMail } from "./mail-outbox";

const MAIL_QUEUE = "mail-outbox";

/**
 * Background jobs on pg-boss, in the same PostgreSQL (or PGlite) as the data. The mail queue is
 * woken right after a transaction queues mail, and swept every minute for retries; the domains'
 * own jobs (refunds of expired prepaid points, the unused-photo sweep…) run on their schedules.
 */
export async function registerJobs(app: FastifyInstance, mailKick: { fn: () => void }): Promise<void> {
  const { database, config } = app;
  const boss = database.pglite
    ? new PgBoss({ db: fromPglite(database.pglite), backend: "pglite" })
    : new PgBoss({ connectionString: database.url ?? config.databaseUrl, max: 4 });
  boss.on("error", (error) => app.log.error({ err: error }, "job queue error"));
  await boss.start();
  await boss.createQueue(MAIL_QUEUE);
  await boss.schedule(MAIL_QUEUE, "* * * * *");

  const transport = createMailTransport(
    { smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir },
    app.log,
  );
  await boss.work(MAIL_QUEUE, { pollingIntervalSeconds: 2 }, async () => {
    while ((await deliverDueMail(database.db, transport, app.log)) > 0) {
      // keep going while full batches were sent
    }
  });
  // Each domain's scheduled jobs (packages/api/src/jobs.ts). A failing run is logged and retried on schedule.
  const stopLoops: Array<() => Promise<void>> = [];
  for (const job of backgroundJobs) {
    if (job.everyMs !== undefined) {
      stopLoops.push(startLoop(job, job.everyMs, app));
      continue;
    }
    await boss.createQueue(job.name);
    await boss.schedule(job.name, job.cron);
    await boss.work(job.name, async () => {
      try {
        await job.run(app.deps, app.log);
      } catch (error) {
        app.log.error({ err: error, job: job.name }, "background job failed");
        throw error;
      }
    });
  }

  mailKick.fn = () => {
    boss.send(MAIL_QUEUE, {}, { singletonKey: "kick", singletonSeconds: 1 }).catch((error: unknown) => {
      app.log.warn({ err: error }, "could not wake the mail job; the minute sweep will send it");
    });
  };
  app.addHook("onClose", async () => {
    await Promise.all(stopLoops.map((stop) => stop()));
    await boss.stop({ graceful: true, timeout: 5000 });
  });
}

/**
 * A job polled more often than cron allows (pg-boss schedules by the minute): run on this
 * instance every `everyMs`, the next run starting only after the previous one ended. Every
 * instance runs its own loop, so the job must be safe to run concurrently (the scheduled-message
 * dispatcher claims rows with SKIP LOCKED). Answers a stop that waits for a run in progress.
 */
export function startLoop(job: BackgroundJob, everyMs: number, app: Pick<FastifyInstance, "deps" | "log">) {
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    running = job
      .run(app.deps, app.log)
      .catch((error: unknown) => app.log.error({ err: error, job: job.name }, "background job failed"))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, everyMs);
      });
  };
  timer = setTimeout(tick, everyMs);
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}
