import { type Db, idVerifications, users } from "@enmusubi/db";
import {
  ageOn,
  ID_IMAGE_RETENTION_HOURS,
  type IdVerificationState,
  MSG,
  pageOffset,
  type VerificationQueueInput,
  type VerificationStatus,
  verificationQueueInput,
} from "@enmusubi/shared";
import { and, asc, count, desc, eq, isNotNull, lt, sql } from "drizzle-orm";
import { writeAudit } from "../audit/audit-log";
import type { ApiDeps } from "../deps";
import { AppError, isUniqueViolation } from "../errors";
import { pagesFor } from "../lists/pages";
import { enqueueMail } from "../mail/outbox";
import { verificationResultMail } from "../mail/templates";
import { enforceRateLimit, RATE_LIMITS } from "../security/rate-limit";
import { assertAdultOnId } from "./age-check";
import { deleteIdImage, deleteIdImagesOlderThan, readIdImage, saveIdImage } from "./storage";

/**
 * Age verification (出会い系サイト規制法 art. 11; docs/decisions/0006). A member submits an ID image
 * (status pending); an administrator approves or rejects it with a reason (verified / rejected;
 * the member may submit again). The image is deleted at review, and by the job at the latest
 * ID_IMAGE_RETENTION_HOURS after submission. The gate itself is `verifiedProcedure` (trpc.ts)
 * and `lockUnverified` (gate.ts) for received messages.
 */

type Deps = Pick<ApiDeps, "db" | "uploadsDir" | "limiter" | "publicUrl" | "onMailQueued">;

export const ID_IMAGE_RETENTION_MS = ID_IMAGE_RETENTION_HOURS * 60 * 60 * 1000;

/** Said to the member when the job deleted an image nobody reviewed in time (they may submit again). */
export const EXPIRED_REASON = `審査期限（提出から${ID_IMAGE_RETENTION_HOURS}時間）を過ぎたため、画像を削除しました。お手数ですが、もう一度提出してください。`;

export interface VerificationStatusView {
  status: VerificationStatus;
  /** The reason of the latest rejection, while the status is rejected. */
  rejectReason: string | null;
  /** When the latest submission was made; null before the first one. */
  submittedAt: Date | null;
  verifiedAt: Date | null;
}

/** A member's own standing and latest submission. */
export async function verificationStatus(db: Db, userId: string): Promise<VerificationStatusView> {
  const [user] = await db
    .select({ status: users.verificationStatus, verifiedAt: users.verifiedAt })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) throw new AppError("NOT_FOUND", MSG.notFound);
  const [latest] = await db
    .select({ createdAt: idVerifications.createdAt, rejectReason: idVerifications.rejectReason })
    .from(idVerifications)
    .where(eq(idVerifications.userId, userId))
    .orderBy(desc(idVerifications.createdAt))
    .limit(1);
  return {
    status: user.status,
    rejectReason: user.status === "rejected" ? (latest?.rejectReason ?? null) : null,
    submittedAt: latest?.createdAt ?? null,
    verifiedAt: user.verifiedAt,
  };
}

function refuseSubmission(status: VerificationStatus): void {
  if (status === "pending") throw new AppError("CONFLICT", MSG.verificationAlreadyPending);
  if (status === "verified") throw new AppError("CONFLICT", MSG.verificationAlreadyDone);
}

/**
 * A member submits an ID image (allowed while unverified or rejected). The image goes through the
 * profile-photo pipeline (decoded, re-encoded, metadata stripped) into the private directory; the
 * row and the member's status change in one transaction, and the file is removed again if that fails.
 */
export async function submitVerification(deps: Deps, userId: string, image: string) {
  // Cheap refusals before the image is decoded.
  const [before] = await deps.db.select({ status: users.verificationStatus }).from(users).where(eq(users.id, userId));
  if (!before) throw new AppError("NOT_FOUND", MSG.notFound);
  refuseSubmission(before.status);
  await enforceRateLimit(deps.limiter, [[`id-image:${userId}`, RATE_LIMITS.photoUploadPerMember]]);
  const name = await saveIdImage(deps.uploadsDir, image);
  try {
    return await deps.db.transaction(async (tx) => {
      // The member's row is locked: two submissions at once are taken one after the other.
      const [user] = await tx
        .select({ status: users.verificationStatus })
        .from(users)
        .where(eq(users.id, userId))
        .for("update");
      if (!user) throw new AppError("NOT_FOUND", MSG.notFound);
      refuseSubmission(user.status);
      const [row] = await tx
        .insert(idVerifications)
        .values({ userId, imagePath: name })
        .returning({ id: idVerifications.id, createdAt: idVerifications.createdAt });
      await tx.update(users).set({ verificationStatus: "pending" }).where(eq(users.id, userId));
      return { id: row?.id as string, status: "pending" as const, submittedAt: row?.createdAt as Date };
    });
  } catch (error) {
    await deleteIdImage(deps.uploadsDir, name);
    if (isUniqueViolation(error)) throw new AppError("CONFLICT", MSG.verificationAlreadyPending);
    throw error;
  }
}

// ---- administrators --------------------------------------------------------------------------

export interface QueueEntry {
  id: string;
  submittedAt: Date;
  /** False once the image was deleted (reviewed, or older than ID_IMAGE_RETENTION_HOURS). */
  hasImage: boolean;
  user: {
    id: string;
    userID: string;
    name: string | null;
    gender: "male" | "female";
    birthday: string | null;
    /** From the registered birthday, to compare with the document. */
    age: number | null;
    createdAt: Date;
  };
}

/** Submissions waiting for review, oldest first, paged. */
export async function verificationQueue(db: Db, raw: VerificationQueueInput, today = new Date()) {
  const input = verificationQueueInput.parse(raw);
  const pending = eq(idVerifications.status, "pending");
  const [totals] = await db.select({ total: count() }).from(idVerifications).where(pending);
  const rows = await db
    .select({
      id: idVerifications.id,
      submittedAt: idVerifications.createdAt,
      imagePath: idVerifications.imagePath,
      userId: users.id,
      userID: users.userId,
      name: users.name,
      gender: users.gender,
      birthday: users.birthday,
      createdAt: users.createdAt,
    })
    .from(idVerifications)
    .innerJoin(users, eq(users.id, idVerifications.userId))
    .where(pending)
    .orderBy(asc(idVerifications.createdAt), asc(idVerifications.id))
    .limit(input.limit)
    .offset(pageOffset(input.page, input.limit));
  const total = Number(totals?.total ?? 0);
  const entries: QueueEntry[] = rows.map((r) => ({
    id: r.id,
    submittedAt: r.submittedAt,
    hasImage: r.imagePath !== null,
    user: {
      id: r.userId,
      userID: r.userID,
      name: r.name,
      gender: r.gender,
      birthday: r.birthday,
      age: r.birthday ? ageOn(r.birthday, today) : null,
      createdAt: r.createdAt,
    },
  }));
  return {
    entries,
    total,
    page: input.page,
    limit: input.limit,
    totalPages: pagesFor(total, false, input.limit),
  };
}

/** The ID image of a submission (administrators only): JPEG bytes. Deleted or unknown: NOT_FOUND. */
export async function idImageOf(deps: Pick<Deps, "db" | "uploadsDir">, id: string): Promise<Buffer> {
  const [row] = await deps.db
    .select({ imagePath: idVerifications.imagePath })
    .from(idVerifications)
    .where(eq(idVerifications.id, id));
  if (!row) throw new AppError("NOT_FOUND", MSG.notFound);
  const bytes = row.imagePath ? await readIdImage(deps.uploadsDir, row.imagePath) : null;
  if (!bytes) throw new AppError("NOT_FOUND", MSG.verificationImageGone);
  return bytes;
}

/**
 * Decides a pending submission: the member's status, the review fields, the image's deletion mark,
 * the audit row and the result mail change in one transaction; the file itself is deleted once it
 * has committed. A submission already reviewed (by a colleague at the same moment) is CONFLICT.
 * An approval needs the birth date read from the ID (decision 0043): the one given (it becomes the
 * member's), else the one stored; none is BAD_REQUEST, under 18 is BAD_REQUEST, and nothing changes.
 */
async function review(
  deps: Deps,
  adminId: string,
  id: string,
  outcome: "approved" | "rejected",
  reason: string | null,
  birthdayRead?: string,
): Promise<{ userId: string; status: VerificationStatus }> {
  const result = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select({
        userId: idVerifications.userId,
        status: idVerifications.status,
        imagePath: idVerifications.imagePath,
      })
      .from(idVerifications)
      .where(eq(idVerifications.id, id))
      .for("update");
    if (!row) throw new AppError("NOT_FOUND", MSG.notFound);
    if (row.status !== "pending") throw new AppError("CONFLICT", MSG.verificationAlreadyReviewed);
    const [user] = await tx
      .select({
        status: users.verificationStatus,
        email: users.email,
        deletedAt: users.deletedAt,
        birthday: users.birthday,
      })
      .from(users)
      .where(eq(users.id, row.userId))
      .for("update");
    const now = new Date();
    const checked = outcome === "approved" ? (birthdayRead ?? user?.birthday ?? null) : null;
    if (outcome === "approved") {
      if (!checked) throw new AppError("BAD_REQUEST", MSG.idBirthdayRequired);
      assertAdultOnId(checked, now);
    }
    await tx
      .update(idVerifications)
      .set({
        status: outcome,
        rejectReason: reason,
        reviewedBy: adminId,
        reviewedAt: now,
        imagePath: null,
        imageDeletedAt: row.imagePath ? now : sql`${idVerifications.imageDeletedAt}`,
        birthdayChecked: checked,
      })
      .where(eq(idVerifications.id, id));
    const status: VerificationStatus = outcome === "approved" ? "verified" : "rejected";
    const newBirthday = checked !== null && checked !== user?.birthday ? checked : undefined;
    await tx
      .update(users)
      .set({
        verificationStatus: status,
        verifiedAt: outcome === "approved" ? now : null,
        ...(newBirthday ? { birthday: newBirthday } : {}),
      })
      .where(eq(users.id, row.userId));
    await writeAudit(tx, {
      adminId,
      action: outcome === "approved" ? "verification.approve" : "verification.reject",
      targetType: "user",
      targetId: row.userId,
      details: {
        verificationId: id,
        verificationStatus: { from: user?.status ?? null, to: status },
        ...(checked ? { birthdayChecked: checked } : {}),
        ...(newBirthday ? { birthday: { from: user?.birthday ?? null, to: newBirthday } } : {}),
        ...(reason ? { reason } : {}),
      },
    });
    if (user && !user.deletedAt) {
      await enqueueMail(tx, { to: user.email, ...verificationResultMail(deps.publicUrl, outcome, reason) });
    }
    return { userId: row.userId, status, imagePath: row.imagePath, mailed: Boolean(user && !user.deletedAt) };
  });
  await deleteIdImage(deps.uploadsDir, result.imagePath);
  if (result.mailed) deps.onMailQueued();
  return { userId: result.userId, status: result.status };
}

/** `birthday`: the birth date read from the ID (required when the member's is unknown; decision 0043). */
export const approveVerification = (deps: Deps, adminId: string, id: string, birthday?: string) =>
  review(deps, adminId, id, "approved", null, birthday);

export const rejectVerification = (deps: Deps, adminId: string, id: string, reason: string) =>
  review(deps, adminId, id, "rejected", reason);

// ---- the deletion after ID_IMAGE_RETENTION_HOURS -----------------------------------------------

/**
 * Deletes every ID image submitted more than ID_IMAGE_RETENTION_HOURS before `now`, whatever its
 * state (the privacy policy's promise). A submission still pending then can no longer be reviewed: it is
 * rejected with EXPIRED_REASON and the member is told, so they can submit again at once instead of
 * waiting on a review that cannot happen. Files left without a row are deleted too.
 */
export async function expireIdImages(deps: Deps, now = new Date()) {
  const cutoff = new Date(now.getTime() - ID_IMAGE_RETENTION_MS);
  const expired = await deps.db.transaction(async (tx) => {
    const rows = await tx
      .select({
        id: idVerifications.id,
        userId: idVerifications.userId,
        imagePath: idVerifications.imagePath,
        status: idVerifications.status,
      })
      .from(idVerifications)
      .where(and(isNotNull(idVerifications.imagePath), lt(idVerifications.createdAt, cutoff)))
      .for("update", { skipLocked: true });
    let mailed = 0;
    for (const row of rows) {
      const stillPending = row.status === ("pending" satisfies IdVerificationState);
      await tx
        .update(idVerifications)
        .set({
          imagePath: null,
          imageDeletedAt: now,
          ...(stillPending ? { status: "rejected" as const, rejectReason: EXPIRED_REASON, reviewedAt: now } : {}),
        })
        .where(eq(idVerifications.id, row.id));
      if (!stillPending) continue;
      const [user] = await tx
        .update(users)
        .set({ verificationStatus: "rejected", verifiedAt: null })
        .where(and(eq(users.id, row.userId), eq(users.verificationStatus, "pending")))
        .returning({ email: users.email, deletedAt: users.deletedAt });
      if (user && !user.deletedAt) {
        await enqueueMail(tx, {
          to: user.email,
          ...verificationResultMail(deps.publicUrl, "rejected", EXPIRED_REASON),
        });
        mailed += 1;
      }
    }
    return { rows, mailed };
  });
  for (const row of expired.rows) await deleteIdImage(deps.uploadsDir, row.imagePath);
  if (expired.mailed > 0) deps.onMailQueued();
  const strays = await deleteIdImagesOlderThan(deps.uploadsDir, cutoff);
  return {
    deleted: expired.rows.length,
    expiredPending: expired.rows.filter((r) => r.status === "pending").length,
    strayFiles: strays,
  };
}
