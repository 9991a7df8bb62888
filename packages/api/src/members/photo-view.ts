import { type Db, pointCosts, profilePhotoViews, users } from "@enmusubi/db";
import { MSG, PHOTO_VIEW_FREE_HOURS } from "@enmusubi/shared";
import { and, eq, sql } from "drizzle-orm";
import { AppError } from "../errors";
import type { PhotoUrlSigner } from "../photos/signed-url";
import { photoName } from "../photos/storage";
import type { Charge } from "../points/charge";
import { prepaidCreditsWaiting } from "../points/prepaid";
import { notBlockedWith } from "../safety/blocks";
import { reachableMember } from "./public-profile";
import type { FreeViewReason } from "./view-price";

/**
 * Enlarging a member's profile photo (decision 0028: costs `profile_photo_view`).
 * Members see thumbnails only; the full-size image is answered here, after the charge, as a
 * short-lived signed URL. Charged once per viewer and member per PHOTO_VIEW_FREE_HOURS: the
 * profile_photo_views row is claimed with an upsert that only succeeds when the last paid
 * enlargement is older, so concurrent calls charge once. The target must be reachable and not
 * blocked either way (NOT_FOUND) and hold a stored photo (BAD_REQUEST 「…拡大できる写真を登録して
 * いません。」), both before anything is charged; one's own photo is free.
 */
export async function viewPhoto(
  tx: Db,
  charge: Charge,
  signer: PhotoUrlSigner,
  viewerId: string,
  viewedId: string,
): Promise<{ url: string; expiresAt: Date; charged: boolean; remainingPoints: number }> {
  const [row] = await tx
    .select({ photoLink: users.photoLink })
    .from(users)
    .where(and(eq(users.id, viewedId), reachableMember(), notBlockedWith(viewerId, users.id)));
  if (!row) throw new AppError("NOT_FOUND", MSG.notFound);
  const signed = signer.sign(row.photoLink);
  if (!signed) throw new AppError("BAD_REQUEST", MSG.photoNone);
  let charged = false;
  if (viewedId !== viewerId) {
    const claimed = await tx
      .insert(profilePhotoViews)
      .values({ viewerId, viewedId })
      .onConflictDoUpdate({
        target: [profilePhotoViews.viewerId, profilePhotoViews.viewedId],
        set: { chargedAt: sql`now()` },
        setWhere: sql`${profilePhotoViews.chargedAt} <= now() - make_interval(hours => ${PHOTO_VIEW_FREE_HOURS})`,
      })
      .returning({ viewerId: profilePhotoViews.viewerId });
    charged = claimed.length > 0;
  }
  const result = await charge({ quantity: charged ? 1 : 0, reference: viewedId });
  return { ...signed, charged, remainingPoints: result.remainingPoints };
}

export interface PhotoPrice {
  /** The member has a photo that can be enlarged (a stored one); false: no enlarge button. */
  available: boolean;
  /** The points the next members.viewPhoto of this member takes from the balance now. */
  cost: number;
  /** cost === 0: no confirmation needed, the label says 無料. */
  free: boolean;
  /** Within PHOTO_VIEW_FREE_HOURS of the last paid enlargement: until when it stays free. */
  freeUntil: Date | null;
  reason: FreeViewReason | null;
}

/**
 * What enlarging this member's photo would cost me now (the quote the web shows on the 「写真を拡大」
 * button), by viewPhoto's rules in one statement, like viewPrice (view-price.ts): same NOT_FOUND;
 * one's own photo is free; a paid enlargement less than PHOTO_VIEW_FREE_HOURS ago makes it free;
 * otherwise the current profile_photo_view cost from the table, of which a prepaid credit pays
 * first. A member without a stored photo answers `available: false` and cost 0 (nothing to sell).
 * A quote, not a hold.
 */
export async function photoPrice(db: Db, viewerId: string, viewedId: string): Promise<PhotoPrice> {
  const [row] = await db
    .select({
      photoLink: users.photoLink,
      freeUntil:
        sql<Date | null>`(select ${profilePhotoViews.chargedAt} + make_interval(hours => ${PHOTO_VIEW_FREE_HOURS})
        from ${profilePhotoViews} where ${profilePhotoViews.viewerId} = ${viewerId} and ${profilePhotoViews.viewedId} = ${viewedId}
        and ${profilePhotoViews.chargedAt} > now() - make_interval(hours => ${PHOTO_VIEW_FREE_HOURS}))`.mapWith(
          (v: string | Date | null) => (v === null ? null : new Date(v)),
        ),
      price: sql<number | null>`(select c.point_cost from ${pointCosts} c where c.action_name = 'profile_photo_view')`,
      prepaid: prepaidCreditsWaiting(viewerId, "profile_photo_view"),
    })
    .from(users)
    .where(and(eq(users.id, viewedId), reachableMember(), notBlockedWith(viewerId, users.id)));
  if (!row) throw new AppError("NOT_FOUND", MSG.notFound);
  const available = photoName(row.photoLink) !== null;
  const own = viewedId === viewerId;
  const freeUntil = own || !available ? null : row.freeUntil;
  const price = row.price ?? 0;
  const reason: FreeViewReason | null = !available
    ? null
    : own
      ? "own"
      : freeUntil
        ? "recentView"
        : price === 0
          ? "noPrice"
          : row.prepaid
            ? "prepaid"
            : null;
  const cost = available && reason === null ? price : 0;
  return { available, cost, free: cost === 0, freeUntil, reason };
}
