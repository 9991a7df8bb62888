import { refundExpiredPrepaid, sweepOrphanPhotos } from "@enmusubi/api";
import type { FastifyInstance } from "fastify";
import { fromPglite, PgBoss } from "pg-boss";
import { createMailTransport, deliverDueMail } from "./mail-outbox";

const MAIL_QUEUE = "mail-outbox";
const PREPAID_REFUND_QUEUE = "prepaid-refund";
const PHOTO_SWEEP_QUEUE = "photo-sweep";

/**
 * Background jobs on pg-boss, in the same PostgreSQL (or PGlite) as the data. The mail queue is
 * woken right after a transaction queues mail, and swept every minute for retries; expired
 * prepaid points are refunded every minute; stored photos nobody uses are removed every hour.
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
  // Points prepaid through the legacy deduct-points call and never used go back to the member.
  await boss.createQueue(PREPAID_REFUND_QUEUE);
  await boss.schedule(PREPAID_REFUND_QUEUE, "* * * * *");
  await boss.work(PREPAID_REFUND_QUEUE, async () => {
    const refunded = await refundExpiredPrepaid(database.db);
    if (refunded > 0) app.log.info({ refunded }, "refunded expired prepaid points");
  });

  await boss.createQueue(PHOTO_SWEEP_QUEUE);
  await boss.schedule(PHOTO_SWEEP_QUEUE, "17 * * * *");
  await boss.work(PHOTO_SWEEP_QUEUE, async () => {
    const removed = await sweepOrphanPhotos(app.deps);
    if (removed > 0) app.log.info({ removed }, "removed unused photo files");
  });

  mailKick.fn = () => {
    boss.send(MAIL_QUEUE, {}, { singletonKey: "kick", singletonSeconds: 1 }).catch((error: unknown) => {
      app.log.warn({ err: error }, "could not wake the mail job; the minute sweep will send it");
    });
  };
  app.addHook("onClose", async () => {
    await boss.stop({ graceful: true, timeout: 5000 });
  });
}
