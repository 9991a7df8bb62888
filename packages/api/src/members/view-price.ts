import { type Db, pointCosts, profileViews, users } from "@enmusubi/db";
import { MSG, PROFILE_VIEW_FREE_HOURS } from "@enmusubi/shared";
import { and, eq, sql } from "drizzle-orm";
import { AppError } from "../errors";
import { prepaidCreditsWaiting } from "../points/prepaid";
import { notBlockedWith } from "../safety/blocks";
import { reachableMember } from "./public-profile";

/** Why the next view of a profile takes no points (null: it costs `cost`). */
export type FreeViewReason = "own" | "recentView" | "noPrice" | "prepaid";

export interface ViewPrice {
  /** The points the next members.viewProfile of this profile takes from the balance now. */
  cost: number;
  /** cost === 0: the confirmation may be skipped. */
  free: boolean;
  /** Within PROFILE_VIEW_FREE_HOURS of the last paid view: until when a view stays free. */
  freeUntil: Date | null;
  reason: FreeViewReason | null;
}

/**
 * What opening a profile's detail would cost the member right now (decision 0026: the confirmation
 * quoted 15 pt even for a free re-view). A query of its own, asked when the member opens the
 * confirmation, rather than a field on every search card: one indexed profile_views lookup per
 * click instead of one per card on every search page, and fresh when the member decides (a card's
 * answer would be stale after the 24 hours ran out or the price changed).
 *
 * It reads what `viewProfile` (service.ts) decides, by the same rules, in one statement (its subqueries uncorrelated on purpose: drizzle writes a
 * one-table query's columns unqualified):
 * the same target (a reachable member, no block either way, else NOT_FOUND as the view answers);
 * one's own profile is free; a paid view less than PROFILE_VIEW_FREE_HOURS ago makes it free (the
 * complement of the claim's `charged_at <= now() - interval`); otherwise the current profile_view
 * cost from the table (not this process's cached copy: the charge reads the table too), of which
 * a prepaid deduct-points credit pays first. A quote is not a hold: the price may change, or the
 * window end, between the quote and the view; the view charges what holds then.
 */
export async function viewPrice(db: Db, viewerId: string, viewedId: string): Promise<ViewPrice> {
  const [row] = await db
    .select({
      freeUntil: sql<Date | null>`(select ${profileViews.chargedAt} + make_interval(hours => ${PROFILE_VIEW_FREE_HOURS})
        from ${profileViews} where ${profileViews.viewerId} = ${viewerId} and ${profileViews.viewedId} = ${viewedId}
        and ${profileViews.chargedAt} > now() - make_interval(hours => ${PROFILE_VIEW_FREE_HOURS}))`.mapWith(
        (v: string | Date | null) => (v === null ? null : new Date(v)),
      ),
      price: sql<number | null>`(select c.point_cost from ${pointCosts} c where c.action_name = 'profile_view')`,
      prepaid: prepaidCreditsWaiting(viewerId, "profile_view"),
    })
    .from(users)
    .where(and(eq(users.id, viewedId), reachableMember(), notBlockedWith(viewerId, users.id)));
  if (!row) throw new AppError("NOT_FOUND", MSG.notFound);
  const freeUntil = viewedId === viewerId ? null : row.freeUntil;
  const price = row.price ?? 0;
  const reason: FreeViewReason | null =
    viewedId === viewerId ? "own" : freeUntil ? "recentView" : price === 0 ? "noPrice" : row.prepaid ? "prepaid" : null;
  const cost = reason === null ? price : 0;
  return { cost, free: cost === 0, freeUntil, reason };
}
