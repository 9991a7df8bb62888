import { type Db, mailOutbox } from "@enmusubi/db";

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

/**
 * Queues a mail in the caller's transaction: it is sent only if that transaction commits, and an
 * SMTP outage delays it instead of losing it (the delivery job retries).
 */
export async function enqueueMail(tx: Db, mail: OutgoingMail): Promise<void> {
  await tx.insert(mailOutbox).values(mail);
}
