import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { type Db, profileReviews, users } from "@enmusubi/db";
import { MSG } from "@enmusubi/shared";
import { and, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import { writeAudit } from "../audit/audit-log";
import { AppError } from "../errors";
import { enforceRateLimit, RATE_LIMITS, type RateLimiter } from "../security/rate-limit";
import { deletePhotoFile, PHOTO_URL_PREFIX, savePhoto } from "./storage";

interface PhotoDeps {
  db: Db;
  uploadsDir: string;
}

/** Whether a stored link is a change waiting for the profile review (decision 0044). */
const pendingReviewOf = (link: SQL | string) =>
  sql`exists (select 1 from ${profileReviews} r where r.status = 'pending' and r.photo_link = ${link})`;

/**
 * Deletes the file of a photo link nobody uses any more. Runs after the transaction that dropped
 * the link has committed; a link another account still shows, or a review still waits on, keeps its file.
 */
export async function releasePhoto(deps: PhotoDeps, link: string | null | undefined): Promise<void> {
  if (!link) return;
  const [row] = await deps.db
    .select({ n: sql<number>`count(*)::int`, pending: sql<boolean>`${pendingReviewOf(link)}` })
    .from(users)
    .where(eq(users.photoLink, link));
  if ((row?.n ?? 0) === 0 && !row?.pending) await deletePhotoFile(deps.uploadsDir, link);
}

/**
 * Whether the photo `name` (`<32 hex>.jpg`) waits for the profile review: its thumbnail is not
 * served (only the owner and administrators see it, through signed URLs; decision 0044).
 */
export async function photoAwaitingReview(db: Db, name: string): Promise<boolean> {
  const [row] = await db
    .select({ id: profileReviews.id })
    .from(profileReviews)
    .where(and(eq(profileReviews.status, "pending"), eq(profileReviews.photoLink, `${PHOTO_URL_PREFIX}${name}`)))
    .limit(1);
  return row !== undefined;
}

/**
 * Sets (or clears, with null) an account's photo and removes the file it replaced. `adminId`
 * marks an administrator acting on a member: the change is audited.
 */
export async function setUserPhoto(
  deps: PhotoDeps,
  userId: string,
  link: string | null,
  adminId?: string,
): Promise<void> {
  const previous = await deps.db.transaction(async (tx) => {
    const [before] = await tx
      .select({ photoLink: users.photoLink })
      .from(users)
      .where(and(eq(users.id, userId), isNull(users.deletedAt)))
      .for("update");
    if (!before) throw new AppError("NOT_FOUND", MSG.notFound);
    await tx.update(users).set({ photoLink: link }).where(eq(users.id, userId));
    if (adminId) {
      await writeAudit(tx, {
        adminId,
        action: "user.photo",
        targetType: "user",
        targetId: userId,
        details: { photoLink: { from: before.photoLink, to: link } },
      });
    }
    return before.photoLink;
  });
  if (previous !== link) await releasePhoto(deps, previous);
}

interface StoreRequest {
  data: string;
  /** Who uploads: rate-limited per account, since each upload decodes and re-encodes an image. */
  actorId: string;
  /** An administrator acting (on a member, or for a new user's draft): a higher allowance, and audited. */
  adminId?: string | undefined;
}

/**
 * Stores a new photo (checked and cleaned), hands its link to `use`, and removes the file again if
 * `use` fails: a request carrying a photo applies entirely or leaves nothing behind. Without data,
 * `use` gets undefined.
 */
export async function withStoredPhoto<T>(
  deps: PhotoDeps & { limiter: RateLimiter },
  request: StoreRequest | undefined,
  use: (link: string | undefined) => Promise<T>,
): Promise<T> {
  if (!request) return use(undefined);
  const rule = request.adminId ? RATE_LIMITS.photoUploadPerAdmin : RATE_LIMITS.photoUploadPerMember;
  await enforceRateLimit(deps.limiter, [[`photo:${request.actorId}`, rule]]);
  const link = await savePhoto(deps.uploadsDir, request.data);
  try {
    return await use(link);
  } catch (error) {
    await deletePhotoFile(deps.uploadsDir, link);
    throw error;
  }
}

/**
 * Stores an uploaded photo; with `userId` it becomes that account's photo (the one it replaces is
 * removed). Answers the stored photo's link.
 */
export async function uploadPhoto(
  deps: PhotoDeps & { limiter: RateLimiter },
  input: StoreRequest & { userId?: string | undefined },
): Promise<string> {
  return withStoredPhoto(deps, input, async (link) => {
    const stored = link as string;
    if (input.userId) await setUserPhoto(deps, input.userId, stored, input.adminId);
    return stored;
  });
}

/**
 * Removes stored photos no account uses that are older than `minAgeMs`: drafts of a new user or
 * an edit the administrator then abandoned. Answers how many files were removed.
 */
export async function sweepOrphanPhotos(deps: PhotoDeps, minAgeMs = 24 * 60 * 60 * 1000): Promise<number> {
  const dir = path.join(deps.uploadsDir, "photos");
  const names = await readdir(dir).catch(() => [] as string[]);
  const cutoff = Date.now() - minAgeMs;
  const old: string[] = [];
  for (const name of names) {
    const info = await stat(path.join(dir, name)).catch(() => null);
    if (info?.isFile() && info.mtimeMs < cutoff) old.push(`${PHOTO_URL_PREFIX}${name}`);
  }
  let removed = 0;
  for (let i = 0; i < old.length; i += 500) {
    const batch = old.slice(i, i + 500);
    const used = await deps.db.select({ link: users.photoLink }).from(users).where(inArray(users.photoLink, batch));
    // A photo waiting for the review is in use too (decision 0044).
    const waiting = await deps.db
      .select({ link: profileReviews.photoLink })
      .from(profileReviews)
      .where(and(eq(profileReviews.status, "pending"), inArray(profileReviews.photoLink, batch)));
    const inUse = new Set([...used, ...waiting].map((u) => u.link));
    for (const link of batch.filter((l) => !inUse.has(l))) {
      await deletePhotoFile(deps.uploadsDir, link);
      removed += 1;
    }
  }
  return removed;
}
