import { type Db, profileReviews, users } from "@enmusubi/db";
import { MSG, type ProfileRejectReason, type ProfileReviewKind, type ProfileReviewStatus } from "@enmusubi/shared";
import { and, eq, isNull, sql } from "drizzle-orm";
import { writeAudit } from "../audit/audit-log";
import type { ApiDeps } from "../deps";
import { AppError } from "../errors";
import { enqueueMail } from "../mail/outbox";
import { profileRejectedMail } from "../mail/templates";
import { releasePhoto } from "../photos/service";

/*
 * An administrator decides a member's pending photo or 自己紹介 change (docs/decisions/0044), once:
 * the review row is locked and must still be pending (a second decision, a colleague's at the same
 * moment, or a change the member replaced meanwhile is CONFLICT). Approval copies the value into
 * users in the same transaction (the photo it replaces is removed once committed); rejection keeps
 * the approved one, records the reason and mails the member (never the photo or the text). Both
 * are audited.
 */

type Deps = Pick<ApiDeps, "db" | "uploadsDir" | "publicUrl" | "onMailQueued">;

async function lockPending(tx: Db, id: string) {
  const [row] = await tx
    .select({
      userId: profileReviews.userId,
      kind: profileReviews.kind,
      status: profileReviews.status,
      photoLink: profileReviews.photoLink,
      introduction: profileReviews.introduction,
    })
    .from(profileReviews)
    .where(eq(profileReviews.id, id))
    .for("update");
  if (!row) throw new AppError("NOT_FOUND", MSG.notFound);
  if (row.status !== "pending") throw new AppError("CONFLICT", MSG.profileReviewAlreadyDecided);
  // The member's row too: their own profile update takes the same lock first.
  const [user] = await tx
    .select({ photoLink: users.photoLink, email: users.email })
    .from(users)
    .where(and(eq(users.id, row.userId), isNull(users.deletedAt)))
    .for("update");
  if (!user) throw new AppError("NOT_FOUND", MSG.notFound);
  return { ...row, user };
}

async function markDecided(
  tx: Db,
  id: string,
  adminId: string,
  status: ProfileReviewStatus,
  rejection?: { reason: ProfileRejectReason; note: string },
) {
  await tx
    .update(profileReviews)
    .set({ status, decidedBy: adminId, decidedAt: sql`now()`, ...(rejection ?? {}) })
    .where(eq(profileReviews.id, id));
}

export async function approveProfileReview(
  deps: Deps,
  adminId: string,
  id: string,
): Promise<{ userId: string; kind: ProfileReviewKind }> {
  const result = await deps.db.transaction(async (tx) => {
    const row = await lockPending(tx, id);
    if (row.kind === "photo") {
      await tx.update(users).set({ photoLink: row.photoLink }).where(eq(users.id, row.userId));
    } else {
      await tx
        .update(users)
        .set({ selfIntroduction: row.introduction ?? "" })
        .where(eq(users.id, row.userId));
    }
    await markDecided(tx, id, adminId, "approved");
    await writeAudit(tx, {
      adminId,
      action: "profile_review.approve",
      targetType: "user",
      targetId: row.userId,
      details: {
        reviewId: id,
        kind: row.kind,
        ...(row.kind === "photo" ? { photoLink: { from: row.user.photoLink, to: row.photoLink } } : {}),
      },
    });
    const replaced = row.kind === "photo" && row.user.photoLink !== row.photoLink ? row.user.photoLink : null;
    return { userId: row.userId, kind: row.kind, replaced };
  });
  await releasePhoto(deps, result.replaced);
  return { userId: result.userId, kind: result.kind };
}

export async function rejectProfileReview(
  deps: Deps,
  adminId: string,
  input: { id: string; reason: ProfileRejectReason; note: string },
): Promise<{ userId: string; kind: ProfileReviewKind }> {
  const result = await deps.db.transaction(async (tx) => {
    const row = await lockPending(tx, input.id);
    await markDecided(tx, input.id, adminId, "rejected", { reason: input.reason, note: input.note });
    await writeAudit(tx, {
      adminId,
      action: "profile_review.reject",
      targetType: "user",
      targetId: row.userId,
      details: {
        reviewId: input.id,
        kind: row.kind,
        reason: input.reason,
        ...(input.note ? { note: input.note } : {}),
      },
    });
    await enqueueMail(tx, {
      to: row.user.email,
      ...profileRejectedMail(deps.publicUrl, row.kind, input.reason, input.note),
    });
    return { userId: row.userId, kind: row.kind, photoLink: row.kind === "photo" ? row.photoLink : null };
  });
  // A rejected photo is never shown: its file goes once the decision has committed.
  await releasePhoto(deps, result.photoLink);
  deps.onMailQueued();
  return { userId: result.userId, kind: result.kind };
}
