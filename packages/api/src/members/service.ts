import { type Db, favorites, footprints, profileViews, users } from "@enmusubi/db";
import {
  type Gender,
  MSG,
  type memberSearchInput,
  PROFILE_VIEW_FREE_HOURS,
  pageOffset,
  yearsBefore,
} from "@enmusubi/shared";
import { and, count, desc, eq, gt, ilike, inArray, lte, ne, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import { AppError } from "../errors";
import { likeEscape } from "../lists/like";
import { pagesFor } from "../lists/pages";
import type { Charge } from "../points/paid-procedure";
import { notBlockedWith } from "../safety/blocks";
import { type PublicProfile, reachableMember, selectPublicProfiles, toPublicProfile } from "./public-profile";

/**
 * A member opens another member's profile detail (spec §6: costs `profile_view`). Charged once
 * per viewer and profile per PROFILE_VIEW_FREE_HOURS: the profile_views row is claimed with an
 * upsert that only succeeds when the last paid view is older, so concurrent views charge once.
 * Records a footprint (足あと) for the viewed member. Administrators, deleted or suspended members
 * and unknown ids are NOT_FOUND, before anything is charged; one's own profile is free and leaves
 * no footprint.
 */
export async function viewProfile(
  tx: Db,
  charge: Charge,
  viewerId: string,
  viewedId: string,
): Promise<{ profile: PublicProfile; charged: boolean; remainingPoints: number }> {
  // A member blocked either way is NOT_FOUND, before anything is charged.
  const [row] = await selectPublicProfiles(tx, and(eq(users.id, viewedId), notBlockedWith(viewerId, users.id)));
  if (!row) throw new AppError("NOT_FOUND", MSG.notFound);
  if (viewedId === viewerId) {
    const free = await charge({ quantity: 0 });
    return { profile: toPublicProfile(row), charged: false, remainingPoints: free.remainingPoints };
  }
  const claimed = await tx
    .insert(profileViews)
    .values({ viewerId, viewedId })
    .onConflictDoUpdate({
      target: [profileViews.viewerId, profileViews.viewedId],
      set: { chargedAt: sql`now()` },
      setWhere: sql`${profileViews.chargedAt} <= now() - make_interval(hours => ${PROFILE_VIEW_FREE_HOURS})`,
    })
    .returning({ viewerId: profileViews.viewerId });
  const charged = claimed.length > 0;
  const result = await charge({ quantity: charged ? 1 : 0, reference: viewedId });
  await tx
    .insert(footprints)
    .values({ viewedId, viewerId, day: sql`(now() at time zone 'Asia/Tokyo')::date` })
    .onConflictDoUpdate({
      target: [footprints.viewedId, footprints.viewerId, footprints.day],
      set: { lastViewedAt: sql`now()` },
    });
  return { profile: toPublicProfile(row), charged, remainingPoints: result.remainingPoints };
}

/** Who viewed my profile (足あと), latest first: one entry per viewer per day. Free. */
export async function listFootprints(db: Db, userId: string, limit = 50) {
  const rows = await db
    .select({ viewerId: footprints.viewerId, viewedAt: footprints.lastViewedAt })
    .from(footprints)
    .where(and(eq(footprints.viewedId, userId), notBlockedWith(userId, footprints.viewerId)))
    .orderBy(desc(footprints.lastViewedAt))
    .limit(limit);
  if (rows.length === 0) return [];
  const ids = [...new Set(rows.map((r) => r.viewerId))];
  const profiles = new Map(
    (await selectPublicProfiles(db, sql`${users.id} in ${ids}`)).map((p) => [p.id, toPublicProfile(p)]),
  );
  return rows.flatMap((r) => {
    const viewer = profiles.get(r.viewerId);
    return viewer ? [{ viewer, viewedAt: r.viewedAt }] : [];
  });
}

/** Profile search counts at most this many matches (the screen says "1,000件以上"). */
export const SEARCH_COUNT_CAP = 1000;

/**
 * Profile search (spec §7 GET /api/users/search): reachable members only (neither deleted nor
 * suspended), never the searcher or an
 * administrator; with `excludeSameSex` only the other gender. Newest registered first, paged in the
 * database. Ages are compared as birthdays against dates (index-friendly), so a member without a
 * birthday never matches an age filter.
 */
export async function searchMembers(
  db: Db,
  searcherId: string,
  input: z.output<typeof memberSearchInput>,
  today = new Date(),
  /** The searcher's gender as the request's session read it (none: read here). */
  searcherGender?: Gender,
): Promise<{
  profiles: Array<PublicProfile & { isFavorite: boolean }>;
  /** Every match, or when `totalCapped` a lower bound (shown as "1,000件以上"). */
  total: number;
  totalCapped: boolean;
  page: number;
  limit: number;
  totalPages: number;
}> {
  const conditions: SQL[] = [ne(users.id, searcherId), notBlockedWith(searcherId, users.id)];
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
  if (input.keyword) conditions.push(ilike(users.name, `%${likeEscape(input.keyword)}%`));
  // Age ≥ n ⇔ born on or before today minus n years; age ≤ n ⇔ born after today minus n + 1 years.
  if (input.ageMin !== undefined) conditions.push(lte(users.birthday, yearsBefore(today, input.ageMin)));
  if (input.ageMax !== undefined) conditions.push(gt(users.birthday, yearsBefore(today, input.ageMax + 1)));
  const where = and(...conditions);

  // The count stops after SEARCH_COUNT_CAP matches (or one past the page shown): counting a whole
  // gender of 1,000,000 members for the "N件" line would cost more than the page itself.
  const cap = Math.max(SEARCH_COUNT_CAP, input.page * input.limit);
  const matches = db
    .select({ one: sql`1` })
    .from(users)
    .where(and(reachableMember(), where))
    .limit(cap + 1)
    .as("matches");
  const [counted] = await db.select({ total: count() }).from(matches);
  const totalCapped = (counted?.total ?? 0) > cap;
  const total = totalCapped ? cap : (counted?.total ?? 0);
  const rows = await selectPublicProfiles(db, where)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(input.limit)
    .offset(pageOffset(input.page, input.limit));
  const ids = rows.map((r) => r.id);
  const favored = new Set(
    ids.length === 0
      ? []
      : (
          await db
            .select({ id: favorites.favoriteUserId })
            .from(favorites)
            .where(and(eq(favorites.userId, searcherId), inArray(favorites.favoriteUserId, ids)))
        ).map((f) => f.id),
  );
  return {
    profiles: rows.map((r) => ({ ...toPublicProfile(r, today), isFavorite: favored.has(r.id) })),
    total,
    totalCapped,
    page: input.page,
    limit: input.limit,
    // Capped: at least one more match, so at least one more page.
    totalPages: pagesFor(total, totalCapped, input.limit),
  };
}

/** My favourites: reachable members only (not deleted, not suspended), most recently added first. */
export async function listFavorites(db: Db, userId: string): Promise<PublicProfile[]> {
  const rows = await selectPublicProfiles(db, notBlockedWith(userId, users.id))
    .innerJoin(favorites, and(eq(favorites.favoriteUserId, users.id), eq(favorites.userId, userId)))
    .orderBy(desc(favorites.createdAt), desc(users.id));
  return rows.map((r) => toPublicProfile(r));
}

/**
 * Adds a favourite; adding it again changes nothing. Oneself is refused (BAD_REQUEST); an
 * administrator, a deleted or suspended member, a member blocked either way or an unknown id is NOT_FOUND
 * (members never learn which).
 */
export async function addFavorite(db: Db, userId: string, favoriteUserId: string): Promise<{ success: true }> {
  if (favoriteUserId === userId) throw new AppError("BAD_REQUEST", MSG.favoriteSelf);
  const [target] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, favoriteUserId), reachableMember(), notBlockedWith(userId, users.id)));
  if (!target) throw new AppError("NOT_FOUND", MSG.notFound);
  await db.insert(favorites).values({ userId, favoriteUserId }).onConflictDoNothing();
  return { success: true };
}

/** Removes a favourite; removing one that is not there changes nothing. */
export async function removeFavorite(db: Db, userId: string, favoriteUserId: string): Promise<{ success: true }> {
  await db.delete(favorites).where(and(eq(favorites.userId, userId), eq(favorites.favoriteUserId, favoriteUserId)));
  return { success: true };
}
