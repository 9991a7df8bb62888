import { type Db, type messages, users } from "@enmusubi/db";
import { ilike, inArray, or, type SQL, sql } from "drizzle-orm";
import { likeEscape } from "../lists/like";
import { SEARCH_MAX_ACCOUNTS, TRIGRAM_MIN } from "./admin-search";

/**
 * The mail screens' sender / recipient search (issue 24): messages whose other side — the account
 * in one of `columns` — has a name containing the keyword (administrators: or a userID). It replaces the
 * select that offered only the people among the newest messages loaded.
 *
 * - A keyword of TRIGRAM_MIN characters or more matching at most SEARCH_MAX_ACCOUNTS accounts: the
 *   accounts are found through the users trigram indexes (users_name_trgm_idx,
 *   users_user_id_trgm_idx), and their messages through the box's index as a constant id list.
 * - A shorter keyword (a Japanese name is often two characters: 花子, 佐藤) has no trigram, and a
 *   broad one would make that list as large as the membership: each message of the box looks its
 *   other side up by primary key instead (a scalar subquery per row). The box bounds the work: a
 *   member's own messages, walked in their index (messages_to_live_idx / messages_from_live_idx);
 *   the administrators' lists add their newest-messages window (admin-search.ts).
 */
export async function partnerWhere(
  db: Db,
  columns: Array<typeof messages.fromUserId | typeof messages.toUserId>,
  keyword: string,
  options: { userId: boolean },
): Promise<{ where: SQL; indexed: boolean }> {
  const like = `%${likeEscape(keyword)}%`;
  if ([...keyword].length >= TRIGRAM_MIN) {
    const accounts = await db
      .select({ id: users.id })
      .from(users)
      .where(options.userId ? or(ilike(users.name, like), ilike(users.userId, like)) : ilike(users.name, like))
      .limit(SEARCH_MAX_ACCOUNTS + 1);
    if (accounts.length <= SEARCH_MAX_ACCOUNTS) {
      const ids = accounts.map((a) => a.id);
      const where = ids.length > 0 ? or(...columns.map((column) => inArray(column, ids))) : undefined;
      return { where: where ?? sql`false`, indexed: true };
    }
  }
  const matches = options.userId
    ? sql`partner.name ilike ${like} or partner.user_id ilike ${like}`
    : sql`partner.name ilike ${like}`;
  const party = (column: (typeof columns)[number]) =>
    sql`coalesce((select ${matches} from ${users} as partner where partner.id = ${column}), false)`;
  return { where: or(...columns.map(party)) ?? sql`false`, indexed: false };
}
