import { createMemoryMailboxEvents, type MailboxEvents } from "@enmusubi/api";
import type { Database } from "@enmusubi/db";
import type { FastifyBaseLogger } from "fastify";

const CHANNEL = "enmusubi_mailbox";
/** NOTIFY payloads are limited to 8000 bytes: 150 ids of 36 characters fit with room to spare. */
const IDS_PER_NOTIFY = 150;

/**
 * Mailbox events shared by every process on one PostgreSQL (the workers of a cluster, several
 * instances): a change is published with NOTIFY and each process, LISTENing on its own connection,
 * wakes its local subscribers (the live unread counts), its own sends included. A lost
 * notification only delays a count until the client's next read.
 */
export async function createPostgresMailboxEvents(database: Database, log: FastifyBaseLogger): Promise<MailboxEvents> {
  const sql = database.sql;
  if (!sql) throw new Error("PostgreSQL mailbox events need a PostgreSQL database");
  const local = createMemoryMailboxEvents();
  await sql.listen(CHANNEL, (payload) => {
    try {
      local.publish(JSON.parse(payload) as string[]);
    } catch (error) {
      log.warn({ err: error }, "unreadable mailbox notification");
    }
  });
  return {
    publish(userIds) {
      const ids = [...new Set(userIds)];
      for (let i = 0; i < ids.length; i += IDS_PER_NOTIFY) {
        sql
          .notify(CHANNEL, JSON.stringify(ids.slice(i, i + IDS_PER_NOTIFY)))
          .catch((error: unknown) => log.warn({ err: error }, "mailbox notification failed"));
      }
    },
    changes: (userId, signal) => local.changes(userId, signal),
  };
}
