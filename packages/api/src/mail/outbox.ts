import { type Db, mailOutbox } from "@enmusubi/db";

/** Where a mail's one-time secret goes in its text; the stored text never holds the secret itself. */
export const SECRET_PLACEHOLDER = "{{secret}}";

export interface OutgoingMail {
  to: string;
  subject: string;
  /** The body; write SECRET_PLACEHOLDER where `secret` belongs. */
  text: string;
  /** A generated password: kept only until the mail is sent (or given up), then erased. */
  secret?: string;
}

/**
 * Queues a mail in the caller's transaction: it is sent only if that transaction commits, and an
 * SMTP outage delays it instead of losing it (the delivery job retries).
 */
export async function enqueueMail(tx: Db, mail: OutgoingMail): Promise<void> {
  await tx.insert(mailOutbox).values(mail);
}

/** The text to send: the placeholder replaced by the secret while it is still kept. */
export function renderMail(mail: { text: string; secret: string | null }): string {
  return mail.secret === null ? mail.text : mail.text.replaceAll(SECRET_PLACEHOLDER, mail.secret);
}
