import type { Db, messages } from "@enmusubi/db";
import { inArray, or, type SQL, sql } from "drizzle-orm";
import { accountNamed, accountsNamed } from "../search/grams";

/**
 * The mail screens' sender / recipient search: messages whose other side — the account in one of
 * `columns` — has a name containing the keyword (administrators: or a userID). It replaces the
 * select that offered only the people among the newest messages loaded.
 *
 * - A keyword of TRIGRAM_MIN characters or more matching at most SEARCH_MAX_ACCOUNTS accounts
 *   (search/grams.ts): the accounts are found through the users trigram indexes (`accountsNamed`),
 *   and their messages through the box's index as a constant id list.
 * - A shorter keyword (a Japanese name is often two characters: 花子, 佐藤) has no trigram, and a
 *   broad one would make that list as large as the membership: each message of the box looks its
 *   other side up by primary key instead (`accountNamed`, a scalar subquery per row). The box
 *   bounds the work: a member's own messages, walked in their index (messages_to_live_idx /
 *   messages_from_live_idx);
 *   the administrators' lists add their newest-messages window (admin-search.ts).
 */
export async function partnerWhere(
  db: Db,
  columns: Array<typeof messages.fromUserId | typeof messages.toUserId>,
  keyword: string,
  options: { userId: boolean },
): Promise<{ where: SQL; indexed: boolean }> {
  const ids = await accountsNamed(db, keyword, options);
  if (ids) {
    const where = ids.length > 0 ? or(...columns.map((column) => inArray(column, ids))) : undefined;
    return { where: where ?? sql`false`, indexed: true };
  }
  const party = (column: (typeof columns)[number]) => accountNamed(column, keyword, options);
  return { where: or(...columns.map(party)) ?? sql`false`, indexed: false };
}
