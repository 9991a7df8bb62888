import { type Db, footprints, profileViews, users } from "@enmusubi/db";
import { MSG } from "@enmusubi/shared";
import { desc, eq, sql } from "drizzle-orm";
import { AppError } from "../errors";
import type { Charge } from "../points/paid-procedure";
import { type PublicProfile, selectPublicProfiles, toPublicProfile } from "./public-profile";

/** Viewing the same profile again within this many hours of the last paid view is free. */
export const PROFILE_VIEW_FREE_HOURS = 24;

/**
 * A member opens another member's profile detail (spec §6: costs `profile_view`). Charged once
 * per viewer and profile per PROFILE_VIEW_FREE_HOURS: the profile_views row is claimed with an
 * upsert that only succeeds when the last paid view is older, so concurrent views charge once.
 * Records a footprint (足あと) for the viewed member. Administrators, deleted members and unknown
 * ids are NOT_FOUND; one's own profile is free and leaves no footprint.
 */
export async function viewProfile(
  tx: Db,
  charge: Charge,
  viewerId: string,
  viewedId: string,
): Promise<{ profile: PublicProfile; charged: boolean; remainingPoints: number }> {
  const [row] = await selectPublicProfiles(tx, eq(users.id, viewedId));
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
    .where(eq(footprints.viewedId, userId))
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
