/**
 * Japanese substring search, one home for every list searched by keyword: the board (decision
 * 0007), the profile search (decision 0029), the administrators' user list (decision 0036) and the
 * administrators' and members' message lists.
 *
 * Why not pg_trgm alone: its LIKE/ILIKE support needs 3+ characters in the keyword, and Japanese
 * keywords are often 1–2 (「食事」「東京」「猫」); it also needs a locale that counts kanji/kana as
 * word characters. Why not a GIN index over grams: it answers "which rows", but the lists show the
 * newest first, so every match would be fetched and sorted (O(matches) at 1,000,000 rows).
 *
 * Gram tables. Triggers keep a normalised search text (`board_search_normalize`: NFKC, lower case,
 * hiragana as katakana, white space runs as one space; fields joined by U+001F) and every distinct
 * 1- and 2-character gram of it: `board_post_grams` (gram, created_at, post_id) for posts (migration
 * 0018), `member_search_grams` (gram, user_id) for members' names and 自己紹介. A keyword goes
 * through the same SQL function (`parseKeyword`); a one-character word reads its unigram, a longer
 * one the rarest of its bigrams (`chooseDrivingGram`, a bounded count per gram), and
 * `matchesEveryWord` makes the exact substring decision on the few rows read. Measured with
 * `pnpm bench:board` on PostgreSQL 15 and PGlite (figures in decision 0007).
 *
 * Trigram indexes. Names, user IDs, e-mail addresses and message bodies are found through pg_trgm
 * indexes, which serve a word of TRIGRAM_MIN characters or more (`hasTrigram`); the callers fall
 * back to a bounded walk for shorter words. `accountsNamed` and `accountNamed` are the two halves
 * of that choice for "an account whose name (or user ID) holds the keyword".
 */
import { type boardPostGrams, type Db, type memberSearchGrams, rowsOf, users } from "@enmusubi/db";
import { ilike, or, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { likeEscape } from "../lists/like";

/** A gram with at least this many rows counts as "common"; probing stops counting there. */
export const GRAM_PROBE_LIMIT = 2000;
/** Grams probed at most per keyword (spread over it): a 50-character keyword has 49 bigrams. */
export const GRAM_PROBES_MAX = 12;

/**
 * What a member typed, as the search text holds it: normalised by the same SQL function as the
 * rows (so the database's case rules and the kana folding apply to both sides alike), then split
 * into words at white space (「渋谷 ランチ」, full-width spaces too: NFKC made them plain). Every
 * word must occur in the row, in any order, in any of its fields. Duplicate words count once;
 * `grams` is every word's grams, from which the walk picks the rarest (`chooseDrivingGram`).
 * No words when nothing searchable is left.
 */
export interface KeywordSearch {
  words: string[];
  grams: string[];
}

export async function parseKeyword(db: Db, keyword: string): Promise<KeywordSearch> {
  const [row] = await rowsOf<{ k: string }>(db, sql`select trim(board_search_normalize(${keyword})) as k`);
  const words = [...new Set((row?.k ?? "").split(" ").filter((w) => w !== ""))];
  return { words, grams: [...new Set(words.flatMap(keywordGrams))] };
}

/** The exact test on the rows the walk reads: every word is a substring of the search text. */
export function matchesEveryWord(searchText: SQLWrapper, words: string[]): SQL {
  return sql.join(
    words.map((word) => sql`strpos(${searchText}, ${word}) > 0`),
    sql` and `,
  );
}

/** The grams to look up for one normalised word: itself when one character, else its distinct bigrams. */
export function keywordGrams(word: string): string[] {
  const chars = Array.from(word);
  if (chars.length <= 1) return chars;
  const grams = new Set<string>();
  for (let i = 0; i + 1 < chars.length; i++) grams.add(`${chars[i]}${chars[i + 1]}`);
  return [...grams];
}

/**
 * The gram whose rows the search walks: the rarest of the keyword's grams (at most
 * GRAM_PROBES_MAX of them, spread over the keyword, the first of the rarest on a tie). Every match
 * holds every gram, so any of them finds all matches; the rarest reads the fewest rows that then
 * fail the substring check. All probes are one statement: each counts a gram's rows up to
 * GRAM_PROBE_LIMIT (an index-only read of at most that many keys). `table`: board_post_grams for
 * the board (`posts` are posts), member_search_grams for the profile search and the user list
 * (`posts` are members).
 */
export async function chooseDrivingGram(
  db: Db,
  grams: string[],
  table: typeof boardPostGrams | typeof memberSearchGrams,
): Promise<{ gram: string; posts: number }> {
  const step = Math.max(1, grams.length / GRAM_PROBES_MAX);
  const probed = [
    ...new Set(
      Array.from({ length: Math.min(grams.length, GRAM_PROBES_MAX) }, (_, i) => grams[Math.floor(i * step)] as string),
    ),
  ];
  if (probed.length === 0) throw new Error("chooseDrivingGram needs at least one gram");
  const g = table;
  const counts = await rowsOf<{ gram: string; posts: number }>(
    db,
    sql`select probed.gram, (select count(*)::int from (select 1 from ${g} where ${g.gram} = probed.gram limit ${GRAM_PROBE_LIMIT}) probe) as posts
        from (values ${sql.join(
          probed.map((gram, i) => sql`(${i}::int, ${gram}::text)`),
          sql`, `,
        )}) as probed(i, gram)
        order by probed.i`,
  );
  let best: { gram: string; posts: number } | undefined;
  for (const row of counts) {
    const posts = Number(row.posts);
    if (!best || posts < best.posts) best = { gram: row.gram, posts };
  }
  if (!best) throw new Error("chooseDrivingGram needs at least one gram");
  return best;
}

/** Characters from which a trigram index finds a word anywhere in a text. */
export const TRIGRAM_MIN = 3;

/** Whether a trigram index can find `word` anywhere in a text (a shorter word has no trigram). */
export const hasTrigram = (word: string): boolean => Array.from(word).length >= TRIGRAM_MIN;

/** `%word%` for LIKE / ILIKE, the word's own `%`, `_` and `\` taken literally. */
export const containsPattern = (word: string): string => `%${likeEscape(word)}%`;

/**
 * Accounts `accountsNamed` lists at most: a keyword matching more (a common surname, "bm0") would
 * make the list as large as the membership.
 */
export const SEARCH_MAX_ACCOUNTS = 1000;

/**
 * The ids of the accounts whose name (with `userId`: or user ID) contains `keyword`, through the
 * users trigram indexes (users_name_trgm_idx, users_user_id_trgm_idx), for the caller to find
 * their rows by id. Undefined when no index can serve the keyword (shorter than TRIGRAM_MIN) or it
 * matches more than SEARCH_MAX_ACCOUNTS accounts: the caller then bounds its own walk and tests
 * each row with `accountNamed`.
 */
export async function accountsNamed(
  db: Db,
  keyword: string,
  options: { userId: boolean },
): Promise<string[] | undefined> {
  if (!hasTrigram(keyword)) return undefined;
  const like = containsPattern(keyword);
  const accounts = await db
    .select({ id: users.id })
    .from(users)
    .where(options.userId ? or(ilike(users.name, like), ilike(users.userId, like)) : ilike(users.name, like))
    .limit(SEARCH_MAX_ACCOUNTS + 1);
  return accounts.length <= SEARCH_MAX_ACCOUNTS ? accounts.map((a) => a.id) : undefined;
}

/**
 * Whether the account in `column` has a name (with `userId`: or user ID) containing `keyword`, for
 * rows walked in a bounded window. A scalar subquery, looked up by primary key for each row:
 * written as EXISTS, the planner turned it into a hash of every matching account (a scan of all
 * members, seconds at 1,000,000 of them) instead of one lookup per row.
 */
export function accountNamed(column: SQLWrapper, keyword: string, options: { userId: boolean }): SQL {
  const like = containsPattern(keyword);
  const matches = options.userId
    ? sql`search_party.name ilike ${like} or search_party.user_id ilike ${like}`
    : sql`search_party.name ilike ${like}`;
  return sql`coalesce((select ${matches} from ${users} as search_party where search_party.id = ${column}), false)`;
}
