import { annualIncomes, type Db, favorites, occupations, users } from "@enmusubi/db";
import { MSG, type ProfileUpdateInput } from "@enmusubi/shared";
import { and, eq, isNull, sql } from "drizzle-orm";
import { cancelEmailChanges } from "../accounts/email-change";
import { type CurrentPasswordDeps, checkCurrentPassword } from "../auth/current-password";
import { resolveSessionWith, sessionAccount, sessionColumns } from "../auth/session";
import type { TokenService } from "../auth/tokens";
import type { ApiDeps } from "../deps";
import { AppError } from "../errors";
import { releasePhoto, withStoredPhoto } from "../photos/service";
import { fullSizeUrl, type PhotoUrlSigner } from "../photos/signed-url";
import { thumbnailLink } from "../photos/storage";
import { type MemberChanges, pendingChange, planMemberChanges } from "../profile-review/changes";
import { latestReviewsColumn, type OwnReview, ownReviewOf } from "../profile-review/own";
import { perDatabase } from "../request-scope";
import { toUserView, type UserView, userColumns, withPhotoUrl } from "../users/user-view";

/** The signed-in account's own view of itself and its profile edits (members and administrators). */

interface ProfileDeps extends CurrentPasswordDeps {
  tokens: TokenService;
  uploadsDir: string;
  /** The client's address: a password change's attempts are counted like a login's (decision 0038). */
  ip: string;
}

/** The own view's columns: the fields of getOwnUserView, with the favourites folded into one statement. */
const ownViewColumns = {
  ...userColumns,
  // 自己紹介: the member's own (other members see it only in the paid detail).
  selfIntroduction: users.selfIntroduction,
  // The latest photo and 自己紹介 reviews (「審査中」, the last rejection; decision 0044).
  latestReviews: latestReviewsColumn,
  favoriteUserIds: sql<string[]>`coalesce((select json_agg(f.favorite_user_id) from ${favorites} f
    join ${users} fu on fu.id = f.favorite_user_id and fu.deleted_at is null
    where f.user_id = ${users.id}), '[]'::json)`,
};

/** The own view in one statement, prepared once per database. */
const meQueryOf = perDatabase((db: Db) =>
  db
    .select(ownViewColumns)
    .from(users)
    .leftJoin(occupations, eq(users.occupationId, occupations.id))
    .leftJoin(annualIncomes, eq(users.annualIncomeId, annualIncomes.id))
    .where(and(eq(users.id, sql.placeholder("id")), isNull(users.deletedAt)))
    .prepare("own_user_view"),
);

/**
 * The session's checks and the own view in one statement (GET /api/auth/me is among the most
 * frequent calls: one round trip instead of two, decision 0037).
 */
const meSessionQueryOf = perDatabase((db: Db) =>
  db
    .select({ ...ownViewColumns, ...sessionColumns })
    .from(users)
    .leftJoin(occupations, eq(users.occupationId, occupations.id))
    .leftJoin(annualIncomes, eq(users.annualIncomeId, annualIncomes.id))
    .where(sessionAccount())
    .prepare("own_user_view_session"),
);

type OwnViewRow = Awaited<ReturnType<ReturnType<typeof meQueryOf>["execute"]>>[number];

/**
 * The own view: the account's fields, its favourites and its reviews (decision 0044). `photoLink`
 * stays the approved photo (what others see, the link an edit keeps); `selfIntroduction` is the
 * owner's own latest text (the pending one while it waits, so sending it back changes nothing);
 * `review` says what waits or was rejected. `pendingPhotoLink` is for `withOwnPhotoUrl` only.
 */
export type OwnView = UserView & { selfIntroduction: string; favoriteUserIds: string[]; review: OwnReview };

const toOwnView = (row: OwnViewRow) => {
  const view = toUserView(row) as OwnView & { pendingPhotoLink?: string | null };
  const own = ownReviewOf(row.latestReviews);
  view.selfIntroduction = own.pendingIntroduction ?? row.selfIntroduction;
  view.favoriteUserIds = row.favoriteUserIds;
  view.review = own.review;
  view.pendingPhotoLink = own.pendingPhotoLink;
  return view;
};

/**
 * The own view with `photoUrl`: the signed full-size URL of the owner's latest photo, the one
 * waiting for the review when there is one (only the owner and administrators are given it).
 */
export function withOwnPhotoUrl(signer: PhotoUrlSigner, view: OwnView & { pendingPhotoLink?: string | null }) {
  const withUrl = withPhotoUrl(signer, view);
  if (view.pendingPhotoLink) withUrl.photoUrl = fullSizeUrl(signer, view.pendingPhotoLink);
  delete view.pendingPhotoLink;
  return withUrl as OwnView & { photoUrl: string | null };
}

export async function me(db: Db, userId: string) {
  const [row] = await meQueryOf(db).execute({ id: userId });
  if (!row) throw new AppError("UNAUTHORIZED", MSG.unauthorized);
  return toOwnView(row);
}

/**
 * The session of `authorization` and its account's own view with `photoUrl` (what `profile.me`
 * answers), read in one statement; null when the token does not count (as `resolveSession`).
 */
export async function resolveSessionWithOwnView(deps: ApiDeps, authorization: string | undefined) {
  const found = await resolveSessionWith(deps, authorization, async (db, id) => {
    const [row] = await meSessionQueryOf(db).execute({ id });
    return row;
  });
  return found && { session: found.session, view: withOwnPhotoUrl(deps.photoUrls, toOwnView(found.row)) };
}

async function assertReference(db: Db, table: typeof occupations | typeof annualIncomes, id: string, message: string) {
  const [found] = await db.select({ id: table.id }).from(table).where(eq(table.id, id));
  if (!found) throw new AppError("BAD_REQUEST", message);
}

/**
 * Which of the account's link(s) an edit may send back to keep its photo: the approved stored link
 * or its thumbnail (what the account's own REST answers carry, rest/legacy-shapes.ts), and a photo
 * waiting for the review. Any other link is refused, so nobody can point their profile at another
 * member's file.
 */
function keepsPhoto(sent: string | null | undefined, approved: string | null, pending: string | null): boolean {
  if (!sent) return false;
  return [approved, thumbnailLink(approved), pending, thumbnailLink(pending)].some((link) => link && link === sent);
}

/**
 * Updates the own profile. Everything one request asks for applies together or not at all: a new
 * photo (`newPhoto`, the legacy `photoLink: { photodatas }`) is stored first and removed again if
 * the rest fails (an unknown occupation…). A member's new photo and changed 自己紹介 wait for the
 * profile review (decision 0044: users keeps the approved ones; clearing applies at once); an
 * administrator's own profile applies at once. A new password needs the current one (checked
 * first, counted like a login's attempts), ends every other session (token version), drops a
 * pending reissued password and cancels a pending e-mail change; the answer carries a fresh token
 * for this session. The 自己紹介 arrives screened already (the router, decision 0042).
 */
export async function updateProfile(deps: ProfileDeps, userId: string, input: ProfileUpdateInput) {
  const { db, passwords, tokens } = deps;
  // The current password first, counted like a login's attempts (decision 0038), before any work.
  if (input.newPassword)
    await checkCurrentPassword(deps, { userId, ip: deps.ip }, input.currentPassword ?? "", MSG.currentPasswordWrong);
  const newPasswordHash = input.newPassword ? await passwords.hash(input.newPassword) : undefined;
  const photo = input.newPhoto ? { data: input.newPhoto, actorId: userId } : undefined;
  const outcome = await withStoredPhoto(deps, photo, (newLink) =>
    db.transaction(async (tx) => {
      const [user] = await tx
        .select({
          role: users.role,
          tokenVersion: users.tokenVersion,
          photoLink: users.photoLink,
          selfIntroduction: users.selfIntroduction,
        })
        .from(users)
        .where(and(eq(users.id, userId), isNull(users.deletedAt)))
        .for("update");
      if (!user) throw new AppError("UNAUTHORIZED", MSG.unauthorized);
      const member = user.role === "user";
      // A new photo arrives as an image (checked and cleaned); a link may only be kept or cleared.
      const pendingPhoto = member ? ((await pendingChange(tx, userId, "photo"))?.photoLink ?? null) : null;
      const keeps = keepsPhoto(input.photoLink, user.photoLink, pendingPhoto);
      if (input.photoLink && !keeps) throw new AppError("BAD_REQUEST", MSG.photoLinkInvalid);
      if (input.occupationId) await assertReference(tx, occupations, input.occupationId, MSG.occupationUnknown);
      if (input.annualIncomeId) await assertReference(tx, annualIncomes, input.annualIncomeId, MSG.annualIncomeUnknown);
      const blankToNull = (v: string | null | undefined) => (v === undefined ? undefined : v === "" ? null : v);
      const clearPhoto = !newLink && !keeps && input.photoLink !== undefined;
      // The photo and the 自己紹介: a member's wait for the review, an administrator's apply now.
      const shown: MemberChanges = member
        ? await planMemberChanges(
            tx,
            { ...user, id: userId },
            { newPhotoLink: newLink, clearPhoto, introduction: input.selfIntroduction },
          )
        : {
            set: {
              ...(newLink || clearPhoto ? { photoLink: newLink ?? null } : {}),
              ...(input.selfIntroduction !== undefined ? { selfIntroduction: input.selfIntroduction } : {}),
            },
            release: newLink || clearPhoto ? [user.photoLink] : [],
            submitted: { photo: false, introduction: false },
          };
      const changes = Object.fromEntries(
        Object.entries({
          name: input.name,
          birthday: input.birthday,
          address: blankToNull(input.address),
          occupationId: input.occupationId,
          annualIncomeId: input.annualIncomeId,
          ...shown.set,
        }).filter(([, value]) => value !== undefined),
      );
      const password = newPasswordHash
        ? {
            passwordHash: newPasswordHash,
            tokenVersion: sql`${users.tokenVersion} + 1`,
            pendingPasswordHash: null,
            pendingPasswordExpiresAt: null,
          }
        : {};
      const base = { role: user.role, released: shown.release, submitted: shown.submitted };
      // Nothing to change in users (an empty form, or only changes waiting for the review) is no UPDATE.
      if (Object.keys(changes).length === 0 && !newPasswordHash) return { ...base, tokenVersion: user.tokenVersion };
      const [updated] = await tx
        .update(users)
        .set({ ...changes, ...password })
        .where(eq(users.id, userId))
        .returning({ tokenVersion: users.tokenVersion });
      if (!updated) throw new AppError("UNAUTHORIZED", MSG.unauthorized);
      // A new password ends the pending e-mail change too: it may be the intruder's (decision 0038).
      if (newPasswordHash) await cancelEmailChanges(tx, userId);
      return { ...base, tokenVersion: updated.tokenVersion };
    }),
  );
  for (const link of outcome.released) await releasePhoto(deps, link);
  const token = newPasswordHash
    ? await tokens.sign({ sub: userId, role: outcome.role, tv: outcome.tokenVersion })
    : undefined;
  return { user: await me(db, userId), token, submitted: outcome.submitted };
}
