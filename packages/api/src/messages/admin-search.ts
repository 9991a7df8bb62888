import { type Db, messages } from "@enmusubi/db";
import { and, desc, ilike, inArray, isNull, or, type SQL, sql } from "drizzle-orm";
import { accountNamed, accountsNamed, containsPattern } from "../search/grams";

/**
 * The search box of the administrators' message lists (email management, sent, inbox): a word in
 * the body, or in the sender's / recipient's name or userID, bounded at any number of messages.
 *
 * - A keyword of TRIGRAM_MIN characters or more that matches at most SEARCH_MAX_ACCOUNTS accounts
 *   (search/grams.ts) is searched in every message through indexes: the body through the trigram
 *   GIN index (messages_body_trgm_idx), the accounts through the users trigram indexes first
 *   (`accountsNamed`), then their messages through the sender / recipient indexes (a constant id
 *   list the planner can combine with the body index in a BitmapOr).
 * - A shorter keyword has no trigram, so no index can serve `ILIKE '%ab%'`; a keyword matching more
 *   accounts (say "bm0", or a common surname) would make that id list as large as the membership.
 *   Both search the newest SEARCH_WINDOW live messages only: the work is bounded (the same as on
 *   a site with SEARCH_WINDOW messages in all) and the screen says so. Measured with `pnpm bench`
 *   at 1,000,000 messages: a 2-character keyword over every message took seconds (its count
 *   tens of seconds), within the window tens of milliseconds.
 */
export const SEARCH_WINDOW = 10_000;

export interface AdminSearch {
  where: SQL;
  /** Set when only the newest `window` messages were searched (short or broad keyword). */
  window: number | null;
}

export async function adminSearch(db: Db, keyword: string): Promise<AdminSearch> {
  const like = containsPattern(keyword);
  const ids = await accountsNamed(db, keyword, { userId: true });
  if (ids) {
    const byAccount = ids.length > 0 ? [inArray(messages.fromUserId, ids), inArray(messages.toUserId, ids)] : [];
    return { where: or(ilike(messages.body, like), ...byAccount) as SQL, window: null };
  }
  // Each row's sender and recipient are then looked up by primary key (`accountNamed`): at most
  // 2 × SEARCH_WINDOW lookups.
  const window = await newestWindow(db);
  const party = (column: typeof messages.fromUserId | typeof messages.toUserId) =>
    accountNamed(column, keyword, { userId: true });
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
