import { annualIncomes, type Db, favorites, occupations, users } from "@enmusubi/db";
import { MSG, type ProfileUpdateInput } from "@enmusubi/shared";
import { and, eq, isNull, sql } from "drizzle-orm";
import { cancelEmailChanges } from "../accounts/email-change";
import { type CurrentPasswordDeps, checkCurrentPassword } from "../auth/current-password";
import type { TokenService } from "../auth/tokens";
import { type ApiDeps, resolveSessionWith, sessionAccount, sessionColumns } from "../context";
import { AppError } from "../errors";
import { releasePhoto, withStoredPhoto } from "../photos/service";
import { thumbnailLink } from "../photos/storage";
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
 * frequent calls: one round trip instead of two, issue 27).
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

const toOwnView = (row: OwnViewRow) => {
  const view = toUserView(row) as UserView & { selfIntroduction: string; favoriteUserIds: string[] };
  view.selfIntroduction = row.selfIntroduction;
  view.favoriteUserIds = row.favoriteUserIds;
  return view;
};

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
  return found && { session: found.session, view: withPhotoUrl(deps.photoUrls, toOwnView(found.row)) };
}

async function assertReference(db: Db, table: typeof occupations | typeof annualIncomes, id: string, message: string) {
  const [found] = await db.select({ id: table.id }).from(table).where(eq(table.id, id));
  if (!found) throw new AppError("BAD_REQUEST", message);
}

/**
 * Updates the own profile. Everything one request asks for applies together or not at all: a new
 * photo (`newPhoto`, the legacy `photoLink: { photodatas }`) is stored first and removed again if
 * the rest fails (an unknown occupation…). A new password needs the current one (checked first,
 * counted like a login's attempts), ends every other session (token version), drops a pending
 * reissued password and cancels a pending e-mail change; the answer carries a fresh token for this
 * session.
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
        })
        .from(users)
        .where(and(eq(users.id, userId), isNull(users.deletedAt)))
        .for("update");
      if (!user) throw new AppError("UNAUTHORIZED", MSG.unauthorized);
      // A new photo arrives as an image (checked and cleaned); a link may only be kept or cleared,
      // so nobody can point their profile at another member's file. The link the account's own
      // REST answers carry (its thumbnail, rest/legacy-shapes.ts) keeps it as well as the stored one.
      const keepsPhoto =
        !!input.photoLink && (input.photoLink === user.photoLink || input.photoLink === thumbnailLink(user.photoLink));
      if (input.photoLink && !keepsPhoto) throw new AppError("BAD_REQUEST", MSG.photoLinkInvalid);
      if (input.occupationId) await assertReference(tx, occupations, input.occupationId, MSG.occupationUnknown);
      if (input.annualIncomeId) await assertReference(tx, annualIncomes, input.annualIncomeId, MSG.annualIncomeUnknown);
      const blankToNull = (v: string | null | undefined) => (v === undefined ? undefined : v === "" ? null : v);
      const photoLink = newLink ?? (keepsPhoto ? undefined : blankToNull(input.photoLink));
      const changes = Object.fromEntries(
        Object.entries({
          name: input.name,
          birthday: input.birthday,
          address: blankToNull(input.address),
          selfIntroduction: input.selfIntroduction,
          occupationId: input.occupationId,
          annualIncomeId: input.annualIncomeId,
          photoLink,
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
      // Nothing to change (an empty form) is a successful no-op, not an empty UPDATE.
      if (Object.keys(changes).length === 0 && !newPasswordHash) {
        return { tokenVersion: user.tokenVersion, role: user.role, released: null };
      }
      const [updated] = await tx
        .update(users)
        .set({ ...changes, ...password })
        .where(eq(users.id, userId))
        .returning({ tokenVersion: users.tokenVersion });
      if (!updated) throw new AppError("UNAUTHORIZED", MSG.unauthorized);
      // A new password ends the pending e-mail change too: it may be the intruder's (decision 0038).
      if (newPasswordHash) await cancelEmailChanges(tx, userId);
      const released = photoLink !== undefined && photoLink !== user.photoLink ? user.photoLink : null;
      return { tokenVersion: updated.tokenVersion, role: user.role, released };
    }),
  );
  await releasePhoto(deps, outcome.released);
  const token = newPasswordHash
    ? await tokens.sign({ sub: userId, role: outcome.role, tv: outcome.tokenVersion })
    : undefined;
  return { user: await me(db, userId), token };
}
