import { type Db, memberSearchGrams, users } from "@enmusubi/db";
import { type Gender, type memberSearchInput, pageOffset, yearsBefore } from "@enmusubi/shared";
import { and, count, desc, eq, gt, inArray, lte, ne, type Placeholder, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import { carriedTotal } from "../lists/capped-count";
import { countLimit, pageLimit } from "../lists/limit";
import { pagesFor } from "../lists/pages";
import { perDatabaseShape } from "../request-scope";
import { notBlockedWith } from "../safety/blocks";
import { chooseDrivingGram, GRAM_PROBE_LIMIT, matchesEveryWord, parseKeyword } from "../search/grams";
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
 * The keyword is searched as the board's is (decision 0007, search/grams.ts): normalised by the
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
  let otherGender: Gender | undefined;
  if (input.excludeSameSex) {
    const gender =
      searcherGender ??
      (await db.select({ gender: users.gender }).from(users).where(eq(users.id, searcherId)))[0]?.gender;
    if (gender) otherGender = gender === "male" ? "female" : "male";
  }
  const values: SearchValues = {
    searcherId,
    gender: otherGender,
    occupationId: input.occupationId,
    annualIncomeId: input.annualIncomeId,
    prefecture: input.prefecture,
    hasPhoto: input.hasPhoto,
    // Age ≥ n ⇔ born on or before today minus n years; age ≤ n ⇔ born after today minus n + 1 years.
    bornBy: input.ageMin === undefined ? undefined : yearsBefore(today, input.ageMin),
    bornAfter: input.ageMax === undefined ? undefined : yearsBefore(today, input.ageMax + 1),
  };
  // The count stops after SEARCH_COUNT_CAP matches (or one past the page shown): counting a whole
  // gender of 1,000,000 members for the "N件" line would cost more than the page itself.
  const cap = Math.max(SEARCH_COUNT_CAP, input.page * input.limit);
  const offset = pageOffset(input.page, input.limit);
  const page = { order: input.order, limit: input.limit, offset, countLimit: countLimit(cap, SEARCH_COUNT_CAP) };

  let rows: SearchRow[];
  let counting: () => PromiseLike<Array<{ total: number }>>;
  if (input.keyword) {
    // The keyword: every word in the search text; the rows read bounded by the rarest gram's members.
    const { words, grams } = await parseKeyword(db, input.keyword);
    let keyword: KeywordFilter | undefined;
    if (grams.length > 0) {
      const driving = await chooseDrivingGram(db, grams, memberSearchGrams);
      if (driving.posts === 0) return emptyPage(input);
      keyword = { words, drivingGram: driving.gram };
      if (driving.posts < GRAM_PROBE_LIMIT) {
        // Read first (an index-only read of < GRAM_PROBE_LIMIT keys) and given as a list: as a
        // subquery PostgreSQL walked the whole activity index probing each member's gram (7 s at
        // 1,000,000 members, bench EXPLAIN); a list of ids has one plan, by primary key, then sort.
        const g = memberSearchGrams;
        keyword.holders = (await db.select({ id: g.userId }).from(g).where(eq(g.gram, driving.gram))).map((r) => r.id);
      }
    }
    const statements = searchStatements(db, values, page, keyword);
    rows = await statements.page;
    counting = () => statements.counting;
  } else {
    // Without a keyword the statement's text depends only on which filters are given: it is
    // built once per shape, with placeholders, and then only executed (decision 0037).
    const shape = shapeOf(values, page);
    rows = await preparedSearchOf(db, shape).execute({ ...values, offset, countLimit: cap + 1 });
    counting = () => searchStatements(db, values, page).counting;
  }
  const counted = await carriedTotal(rows, counting);
  const totalCapped = counted > cap;
  const total = totalCapped ? cap : counted;
  return {
    profiles: rows.map((r) => {
      // The fresh profile, completed in place (no copy per row, decision 0037).
      const profile = toPublicProfile(r, today) as PublicProfile & { isFavorite: boolean };
      profile.isFavorite = r.isFavorite;
      return profile;
    }),
    total,
    totalCapped,
    page: input.page,
    limit: input.limit,
    // Capped: at least one more match, so at least one more page.
    totalPages: pagesFor(total, totalCapped, input.limit),
  };
}

type Value = string | Placeholder;

/** A search's filter values: as given, or as a prepared shape's placeholders (same names). */
interface SearchValues {
  searcherId: Value;
  /** The other gender, with `excludeSameSex`. */
  gender?: Gender | Placeholder;
  occupationId?: Value;
  annualIncomeId?: Value;
  prefecture?: Value;
  hasPhoto?: boolean;
  /** Born on or before (age ≥ ageMin). */
  bornBy?: Value;
  /** Born after (age ≤ ageMax). */
  bornAfter?: Value;
}

interface PageOf {
  order: "active" | "newest";
  /** Written as a literal (lists/limit.ts). */
  limit: number;
  offset: number | Placeholder;
  /** `countLimit(cap, SEARCH_COUNT_CAP)`: a literal for the usual cap. */
  countLimit: number | Placeholder;
}

interface KeywordFilter {
  words: string[];
  drivingGram: string;
  /** The driving gram's members, when they are few (read first). */
  holders?: string[];
}

/** The filters given as values (each a placeholder of its own name in a prepared shape). */
const VALUE_FILTERS = ["gender", "occupationId", "annualIncomeId", "prefecture", "bornBy", "bornAfter"] as const;

/** Which filters a search gives and how its page is cut: what its statement's text depends on. */
interface SearchShape {
  given: Array<(typeof VALUE_FILTERS)[number]>;
  /** Written into the text (a condition, not a value). */
  hasPhoto?: boolean;
  order: PageOf["order"];
  limit: number;
  offset: boolean;
  /** The count's LIMIT is a parameter (a deep page raised the cap), not the usual literal. */
  deepCount: boolean;
}

function shapeOf(values: SearchValues, page: PageOf): SearchShape {
  return {
    given: VALUE_FILTERS.filter((key) => values[key] !== undefined),
    hasPhoto: values.hasPhoto,
    order: page.order,
    limit: page.limit,
    offset: page.offset !== 0,
    deepCount: typeof page.countLimit === "number",
  };
}

const preparedSearchOf = perDatabaseShape(
  (shape: SearchShape) => JSON.stringify(shape),
  (db, shape) => {
    const values: SearchValues = { searcherId: sql.placeholder("searcherId"), hasPhoto: shape.hasPhoto };
    for (const key of shape.given) values[key] = sql.placeholder(key);
    const page: PageOf = {
      order: shape.order,
      limit: shape.limit,
      offset: shape.offset ? sql.placeholder("offset") : 0,
      countLimit: shape.deepCount ? sql.placeholder("countLimit") : countLimit(SEARCH_COUNT_CAP, SEARCH_COUNT_CAP),
    };
    return searchStatements(db, values, page).page.prepare("member_search");
  },
);

type SearchRow = Awaited<ReturnType<typeof searchStatements>["page"]>[number];

/**
 * A search's page (its count riding along, lists/capped-count.ts) and that count on its own, for
 * the given values or placeholders.
 */
function searchStatements(db: Db, v: SearchValues, page: PageOf, keyword?: KeywordFilter) {
  const conditions: SQL[] = [ne(users.id, v.searcherId), notBlockedWith(v.searcherId, users.id), canRead];
  // Equality (not <>) so the search indexes on (gender, …) apply.
  if (v.gender !== undefined) conditions.push(eq(users.gender, v.gender));
  if (v.occupationId !== undefined) conditions.push(eq(users.occupationId, v.occupationId));
  if (v.annualIncomeId !== undefined) conditions.push(eq(users.annualIncomeId, v.annualIncomeId));
  if (v.prefecture !== undefined) conditions.push(eq(users.address, v.prefecture));
  if (v.hasPhoto === true) conditions.push(sql`coalesce(${users.photoLink}, '') <> ''`);
  if (v.hasPhoto === false) conditions.push(sql`coalesce(${users.photoLink}, '') = ''`);
  if (v.bornBy !== undefined) conditions.push(lte(users.birthday, v.bornBy));
  if (v.bornAfter !== undefined) conditions.push(gt(users.birthday, v.bornAfter));
  if (keyword) conditions.push(matchesEveryWord(users.searchText, keyword.words));
  const where = and(...conditions);
  // With a keyword the count walks the gram's members in the primary key's order and checks each
  // member by primary key in a correlated EXISTS kept as a subplan (OFFSET 0), as the board's walk
  // does (decision 0007): one possible plan, about `cap` probes, never a hash of every holder.
  const g = memberSearchGrams;
  const matches = (
    keyword === undefined
      ? db.select({ one: sql`1` }).from(users).where(and(reachableMember(), where))
      : db
          .select({ one: sql`1` })
          .from(g)
          .where(
            and(
              eq(g.gram, keyword.drivingGram),
              sql`exists (select 1 from ${users} where ${users.id} = ${g}."user_id" and ${and(reachableMember(), where)} offset 0)`,
            ),
          )
  )
    .limit(page.countLimit)
    .as("matches");
  const counting = db.select({ total: count() }).from(matches);
  const order =
    page.order === "newest"
      ? [desc(users.createdAt), desc(users.id)]
      : [sql`${users.lastActiveAt} desc nulls last`, desc(users.id)];
  const holders = keyword?.holders ? inArray(users.id, keyword.holders) : undefined;
  // The count rides along the page's rows (PostgreSQL runs it once); only a page past the last
  // match, which has no row to carry it, asks for it on its own.
  const rows = selectPublicProfilesWithFavorite(db, v.searcherId, and(where, holders), counting)
    .orderBy(...order)
    .limit(pageLimit(page.limit))
    .offset(page.offset);
  return { page: rows, counting };
}

function emptyPage(input: { page: number; limit: number }): MemberSearchPage {
  return { profiles: [], total: 0, totalCapped: false, page: input.page, limit: input.limit, totalPages: 1 };
}
