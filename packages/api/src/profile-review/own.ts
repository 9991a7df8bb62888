import { profileReviews, users } from "@enmusubi/db";
import {
  PROFILE_REVIEW_APPROVED_NOTICE_DAYS,
  type ProfileRejectReason,
  type ProfileReviewKind,
  type ProfileReviewStatus,
  profileRejectReasonLabel,
} from "@enmusubi/shared";
import { sql } from "drizzle-orm";

/**
 * The owner's view of their photo and 自己紹介 reviews (docs/decisions/0044): a change waiting
 * (「審査中」), the last rejection with its reason until the member changes that again, or an
 * approval of the last PROFILE_REVIEW_APPROVED_NOTICE_DAYS days. Only the owner and the
 * administrators ever read a pending value.
 */
export type OwnReviewState =
  | { status: "pending"; submittedAt: Date }
  | { status: "rejected"; reason: ProfileRejectReason; reasonLabel: string; note: string; decidedAt: Date }
  | { status: "approved"; decidedAt: Date }
  | null;

export interface OwnReview {
  photo: OwnReviewState;
  introduction: OwnReviewState;
}

interface LatestRow {
  kind: ProfileReviewKind;
  status: ProfileReviewStatus;
  photoLink: string | null;
  introduction: string | null;
  reason: ProfileRejectReason | null;
  note: string;
  createdAt: string;
  decidedAt: string | null;
}

/**
 * The member's latest review row of each kind, as one JSON column of the own view's statement
 * (GET /api/auth/me stays one round trip; decision 0044).
 */
export const latestReviewsColumn = sql<LatestRow[]>`coalesce((select json_agg(r) from (
    select distinct on (pr.kind) pr.kind, pr.status, pr.photo_link as "photoLink", pr.introduction,
      pr.reason, pr.note, pr.created_at as "createdAt", pr.decided_at as "decidedAt"
    from ${profileReviews} pr where pr.user_id = ${users.id}
    order by pr.kind, pr.created_at desc) r), '[]'::json)`;

function stateOf(row: LatestRow | undefined, now: Date): OwnReviewState {
  if (!row) return null;
  if (row.status === "pending") return { status: "pending", submittedAt: new Date(row.createdAt) };
  const decidedAt = new Date(row.decidedAt ?? row.createdAt);
  if (row.status === "rejected") {
    const reason = row.reason ?? "other";
    return { status: "rejected", reason, reasonLabel: profileRejectReasonLabel(reason), note: row.note, decidedAt };
  }
  const noticeUntil = decidedAt.getTime() + PROFILE_REVIEW_APPROVED_NOTICE_DAYS * 24 * 60 * 60 * 1000;
  if (row.status === "approved" && now.getTime() < noticeUntil) return { status: "approved", decidedAt };
  return null;
}

/**
 * The owner's review states, and their own versions: the pending photo's link (shown to them as
 * a signed URL) and the pending 自己紹介, or null when none waits.
 */
export function ownReviewOf(rows: LatestRow[], now = new Date()) {
  const photo = rows.find((r) => r.kind === "photo");
  const introduction = rows.find((r) => r.kind === "introduction");
  return {
    review: { photo: stateOf(photo, now), introduction: stateOf(introduction, now) } satisfies OwnReview,
    pendingPhotoLink: photo?.status === "pending" ? photo.photoLink : null,
    pendingIntroduction: introduction?.status === "pending" ? introduction.introduction : null,
  };
}
