import { backgroundJobs } from "@enmusubi/api";
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
  for (const job of backgroundJobs) {
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
    await boss.stop({ graceful: true, timeout: 5000 });
  });
}
