import { forgetReferenceList, REFERENCE_CHANNEL, REFERENCE_LISTS, type ReferenceList } from "@enmusubi/api";
import type { Database } from "@enmusubi/db";
import type { FastifyBaseLogger } from "fastify";

/**
 * Keeps this process's copies of the reference lists (packages/api/src/reference/cache.ts) true
 * when another process changes one: each change NOTIFYs REFERENCE_CHANNEL on commit, and this
 * process drops its copy when the notification arrives. Every (re)connection of the LISTEN
 * connection drops all copies, since notifications sent while it was down are lost.
 */
export async function listenReferenceChanges(database: Database, log: FastifyBaseLogger): Promise<void> {
  const sql = database.sql;
  if (!sql) throw new Error("reference notifications need a PostgreSQL database");
  await sql.listen(
    REFERENCE_CHANNEL,
    (payload) => {
      if (REFERENCE_LISTS.includes(payload as ReferenceList))
        forgetReferenceList(database.db, payload as ReferenceList);
      else {
        log.warn({ payload: payload.slice(0, 100) }, "unknown reference notification; forgetting every list");
        forgetReferenceList(database.db);
      }
    },
    () => forgetReferenceList(database.db),
  );
}
