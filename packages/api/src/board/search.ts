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
import { boardPostGrams, type Db } from "@enmusubi/db";
import { count, eq, type SQL, sql } from "drizzle-orm";

/** A gram with at least this many posts counts as "common"; probing stops counting there. */
export const GRAM_PROBE_LIMIT = 2000;
/** Grams probed at most per keyword (spread over it): a 50-character keyword has 49 bigrams. */
export const GRAM_PROBES_MAX = 12;

/** Rows of a raw statement, whichever driver answered (postgres.js: an array; PGlite: `{ rows }`). */
async function rowsOf<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown;
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/**
 * The keyword as the search text holds it, normalised by the same SQL function as the posts (so
 * the database's case rules apply to both sides alike). Empty when nothing searchable is left.
 */
export async function normalizeKeyword(db: Db, keyword: string): Promise<string> {
  const [row] = await rowsOf<{ k: string }>(db, sql`select trim(board_search_normalize(${keyword})) as k`);
  return row?.k ?? "";
}

/** The grams to look up for a normalised keyword: itself when one character, else its distinct bigrams. */
export function keywordGrams(normalized: string): string[] {
  const chars = Array.from(normalized);
  if (chars.length <= 1) return chars;
  const grams = new Set<string>();
  for (let i = 0; i + 1 < chars.length; i++) grams.add(`${chars[i]}${chars[i + 1]}`);
  return [...grams];
}

/** How many posts hold `gram`, counted up to GRAM_PROBE_LIMIT (an index-only read of at most that many keys). */
async function postsWithGram(db: Db, gram: string): Promise<number> {
  const probe = db
    .select({ one: sql`1` })
    .from(boardPostGrams)
    .where(eq(boardPostGrams.gram, gram))
    .limit(GRAM_PROBE_LIMIT)
    .as("probe");
  const [row] = await db.select({ n: count() }).from(probe);
  return row?.n ?? 0;
}

/**
 * The gram whose posts the search walks: the rarest of the keyword's grams (at most
 * GRAM_PROBES_MAX of them, spread over the keyword; a gram no post holds ends the search at once). Every match holds every gram, so any of them finds all matches; the
 * rarest reads the fewest posts that then fail the substring check.
 */
export async function chooseDrivingGram(db: Db, grams: string[]): Promise<{ gram: string; posts: number }> {
  let best: { gram: string; posts: number } | undefined;
  const step = Math.max(1, grams.length / GRAM_PROBES_MAX);
  const probed = [
    ...new Set(
      Array.from({ length: Math.min(grams.length, GRAM_PROBES_MAX) }, (_, i) => grams[Math.floor(i * step)] as string),
    ),
  ];
  for (const gram of probed) {
    const posts = await postsWithGram(db, gram);
    if (!best || posts < best.posts) best = { gram, posts };
    if (posts === 0) break;
  }
  if (!best) throw new Error("chooseDrivingGram needs at least one gram");
  return best;
}
