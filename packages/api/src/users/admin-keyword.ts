import { type Db, memberSearchGrams, rowsOf, users } from "@enmusubi/db";
import { type SQL, sql } from "drizzle-orm";
import { likeEscape } from "../lists/like";
import {
  chooseDrivingGram,
  containsPattern,
  GRAM_PROBE_LIMIT,
  hasTrigram,
  keywordGrams,
  parseKeyword,
} from "../search/grams";

/**
 * The user list's keyword (decision 0036; the shared parts in search/grams.ts): each word,
 * normalised as the profile search's (NFKC, lower case, kana folded: board_search_normalize), must
 * occur in the member's name, e-mail address or user ID. A word of 1–2 characters matches a name or the start of a user
 * ID (a trigram index cannot serve 1–2 characters inside an e-mail address); a longer one anywhere
 * in the three. A word with a character outside ASCII (「佐藤」) is looked for in names only: user IDs
 * are ASCII, and a trigram index cannot find kanji or kana under the database's C collation.
 *
 * Index use at 1,000,000 members. The candidates are the members who could match one word (the
 * word holding the rarest gram): its gram's members in member_search_grams (names, decision 0029)
 * ∪ its trigram matches in the e-mail (users_email_trgm_idx) and user ID (users_user_id_trgm_idx)
 * or, short, the user-ID prefix (users_user_id_prefix_idx). When those are at most
 * GRAM_PROBE_LIMIT, the page and the count read only them; when more, the keyword is common, and
 * the list walks users_live_created_idx newest first, checking each member, until the page is full
 * (the count then stops at LIST_COUNT_CAP).
 */
export interface KeywordFilter {
  /** The exact test: every word in the name, the e-mail or the user ID. */
  where: SQL;
  /**
   * The candidates' ids, when fewer than GRAM_PROBE_LIMIT: the page and the count read them by
   * primary key. Undefined: the keyword is common, the list walks its newest-first index.
   */
  candidates?: string[];
}

const nameOf = sql`split_part(${users.searchText}, chr(31), 1)`;

const isAscii = (word: string) => /^[\x20-\x7e]+$/.test(word);

function wordMatches(word: string): SQL {
  const inName = sql`strpos(${nameOf}, ${word}) > 0`;
  if (!isAscii(word)) return inName;
  if (!hasTrigram(word)) {
    return sql`(${inName} or lower(${users.userId}) like ${`${likeEscape(word)}%`})`;
  }
  return sql`(${inName} or strpos(lower(${users.email}), ${word}) > 0 or strpos(lower(${users.userId}), ${word}) > 0)`;
}

/** Members who could match `word`, each branch read from its own index. */
function candidatesOf(word: string, gram: string): SQL {
  const g = memberSearchGrams;
  const byName = sql`select ${g.userId} as id from ${g} where ${g.gram} = ${gram}`;
  if (!isAscii(word)) return byName;
  if (!hasTrigram(word)) {
    return sql`${byName} union select ${users.id} from ${users} where lower(${users.userId}) like ${`${likeEscape(word)}%`}`;
  }
  const pattern = containsPattern(word);
  return sql`${byName}
    union select ${users.id} from ${users} where lower(${users.email}) like ${pattern}
    union select ${users.id} from ${users} where ${users.userId} ilike ${pattern}`;
}

/** The filter for a keyword, or undefined when nothing searchable is left of it. */
export async function keywordFilter(db: Db, q: string): Promise<KeywordFilter | undefined> {
  if (!q) return undefined;
  const { words } = await parseKeyword(db, q);
  if (words.length === 0) return undefined;
  const where = sql.join(words.map(wordMatches), sql` and `);
  // The word with the rarest gram drives; its candidates are probed up to the limit.
  const perWord = await Promise.all(
    words.map(async (word) => ({ word, ...(await chooseDrivingGram(db, keywordGrams(word), memberSearchGrams)) })),
  );
  const driving = perWord.reduce((a, b) => (b.posts < a.posts ? b : a));
  if (driving.posts >= GRAM_PROBE_LIMIT) return { where };
  const ids = await rowsOf<{ id: string }>(
    db,
    sql`select id from (${candidatesOf(driving.word, driving.gram)}) c limit ${GRAM_PROBE_LIMIT}`,
  );
  if (ids.length >= GRAM_PROBE_LIMIT) return { where };
  return { where, candidates: ids.map((r) => r.id) };
}
