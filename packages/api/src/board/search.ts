/**
 * Japanese substring search on the board (docs/decisions/0007-japanese-substring-search.md).
 *
 * Why not pg_trgm: its LIKE/ILIKE support needs 3+ characters in the keyword, and Japanese
 * keywords are often 1–2 (「食事」「東京」「猫」); it also needs a locale that counts kanji/kana as
 * word characters. Why not a GIN index over grams: it answers "which posts", but the board shows
 * the newest 10 first, so every match would be fetched and sorted (O(matches) at 1,000,000 posts).
 *
 * What we do: triggers on board_posts (migration 0018) keep `search_text` (NFKC, lower case, white
 * space runs as one space; title and content joined by U+001F) and every distinct 1- and
 * 2-character gram of it in `board_post_grams`, whose primary key is (gram, created_at, post_id).
 * A keyword of one character reads its unigram; a longer one reads the one of its bigrams with the
 * fewest posts (probed with a bounded count). Either way the gram's posts come newest first
 * straight from the primary key, and `strpos(search_text, keyword)` makes the exact substring
 * decision on the few posts read. A page costs about (offset + page) posts read, whatever the size
 * of the board; counts are exact up to BOARD_COUNT_CAP (see service.ts). Measured with
 * `pnpm bench:board` on PostgreSQL 15 and PGlite (figures in the decision record).
 */
import { boardPostGrams, type Db, type memberSearchGrams, rowsOf } from "@enmusubi/db";
import { type SQL, type SQLWrapper, sql } from "drizzle-orm";

/** A gram with at least this many posts counts as "common"; probing stops counting there. */
export const GRAM_PROBE_LIMIT = 2000;
/** Grams probed at most per keyword (spread over it): a 50-character keyword has 49 bigrams. */
export const GRAM_PROBES_MAX = 12;

/**
 * What a member typed, as the search text holds it: normalised by the same SQL function as the
 * posts (so the database's case rules and the kana folding apply to both sides alike), then split
 * into words at white space (「渋谷 ランチ」, full-width spaces too: NFKC made them plain). Every
 * word must occur in the post, in any order, in the title or the content. Duplicate words count
 * once; `grams` is every word's grams, from which the walk picks the rarest (`chooseDrivingGram`).
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
 * The gram whose posts the search walks: the rarest of the keyword's grams (at most
 * GRAM_PROBES_MAX of them, spread over the keyword, the first of the rarest on a tie). Every match
 * holds every gram, so any of them finds all matches; the rarest reads the fewest posts that then
 * fail the substring check. All probes are one statement: each counts a gram's posts up to
 * GRAM_PROBE_LIMIT (an index-only read of at most that many keys). The profile search (decision
 * 0029) asks the same of its members' grams (`table`: member_search_grams; `posts` are members).
 */
export async function chooseDrivingGram(
  db: Db,
  grams: string[],
  table: typeof boardPostGrams | typeof memberSearchGrams = boardPostGrams,
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
