import { type Db, favorites, footprints, profileViews, users } from "@enmusubi/db";
import { MSG, PROFILE_VIEW_FREE_HOURS } from "@enmusubi/shared";
import { and, desc, eq, sql } from "drizzle-orm";
import { AppError } from "../errors";
import type { Charge } from "../points/charge";
import { notBlockedWith } from "../safety/blocks";
import { type ProfileDetail, toProfileDetail } from "./profile-detail";
import { type PublicProfile, reachableMember, selectPublicProfiles, toPublicProfile } from "./public-profile";

/**
 * A member opens another member's profile detail (spec §6: costs `profile_view`). Charged once
 * per viewer and profile per PROFILE_VIEW_FREE_HOURS: the profile_views row is claimed with an
 * upsert that only succeeds when the last paid view is older, so concurrent views charge once.
 * Records a footprint (足あと) for the viewed member. Administrators, deleted or suspended members
 * and unknown ids are NOT_FOUND, before anything is charged; one's own profile is free and leaves
 * no footprint. The answer is the detail (profile-detail.ts): the public profile, the 自己紹介 and
 * the last-activity bucket.
 */
export async function viewProfile(
  tx: Db,
  charge: Charge,
  viewerId: string,
  viewedId: string,
): Promise<{ profile: ProfileDetail; charged: boolean; remainingPoints: number }> {
  // A member blocked either way is NOT_FOUND, before anything is charged.
  const [row] = await selectPublicProfiles(tx, and(eq(users.id, viewedId), notBlockedWith(viewerId, users.id)));
  if (!row) throw new AppError("NOT_FOUND", MSG.notFound);
  if (viewedId === viewerId) {
    const free = await charge({ quantity: 0 });
    return {
      profile: await toProfileDetail(tx, toPublicProfile(row)),
      charged: false,
      remainingPoints: free.remainingPoints,
    };
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
  return { profile: await toProfileDetail(tx, toPublicProfile(row)), charged, remainingPoints: result.remainingPoints };
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
