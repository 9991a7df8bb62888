import { type Db, memberSearchGrams, users } from "@enmusubi/db";
import { type Gender, type memberSearchInput, pageOffset, yearsBefore } from "@enmusubi/shared";
import { and, count, desc, eq, gt, inArray, lte, ne, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import { chooseDrivingGram, GRAM_PROBE_LIMIT, matchesEveryWord, parseKeyword } from "../board/search";
import { carriedTotal } from "../lists/capped-count";
import { countLimit, pageLimit } from "../lists/limit";
import { pagesFor } from "../lists/pages";
import { notBlockedWith } from "../safety/blocks";
import {
  type PublicProfile,
  reachableMember,
  selectPublicProfilesWithFavorite,
  toPublicProfile,
} from "./public-profile";

/** Profile search counts at most this many matches (the screen says "1,000件以上"). */
export const SEARCH_COUNT_CAP = 1000;

/**
 * The members the search lists to others (decision 0029): those who can read a message, i.e.
 * whose age verification is approved (decisions 0006, 0025); with `reachableMember` (live, not
 * suspended, members) the predicate of the search's activity indexes (users_search_*active_idx),
 * written as a literal so the planner can match it.
 */
const canRead = sql`${users.verificationStatus} = 'verified'`;

export interface MemberSearchPage {
  profiles: Array<PublicProfile & { isFavorite: boolean }>;
  /** Every match, or when `totalCapped` a lower bound (shown as "1,000件以上"). */
  total: number;
  totalCapped: boolean;
  page: number;
  limit: number;
  totalPages: number;
}

/**
 * Profile search (spec §7 GET /api/users/search, decision 0029): members who can read messages
 * (age verified; neither deleted nor suspended), never the searcher, an administrator or a member
 * blocked either way; with `excludeSameSex` only the other gender. Ordered by last activity
 * (`order: "active"`, the default) or by registration ("newest"), paged in the database. Ages are
 * compared as birthdays against dates (index-friendly), so a member without a birthday never
 * matches an age filter.
 *
 * The keyword is searched as the board's is (decision 0007, board/search.ts): normalised by the
 * same SQL function (NFKC, lower case, hiragana as katakana), split into words, each of which
 * must occur in the name or the 自己紹介 (`users.search_text`). The members holding the keyword's
 * rarest gram (member_search_grams) bound the work: when fewer than GRAM_PROBE_LIMIT hold it, their
 * ids are read and the page is read among them by primary key and sorted; when more do, the
 * gram is common, so the page walks the order's index and checks the words on each row, stopping
 * at the page. The capped count always reads the gram's members.
 */
export async function searchMembers(
  db: Db,
  searcherId: string,
  input: z.output<typeof memberSearchInput>,
  today = new Date(),
  /** The searcher's gender as the request's session read it (none: read here). */
  searcherGender?: Gender,
): Promise<MemberSearchPage> {
  const conditions: SQL[] = [ne(users.id, searcherId), notBlockedWith(searcherId, users.id), canRead];
  if (input.excludeSameSex) {
    const gender =
      searcherGender ??
      (await db.select({ gender: users.gender }).from(users).where(eq(users.id, searcherId)))[0]?.gender;
    // Equality (not <>) so the search indexes on (gender, …) apply.
    if (gender) conditions.push(eq(users.gender, gender === "male" ? "female" : "male"));
  }
  if (input.occupationId) conditions.push(eq(users.occupationId, input.occupationId));
  if (input.annualIncomeId) conditions.push(eq(users.annualIncomeId, input.annualIncomeId));
  if (input.prefecture) conditions.push(eq(users.address, input.prefecture));
  if (input.hasPhoto === true) conditions.push(sql`coalesce(${users.photoLink}, '') <> ''`);
  if (input.hasPhoto === false) conditions.push(sql`coalesce(${users.photoLink}, '') = ''`);
  // Age ≥ n ⇔ born on or before today minus n years; age ≤ n ⇔ born after today minus n + 1 years.
  if (input.ageMin !== undefined) conditions.push(lte(users.birthday, yearsBefore(today, input.ageMin)));
  if (input.ageMax !== undefined) conditions.push(gt(users.birthday, yearsBefore(today, input.ageMax + 1)));

  // The keyword: every word in the search text; the rows read bounded by the rarest gram's members.
  let holders: SQL | undefined;
  let drivingGram: string | undefined;
  if (input.keyword) {
    const { words, grams } = await parseKeyword(db, input.keyword);
    if (grams.length > 0) {
      const driving = await chooseDrivingGram(db, grams, memberSearchGrams);
      if (driving.posts === 0) return emptyPage(input);
      conditions.push(matchesEveryWord(users.searchText, words));
      drivingGram = driving.gram;
      if (driving.posts < GRAM_PROBE_LIMIT) {
        // Read first (an index-only read of < GRAM_PROBE_LIMIT keys) and given as a list: as a
        // subquery PostgreSQL walked the whole activity index probing each member's gram (7 s at
        // 1,000,000 members, bench EXPLAIN); a list of ids has one plan, by primary key, then sort.
        const g = memberSearchGrams;
        const ids = (await db.select({ id: g.userId }).from(g).where(eq(g.gram, driving.gram))).map((r) => r.id);
        holders = inArray(users.id, ids);
      }
    }
  }
  const where = and(...conditions);

  // The count stops after SEARCH_COUNT_CAP matches (or one past the page shown): counting a whole
  // gender of 1,000,000 members for the "N件" line would cost more than the page itself.
  const cap = Math.max(SEARCH_COUNT_CAP, input.page * input.limit);
  // With a keyword it walks the gram's members in the primary key's order and checks each member
  // by primary key in a correlated EXISTS kept as a subplan (OFFSET 0), as the board's walk does
  // (decision 0007): one possible plan, about `cap` probes, never a hash of every holder.
  const g = memberSearchGrams;
  const matches = (
    drivingGram === undefined
      ? db.select({ one: sql`1` }).from(users).where(and(reachableMember(), where))
      : db
          .select({ one: sql`1` })
          .from(g)
          .where(
            and(
              eq(g.gram, drivingGram),
              sql`exists (select 1 from ${users} where ${users.id} = ${g}."user_id" and ${and(reachableMember(), where)} offset 0)`,
            ),
          )
  )
    .limit(countLimit(cap, SEARCH_COUNT_CAP))
    .as("matches");
  const counting = db.select({ total: count() }).from(matches);
  const order =
    input.order === "newest" ? [desc(users.createdAt), desc(users.id)] : [desc(users.lastActiveAt), desc(users.id)];
  // The count rides along the page's rows (PostgreSQL runs it once); only a page past the last
  // match, which has no row to carry it, asks for it on its own.
  const rows = await selectPublicProfilesWithFavorite(db, searcherId, and(where, holders), counting)
    .orderBy(...order)
    .limit(pageLimit(input.limit))
    .offset(pageOffset(input.page, input.limit));
  const counted = await carriedTotal(rows, counting);
  const totalCapped = counted > cap;
  const total = totalCapped ? cap : counted;
  return {
    profiles: rows.map((r) => ({ ...toPublicProfile(r, today), isFavorite: r.isFavorite })),
    total,
    totalCapped,
    page: input.page,
    limit: input.limit,
    // Capped: at least one more match, so at least one more page.
    totalPages: pagesFor(total, totalCapped, input.limit),
  };
}

function emptyPage(input: { page: number; limit: number }): MemberSearchPage {
  return { profiles: [], total: 0, totalCapped: false, page: input.page, limit: input.limit, totalPages: 1 };
}
