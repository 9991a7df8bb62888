import { type Db, profileReviews, users } from "@enmusubi/db";
import {
  ageOn,
  type ProfileReviewKind,
  type ProfileReviewQueueInput,
  pageOffset,
  profileReviewQueueInput,
} from "@enmusubi/shared";
import { and, asc, count, eq, isNull } from "drizzle-orm";
import { pagesFor } from "../lists/pages";
import { fullSizeUrl, type PhotoUrlSigner } from "../photos/signed-url";

/**
 * 「プロフィール審査」 (docs/decisions/0044): members' photo and 自己紹介 changes waiting for the
 * review, oldest first, paged on the server; each with the current (approved) version beside the
 * new one. Photos are answered as short-lived signed URLs (administrators only).
 */

export interface ProfileReviewVersion {
  /** kind photo: the full-size photo's signed URL (an outside link as it is); null when none. */
  photoUrl: string | null;
  /** kind introduction: the 自己紹介 ("" when none); null for a photo. */
  introduction: string | null;
}

export interface ProfileReviewEntry {
  id: string;
  kind: ProfileReviewKind;
  submittedAt: Date;
  user: {
    id: string;
    userID: string;
    name: string | null;
    gender: "male" | "female";
    age: number | null;
    createdAt: Date;
  };
  /** What other members see now. */
  current: ProfileReviewVersion;
  /** The change waiting. */
  proposed: ProfileReviewVersion;
}

/** Pending changes of live members (a deleted member's are withdrawn at deletion). */
const waiting = and(eq(profileReviews.status, "pending"), isNull(users.deletedAt));

export async function profileReviewQueue(
  db: Db,
  signer: PhotoUrlSigner,
  raw: ProfileReviewQueueInput,
  today = new Date(),
) {
  const input = profileReviewQueueInput.parse(raw);
  const [totals] = await db
    .select({ total: count() })
    .from(profileReviews)
    .innerJoin(users, eq(users.id, profileReviews.userId))
    .where(waiting);
  const rows = await db
    .select({
      id: profileReviews.id,
      kind: profileReviews.kind,
      photoLink: profileReviews.photoLink,
      introduction: profileReviews.introduction,
      submittedAt: profileReviews.createdAt,
      userId: users.id,
      userID: users.userId,
      name: users.name,
      gender: users.gender,
      birthday: users.birthday,
      createdAt: users.createdAt,
      currentPhotoLink: users.photoLink,
      currentIntroduction: users.selfIntroduction,
    })
    .from(profileReviews)
    .innerJoin(users, eq(users.id, profileReviews.userId))
    .where(waiting)
    .orderBy(asc(profileReviews.createdAt), asc(profileReviews.id))
    .limit(input.limit)
    .offset(pageOffset(input.page, input.limit));
  const total = Number(totals?.total ?? 0);
  const entries: ProfileReviewEntry[] = rows.map((r) => {
    const photo = r.kind === "photo";
    return {
      id: r.id,
      kind: r.kind,
      submittedAt: r.submittedAt,
      user: {
        id: r.userId,
        userID: r.userID,
        name: r.name,
        gender: r.gender,
        age: r.birthday ? ageOn(r.birthday, today) : null,
        createdAt: r.createdAt,
      },
      current: {
        photoUrl: photo ? fullSizeUrl(signer, r.currentPhotoLink) : null,
        introduction: photo ? null : r.currentIntroduction,
      },
      proposed: {
        photoUrl: photo ? fullSizeUrl(signer, r.photoLink) : null,
        introduction: photo ? null : (r.introduction ?? ""),
      },
    };
  });
  return { entries, total, page: input.page, limit: input.limit, totalPages: pagesFor(total, false, input.limit) };
}
