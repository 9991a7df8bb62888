import { createMemoryMailboxEvents, type MailboxEvents, type MemberChange } from "@enmusubi/api";
import type { Database } from "@enmusubi/db";
import type { FastifyBaseLogger } from "fastify";

const CHANNEL = "enmusubi_mailbox";
/** NOTIFY payloads are limited to 8000 bytes: 150 ids of 36 characters fit with room to spare. */
const IDS_PER_NOTIFY = 150;
/**
 * A process sends a change at once, then gathers the changes published in the next 20 ms into one
 * NOTIFY per kind (decision 0037): under load a NOTIFY per request was a statement of its own on every
 * send and every worker parsed each one; a live figure that moves 20 ms later is not seen.
 */
export const NOTIFY_WINDOW_MS = 20;

/**
 * A notification's payload: a mailbox change is the array of ids (as before balance changes
 * shared the channel, so a process of the previous version still reads it); any other change is
 * `{ change, ids }`.
 */
function payloadOf(ids: string[], change: MemberChange): string {
  return JSON.stringify(change === "mailbox" ? ids : { change, ids });
}

function readPayload(payload: string): { ids: string[]; change: MemberChange } {
  const parsed = JSON.parse(payload) as string[] | { change: string; ids: string[] };
  if (Array.isArray(parsed)) return { ids: parsed, change: "mailbox" };
  if (!Array.isArray(parsed.ids)) throw new Error("no ids");
  return { ids: parsed.ids, change: parsed.change === "balance" ? "balance" : "mailbox" };
}

/**
 * Member events shared by every process on one PostgreSQL (the workers of a cluster, several
 * instances): a change of a member's mailbox or balance is published with NOTIFY and each process,
 * LISTENing on its own connection, wakes its local subscribers (the live unread counts and
 * balances), its own changes included. A lost notification only delays a figure until the
 * client's next read.
 */
export async function createPostgresMailboxEvents(database: Database, log: FastifyBaseLogger): Promise<MailboxEvents> {
  const sql = database.sql;
  if (!sql) throw new Error("PostgreSQL mailbox events need a PostgreSQL database");
  const local = createMemoryMailboxEvents();
  await sql.listen(CHANNEL, (payload) => {
    try {
      const { ids, change } = readPayload(payload);
      local.publish(ids, change);
    } catch (error) {
      log.warn({ err: error }, "unreadable mailbox notification");
    }
  });
  const send = (ids: string[], change: MemberChange) => {
    for (let i = 0; i < ids.length; i += IDS_PER_NOTIFY) {
      sql
        .notify(CHANNEL, payloadOf(ids.slice(i, i + IDS_PER_NOTIFY), change))
        .catch((error: unknown) => log.warn({ err: error }, "mailbox notification failed"));
    }
  };
  // The changes published since the window opened, per kind; no window open: the next goes at once.
  let gathered = new Map<MemberChange, Set<string>>();
  let window: NodeJS.Timeout | undefined;
  const openWindow = () => {
    // Unreferenced: a process that is shutting down does not wait for it (a lost change only
    // delays a figure until the client's next read).
    window = setTimeout(closeWindow, NOTIFY_WINDOW_MS).unref();
  };
  const closeWindow = () => {
    window = undefined;
    if (gathered.size === 0) return;
    const batch = gathered;
    gathered = new Map();
    for (const [change, ids] of batch) send([...ids], change);
    openWindow();
  };
  return {
    publish(userIds, change = "mailbox") {
      if (window === undefined) {
        send([...new Set(userIds)], change);
        openWindow();
        return;
      }
      let ids = gathered.get(change);
      if (!ids) {
        ids = new Set();
        gathered.set(change, ids);
      }
      for (const id of userIds) ids.add(id);
    },
    changes: (userId, signal) => local.changes(userId, signal),
  };
}
