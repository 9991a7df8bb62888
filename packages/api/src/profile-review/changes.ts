import { type Db, profileReviews } from "@enmusubi/db";
import type { ProfileReviewKind } from "@enmusubi/shared";
import { and, desc, eq, sql } from "drizzle-orm";

/*
 * A member's changes of the photo and the 自己紹介 wait for the review (docs/decisions/0044). The
 * approved values stay in users.photo_link and users.self_introduction, which every reader reads;
 * a change is a `pending` row of profile_reviews until an administrator decides it. These run in
 * the transaction of the member's profile update, under the lock of the member's row.
 */

/** The member's change of one kind waiting for the review, if any. */
export async function pendingChange(tx: Db, userId: string, kind: ProfileReviewKind) {
  const [row] = await tx
    .select({ id: profileReviews.id, photoLink: profileReviews.photoLink, introduction: profileReviews.introduction })
    .from(profileReviews)
    .where(and(eq(profileReviews.userId, userId), eq(profileReviews.kind, kind), eq(profileReviews.status, "pending")));
  return row ?? null;
}

/**
 * Withdraws the member's pending change of `kind` (they changed it again, or cleared it): it is
 * never shown. Answers the pending photo's link, whose file the caller removes once committed.
 * `endNotice`: when nothing was pending and the latest decision was a rejection, a withdrawn row
 * is recorded so the owner's view stops showing that rejection (the member changed it since).
 */
export async function withdrawChange(
  tx: Db,
  userId: string,
  kind: ProfileReviewKind,
  { endNotice = false } = {},
): Promise<string | null> {
  const withdrawn = await tx
    .update(profileReviews)
    .set({ status: "withdrawn", decidedAt: sql`now()` })
    .where(and(eq(profileReviews.userId, userId), eq(profileReviews.kind, kind), eq(profileReviews.status, "pending")))
    .returning({ photoLink: profileReviews.photoLink });
  if (withdrawn.length === 0 && endNotice) {
    const [latest] = await tx
      .select({ status: profileReviews.status })
      .from(profileReviews)
      .where(and(eq(profileReviews.userId, userId), eq(profileReviews.kind, kind)))
      .orderBy(desc(profileReviews.createdAt))
      .limit(1);
    if (latest?.status === "rejected") {
      await tx.insert(profileReviews).values({ userId, kind, status: "withdrawn", decidedAt: sql`now()` });
    }
  }
  return withdrawn[0]?.photoLink ?? null;
}

/**
 * A new change of `kind` waits for the review: it replaces the member's older pending one (whose
 * photo's link is answered, for the caller to remove once committed).
 */
export async function submitChange(
  tx: Db,
  userId: string,
  change: { kind: "photo"; photoLink: string } | { kind: "introduction"; introduction: string },
): Promise<string | null> {
  const replaced = await withdrawChange(tx, userId, change.kind);
  await tx.insert(profileReviews).values({ userId, ...change });
  return replaced;
}

/** What a member's profile update does with the photo and the 自己紹介 (see `planMemberChanges`). */
export interface MemberChanges {
  /** Columns of users to set now (for a member only clearing, to nothing, applies at once). */
  set: { photoLink?: string | null; selfIntroduction?: string };
  /** Stored photo links no longer used once the transaction commits. */
  release: Array<string | null>;
  /** Which kinds now wait for the review. */
  submitted: { photo: boolean; introduction: boolean };
}

/**
 * Routes a member's photo and 自己紹介 changes, in the update's transaction: a new photo or a changed
 * 自己紹介 waits for the review (users keeps the approved one); clearing either needs no review and
 * withdraws what was pending; the 自己紹介 sent back as it is pending (or as approved, with nothing
 * pending) changes nothing; sent back as approved while another one is pending, the pending one is
 * withdrawn (the member went back to what others see).
 */
export async function planMemberChanges(
  tx: Db,
  user: { id: string; photoLink: string | null; selfIntroduction: string },
  change: { newPhotoLink?: string | undefined; clearPhoto: boolean; introduction?: string | undefined },
): Promise<MemberChanges> {
  const result: MemberChanges = { set: {}, release: [], submitted: { photo: false, introduction: false } };
  if (change.newPhotoLink) {
    result.release.push(await submitChange(tx, user.id, { kind: "photo", photoLink: change.newPhotoLink }));
    result.submitted.photo = true;
  } else if (change.clearPhoto) {
    result.set.photoLink = null;
    result.release.push(user.photoLink, await withdrawChange(tx, user.id, "photo", { endNotice: true }));
  }
  const text = change.introduction;
  if (text === undefined) return result;
  if (text === "") {
    if (user.selfIntroduction !== "") result.set.selfIntroduction = "";
    await withdrawChange(tx, user.id, "introduction", { endNotice: true });
    return result;
  }
  const pending = await pendingChange(tx, user.id, "introduction");
  if (pending?.introduction === text) return result;
  if (text === user.selfIntroduction) {
    if (pending) await withdrawChange(tx, user.id, "introduction");
    return result;
  }
  await submitChange(tx, user.id, { kind: "introduction", introduction: text });
  result.submitted.introduction = true;
  return result;
}

/**
 * Withdraws every pending change of a member whose account ends (deleted by an administrator, or
 * its data purged after 退会), in the caller's transaction; answers the photo links whose files the
 * caller removes once committed. `purge` also blanks the texts and links kept on decided rows.
 */
export async function withdrawAllChanges(tx: Db, userId: string, { purge = false } = {}): Promise<string[]> {
  const withdrawn = await tx
    .update(profileReviews)
    .set({ status: "withdrawn", decidedAt: sql`now()` })
    .where(and(eq(profileReviews.userId, userId), eq(profileReviews.status, "pending")))
    .returning({ photoLink: profileReviews.photoLink });
  if (purge) {
    await tx
      .update(profileReviews)
      .set({ photoLink: null, introduction: null, note: "" })
      .where(eq(profileReviews.userId, userId));
  }
  return withdrawn.flatMap((r) => (r.photoLink ? [r.photoLink] : []));
}
