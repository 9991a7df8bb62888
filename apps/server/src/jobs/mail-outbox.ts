import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { renderMail } from "@enmusubi/api";
import { type Db, mailOutbox } from "@enmusubi/db";
import { eq, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Transporter } from "nodemailer";

export interface MailTransport {
  send(mail: { to: string; subject: string; text: string; id: string }): Promise<void>;
}

/**
 * SMTP when `SMTP_URL` is set; otherwise each mail becomes an `.eml` file under `DATA_DIR/mail`
 * and a log line, so a development machine needs no mail server. The mails carry passwords: the
 * directory is the owner's only (0700) and each file is readable by the owner only (0600).
 */
export function createMailTransport(
  options: { smtpUrl: string | undefined; from: string; dataDir: string },
  log: FastifyBaseLogger,
): MailTransport {
  // nodemailer is loaded by the first mail, not by every worker at start.
  const nodemailer = () => import("nodemailer").then((module) => module.default);
  const { smtpUrl } = options;
  if (smtpUrl) {
    let smtp: Transporter | undefined;
    return {
      async send(mail) {
        smtp ??= (await nodemailer()).createTransport(smtpUrl);
        await smtp.sendMail({ from: options.from, to: mail.to, subject: mail.subject, text: mail.text });
      },
    };
  }
  const dir = path.join(options.dataDir, "mail");
  let stream: Transporter | undefined;
  return {
    async send(mail) {
      stream ??= (await nodemailer()).createTransport({ streamTransport: true, buffer: true, newline: "unix" });
      const info = await stream.sendMail({ from: options.from, to: mail.to, subject: mail.subject, text: mail.text });
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      chmodSync(dir, 0o700); // also when an earlier version created it world-readable
      const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${mail.id}.eml`);
      writeFileSync(file, info.message as Buffer, { mode: 0o600, flag: "wx" });
      log.info({ to: mail.to, subject: mail.subject, file }, "mail written to file (SMTP_URL not set)");
    },
  };
}

export const MAIL_MAX_ATTEMPTS = 8;
/** While a worker sends a claimed mail, other workers leave it alone for this long. */
const LEASE_SECONDS = 120;

/** Seconds to wait before attempt n+1: 30 s, 1 min, 2 min… capped at 1 h. */
export const retryDelaySeconds = (attempts: number) => Math.min(30 * 2 ** (attempts - 1), 3600);

/**
 * Sends the due mails of the outbox. Rows are claimed with `FOR UPDATE SKIP LOCKED` and leased, so
 * several workers (or server instances) never send one mail twice; a failed send is retried with
 * backoff and given up (status failed) after MAIL_MAX_ATTEMPTS. Returns how many were sent.
 */
export async function deliverDueMail(
  db: Db,
  transport: MailTransport,
  log: FastifyBaseLogger,
  batch = 20,
): Promise<number> {
  type Claimed = { id: string; to: string; subject: string; text: string; secret: string | null; attempts: number };
  const claimed = await db.execute<Claimed>(sql`
    update ${mailOutbox}
       set attempts = attempts + 1, next_attempt_at = now() + make_interval(secs => ${LEASE_SECONDS})
     where id in (
       select id from ${mailOutbox}
        where status = 'pending' and next_attempt_at <= now()
        order by next_attempt_at
        limit ${batch}
        for update skip locked)
    returning id, "to", subject, text, secret, attempts`);
  const rows = Array.isArray(claimed) ? claimed : (claimed as { rows: typeof claimed }).rows;
  let sent = 0;
  for (const mail of rows as Claimed[]) {
    try {
      await transport.send({ id: mail.id, to: mail.to, subject: mail.subject, text: renderMail(mail) });
      // The secret (a generated password) is not kept once the mail has gone.
      await db
        .update(mailOutbox)
        .set({ status: "sent", sentAt: new Date(), lastError: null, secret: null })
        .where(eq(mailOutbox.id, mail.id));
      sent += 1;
    } catch (error) {
      const giveUp = mail.attempts >= MAIL_MAX_ATTEMPTS;
      log.warn({ err: error, mailId: mail.id, attempts: mail.attempts, giveUp }, "mail delivery failed");
      await db
        .update(mailOutbox)
        .set({
          status: giveUp ? "failed" : "pending",
          ...(giveUp ? { secret: null } : {}),
          lastError: String((error as Error)?.message ?? error).slice(0, 1000),
          nextAttemptAt: sql`now() + make_interval(secs => ${retryDelaySeconds(mail.attempts)})`,
        })
        .where(eq(mailOutbox.id, mail.id));
    }
  }
  return sent;
}
