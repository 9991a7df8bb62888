import type { Database } from "@enmusubi/db";
import { appTables, changedTables, rowsOf } from "./fingerprint";

/**
 * Which tables a call wrote, cheaply enough to ask after every one of a hundred thousand calls
 * (property-bad-input-*.test.ts). `databaseFingerprint` digests every row as text (tens of ms);
 * this asks up to three cheaper questions, each of which can only say "nothing changed" when
 * nothing did:
 *
 * 0. PGlite only: did the call send the database anything at all? Every statement, transaction
 *    command and notification of the embedded instance passes through its one protocol entry
 *    (`execProtocolRawSync`), which the guard counts. No message since the last check, no change,
 *    and no query is needed: most refusals (no session to look up, the input refused before any
 *    statement) end here. The guard proves on every query of its own that the count still moves,
 *    so a PGlite that routed statements elsewhere would fail loudly instead of passing.
 * 1. Has any transaction that wrote committed since the last check? Every row version a committed
 *    INSERT, UPDATE or DELETE writes needs a transaction id, and the next id to be assigned
 *    (`pg_snapshot_xmax` of the current snapshot) moves past it. When it has not moved, no row of
 *    any table changed. It is one trivial query. The counter is the whole server's: on a shared
 *    PostgreSQL other test files move it too, and a call that wrote and rolled back moves it, so
 *    a moved counter only sends the check on to question 2.
 * 2. Which tables differ? Per table, the row count and the sum of the rows' `xmin` (the id of the
 *    transaction that wrote each row version). An insert changes the count; a delete changes the
 *    count or, when rows were also written, the sum; an update replaces a row version by one
 *    whose xmin is newer than every row already committed, so the sum grows. Whatever a
 *    committed transaction does to a table, one of the two changes. Freezing keeps the raw xmin.
 *
 * The counter is read before the table digest, so a write that lands between the two is seen by
 * the next check rather than lost. The tables are those of the schema when the guard is made.
 */
export interface WriteGuard {
  /** The tables whose rows changed since the previous call of `changed` (or since the guard was made). */
  changed(): Promise<string[]>;
}

const NEXT_XID = "select pg_snapshot_xmax(pg_current_snapshot())::text as xid";

type ProtocolEntry = { execProtocolRawSync(message: Uint8Array): unknown };

export async function createWriteGuard(database: Database): Promise<WriteGuard> {
  const tables = await appTables(database);
  // One row, "table=count/sum;…", in the format `changedTables` reads.
  const digestSql = `select ${tables
    .map((t) => `'${t}=' || (select count(*) || '/' || coalesce(sum(xmin::text::bigint), 0) from "${t}")`)
    .join(" || ';' || ")} as digest`;

  let messages = 0;
  const pglite = database.pglite as unknown as ProtocolEntry | undefined;
  if (pglite) {
    const entry = pglite.execProtocolRawSync.bind(pglite);
    pglite.execProtocolRawSync = (message) => {
      messages += 1;
      return entry(message);
    };
  }

  // Straight to the driver: drizzle's `execute` adds its type parsers to every query, which
  // costs more than the query itself on PGlite.
  const one = async (sql: string): Promise<string> => {
    const before = messages;
    const rows = database.pglite
      ? (await database.pglite.query<Record<string, string>>(sql)).rows
      : database.sql
        ? await database.sql.unsafe<Record<string, string>[]>(sql)
        : rowsOf<Record<string, string>>(await database.db.execute(sql));
    if (pglite && messages === before)
      throw new Error("PGlite sent a query past execProtocolRawSync: the write guard is blind");
    return Object.values(rows[0] ?? {})[0] ?? "";
  };

  let xid = await one(NEXT_XID);
  let rows = await one(digestSql);
  let seen = messages;
  return {
    async changed() {
      if (pglite && messages === seen) return [];
      const nowXid = await one(NEXT_XID);
      seen = messages;
      if (nowXid === xid) return [];
      xid = nowXid;
      const nowRows = await one(digestSql);
      seen = messages;
      const changed = changedTables(rows, nowRows);
      rows = nowRows;
      return changed;
    },
  };
}
