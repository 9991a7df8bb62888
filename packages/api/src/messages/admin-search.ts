import { type Db, messages, users } from "@enmusubi/db";
import { and, desc, ilike, inArray, isNull, or, type SQL, sql } from "drizzle-orm";
import { likeEscape } from "../lists/like";

/**
 * The search box of the administrators' message lists (email management, sent, inbox): a word in
 * the body, or in the sender's / recipient's name or userID, bounded at any number of messages.
 *
 * - A keyword of TRIGRAM_MIN characters or more that matches at most SEARCH_MAX_ACCOUNTS accounts
 *   is searched in every message through indexes: the body through the trigram GIN index
 *   (messages_body_trgm_idx), the accounts through the users trigram indexes first, then their
 *   messages through the sender / recipient indexes (a constant id list the planner can combine
 *   with the body index in a BitmapOr).
 * - A shorter keyword has no trigram, so no index can serve `ILIKE '%ab%'`; a keyword matching more
 *   accounts (say "bm0", or a common surname) would make that id list as large as the membership.
 *   Both search the newest SEARCH_WINDOW live messages only: the work is bounded (the same as on
 *   a site with SEARCH_WINDOW messages in all) and the screen says so. Measured with `pnpm bench`
 *   at 1,000,000 messages: a 2-character keyword over every message took seconds (its count
 *   tens of seconds), within the window tens of milliseconds.
 */
export const TRIGRAM_MIN = 3;
export const SEARCH_MAX_ACCOUNTS = 1000;
export const SEARCH_WINDOW = 10_000;

export interface AdminSearch {
  where: SQL;
  /** Set when only the newest `window` messages were searched (short or broad keyword). */
  window: number | null;
}

export async function adminSearch(db: Db, keyword: string): Promise<AdminSearch> {
  const like = `%${likeEscape(keyword)}%`;
  if ([...keyword].length >= TRIGRAM_MIN) {
    const accounts = await db
      .select({ id: users.id })
      .from(users)
      .where(or(ilike(users.name, like), ilike(users.userId, like)))
      .limit(SEARCH_MAX_ACCOUNTS + 1);
    if (accounts.length <= SEARCH_MAX_ACCOUNTS) {
      const ids = accounts.map((a) => a.id);
      const byAccount = ids.length > 0 ? [inArray(messages.fromUserId, ids), inArray(messages.toUserId, ids)] : [];
      return { where: or(ilike(messages.body, like), ...byAccount) as SQL, window: null };
    }
  }
  // Each row's sender and recipient are then looked up by primary key.
  const window = await newestWindow(db);
  // A scalar subquery, looked up by primary key for each row of the window: written as EXISTS, the
  // planner turned it into a hash of every matching account (a scan of all members, seconds at
  // 1,000,000 of them) instead of 2 × SEARCH_WINDOW lookups.
  const party = (column: typeof messages.fromUserId | typeof messages.toUserId) =>
    sql`coalesce((select search_party.name ilike ${like} or search_party.user_id ilike ${like}
      from ${users} as search_party where search_party.id = ${column}), false)`;
  const where = sql`(${ilike(messages.body, like)} or ${party(messages.fromUserId)} or ${party(messages.toUserId)})`;
  return { where: window ? (and(window, where) as SQL) : where, window: SEARCH_WINDOW };
}

/**
 * The newest SEARCH_WINDOW live messages (null: there are no more than that): from the created_at
 * of the last of them (an index-only walk of the live index), read first so the planner sees the
 * bound as a value (as a subquery it would guess a third of the table and scan it all).
 */
export async function newestWindow(db: Db): Promise<SQL | null> {
  const [edge] = await db
    .select({ at: sql<string>`${messages.createdAt}::text` })
    .from(messages)
    .where(isNull(messages.deletedAt))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .offset(SEARCH_WINDOW - 1)
    .limit(1);
  return edge ? sql`${messages.createdAt} >= ${edge.at}::timestamptz` : null;
}
