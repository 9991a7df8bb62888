import { type Db, favorites, idVerifications, pointLedger, users } from "@enmusubi/db";
import {
  type AdminUserCreateInput,
  type AdminUserLegacyUpdateInput,
  type AdminUserUpdateInput,
  MSG,
} from "@enmusubi/shared";
import { aliasedTable, and, desc, eq, isNull, or, sql } from "drizzle-orm";
import { createAccount } from "../accounts/create-account";
import { writeAudit } from "../audit/audit-log";
import type { PasswordHasher } from "../auth/password";
import { AppError, isUniqueViolation } from "../errors";
import { releasePhoto, withStoredPhoto } from "../photos/service";
import { setBalance } from "../points/ledger";
import { withdrawAllChanges } from "../profile-review/changes";
import type { RateLimiter } from "../security/rate-limit";
import { ageCheckAudit, assertAdultOnId } from "../verification/age-check";
import { checkStated, getUser, type Stated, type VersionedUserView } from "./user-version";
import { getUserView, type UserView } from "./user-view";

/**
 * Administrator user management (spec §2 admin screen 1). Filtering and paging run in the
 * database, so the screen stays fast with 100,000 members. Every change writes the audit log in
 * the same transaction; a change of a balance is a ledger entry (who, when, from, to). The list is
 * admin-list.ts; a user's version (the REST ETag) and the check of what an edit states, user-version.ts.
 */

interface AdminDeps {
  db: Db;
  passwords: PasswordHasher;
  uploadsDir: string;
  limiter: RateLimiter;
}

function uniqueError(error: unknown): never {
  if (isUniqueViolation(error)) {
    const text =
      String((error as { message?: string }).message ?? "") + String((error as { cause?: unknown }).cause ?? "");
    throw new AppError("CONFLICT", text.includes("users_user_id_key") ? MSG.userIdTaken : MSG.emailTaken);
  }
  throw error;
}

async function assertFree(db: Db, input: { userID?: string; email: string }, exceptId?: string) {
  if (input.userID) {
    const [taken] = await db.select({ id: users.id }).from(users).where(eq(users.userId, input.userID));
    if (taken && taken.id !== exceptId) throw new AppError("CONFLICT", MSG.userIdTaken);
  }
  const [emailTaken] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.email}) = lower(${input.email})`, isNull(users.deletedAt)));
  if (emailTaken && emailTaken.id !== exceptId) throw new AppError("CONFLICT", MSG.emailTaken);
}

/**
 * Adds an account; a photo sent as data is stored only if the account is created. The administrator
 * who creates an account vouches for the holder's age, as before: the account is verified. With an
 * age check (the ID's kind and the birth date read from it; decision 0043) the birth date becomes the
 * member's, under 18 is refused before anything is written, and the check is recorded as the
 * verification (an approved row without an image); without one (the legacy REST body) the audit row
 * says that no document was recorded.
 */
export async function createUser(deps: AdminDeps, adminId: string, input: AdminUserCreateInput): Promise<UserView> {
  const ageCheck = input.ageCheck ?? null;
  if (ageCheck) assertAdultOnId(ageCheck.birthday);
  await assertFree(deps.db, input);
  const passwordHash = await deps.passwords.hash(input.password);
  const photo = input.newPhoto ? { data: input.newPhoto, actorId: adminId, adminId } : undefined;
  const id = await withStoredPhoto(deps, photo, (newLink) =>
    deps.db
      .transaction(async (tx) => {
        const id = await createAccount(tx, {
          userID: input.userID,
          passwordHash,
          name: input.name,
          email: input.email,
          gender: input.gender,
          role: input.role,
          points: input.points,
          sendPoints: input.sendPoints,
          photoLink: newLink ?? (input.photoLink || null),
          birthday: ageCheck?.birthday ?? null,
          // The administrator who creates an account vouches for the holder's age (recorded below).
          verificationStatus: "verified",
          actorId: adminId,
        });
        if (ageCheck) {
          await tx.insert(idVerifications).values({
            userId: id,
            status: "approved",
            reviewedBy: adminId,
            reviewedAt: new Date(),
            documentKind: ageCheck.documentKind,
            birthdayChecked: ageCheck.birthday,
          });
        }
        await writeAudit(tx, {
          adminId,
          action: "user.create",
          targetType: "user",
          targetId: id,
          details: {
            userID: input.userID,
            role: input.role,
            points: input.points,
            sendPoints: input.sendPoints,
            verificationStatus: "verified",
            ...ageCheckAudit(ageCheck),
          },
        });
        return id;
      })
      .catch(uniqueError),
  );
  const view = await getUserView(deps.db, id as string);
  if (!view) throw new AppError("NOT_FOUND", MSG.notFound);
  return view;
}

async function lockLiveUser(tx: Db, id: string) {
  const [user] = await tx
    .select()
    .from(users)
    .where(and(eq(users.id, id), isNull(users.deletedAt)))
    .for("update");
  if (!user) throw new AppError("NOT_FOUND", MSG.notFound);
  return user;
}

/**
 * An administrator's edit. A field left out is left as it is: a balance is written only when the
 * edit sends it, and then only against the balance it states it replaces (`expectedPoints`,
 * `expectedSendPoints` or the version), checked and written in one transaction under the row lock.
 */
export async function updateUser(
  deps: AdminDeps,
  adminId: string,
  input: AdminUserUpdateInput,
  stated: Stated = input,
): Promise<VersionedUserView> {
  if (input.email !== undefined) await assertFree(deps.db, { email: input.email }, input.id);
  const passwordHash = input.password ? await deps.passwords.hash(input.password) : undefined;
  const photo = input.newPhoto ? { data: input.newPhoto, actorId: adminId, adminId } : undefined;
  const applied = await withStoredPhoto(deps, photo, (newLink) => {
    const link = newLink ?? (input.photoLink === undefined ? undefined : input.photoLink || null);
    return deps.db
      .transaction(async (tx) => {
        const before = await lockLiveUser(tx, input.id);
        checkStated(before, stated);
        const changes: Partial<typeof users.$inferInsert> = {};
        if (input.name !== undefined) changes.name = input.name;
        if (input.email !== undefined) changes.email = input.email;
        if (link !== undefined) changes.photoLink = link;
        if (passwordHash) {
          Object.assign(changes, { passwordHash, pendingPasswordHash: null, pendingPasswordExpiresAt: null });
          changes.tokenVersion = before.tokenVersion + 1;
        }
        if (Object.keys(changes).length > 0) await tx.update(users).set(changes).where(eq(users.id, input.id));
        if (input.points !== undefined) {
          await setBalance(tx, { userId: input.id, account: "points", value: input.points, actorId: adminId });
        }
        if (input.sendPoints !== undefined) {
          await setBalance(tx, { userId: input.id, account: "send_points", value: input.sendPoints, actorId: adminId });
        }
        const diff: Record<string, { from: unknown; to: unknown }> = {};
        const compare = (key: string, from: unknown, to: unknown) => {
          if (to !== undefined && from !== to) diff[key] = { from, to };
        };
        compare("name", before.name, input.name);
        compare("email", before.email, input.email);
        compare("points", before.points, input.points);
        compare("sendPoints", before.sendPoints, input.sendPoints);
        compare("photoLink", before.photoLink, link);
        await writeAudit(tx, {
          adminId,
          action: "user.update",
          targetType: "user",
          targetId: input.id,
          details: { ...diff, ...(passwordHash ? { password: "changed" } : {}) },
        });
        return { previous: before.photoLink, link };
      })
      .catch(uniqueError);
  });
  if (applied.link !== undefined && applied.previous !== applied.link) await releasePhoto(deps, applied.previous);
  return getUser(deps.db, input.id);
}

/**
 * The legacy edit (REST PUT): with `ifMatch`, only against one of those versions; with an expected
 * balance, only against that balance (both when both are sent); with neither, the balances it sends
 * are set as they are now, under the same row lock (no read-and-retry).
 */
export function updateUserLegacy(deps: AdminDeps, adminId: string, input: AdminUserLegacyUpdateInput) {
  const { ifMatch, expectedPoints, expectedSendPoints, ...fields } = input;
  const expected = { expectedPoints, expectedSendPoints };
  const stated: Stated = ifMatch
    ? { versions: ifMatch, ...expected }
    : expectedPoints !== undefined || expectedSendPoints !== undefined
      ? expected
      : "current";
  return updateUser(deps, adminId, fields, stated);
}

export async function updateSendPoints(
  db: Db,
  adminId: string,
  input: { id: string; sendPoints: number; expectedSendPoints: number },
): Promise<UserView> {
  await db.transaction(async (tx) => {
    const before = await lockLiveUser(tx, input.id);
    checkStated(before, { expectedSendPoints: input.expectedSendPoints });
    await setBalance(tx, {
      userId: input.id,
      account: "send_points",
      value: input.sendPoints,
      actorId: adminId,
    });
    await writeAudit(tx, {
      adminId,
      action: "user.sendPoints",
      targetType: "user",
      targetId: input.id,
      details: { sendPoints: { from: before.sendPoints, to: input.sendPoints } },
    });
  });
  const view = await getUserView(db, input.id);
  if (!view) throw new AppError("NOT_FOUND", MSG.notFound);
  return view;
}

/**
 * Soft delete: the account can no longer log in (token version bumped) and leaves every list; its
 * photo is removed;
 * messages it exchanged stay readable for the other party. Administrators are refused here.
 */
export async function deleteUser(deps: { db: Db; uploadsDir: string }, adminId: string, id: string): Promise<void> {
  if (id === adminId) throw new AppError("FORBIDDEN", MSG.selfNotDeletable);
  const photos = await deps.db.transaction(async (tx) => {
    const user = await lockLiveUser(tx, id);
    if (user.role === "admin") throw new AppError("FORBIDDEN", MSG.adminNotDeletable);
    await tx
      .update(users)
      .set({ deletedAt: new Date(), tokenVersion: user.tokenVersion + 1, photoLink: null })
      .where(eq(users.id, id));
    await tx.delete(favorites).where(or(eq(favorites.userId, id), eq(favorites.favoriteUserId, id)));
    // A photo or 自己紹介 change still waiting for the review is never decided (decision 0044).
    const pending = await withdrawAllChanges(tx, id);
    await writeAudit(tx, {
      adminId,
      action: "user.delete",
      targetType: "user",
      targetId: id,
      details: { userID: user.userId },
    });
    return [user.photoLink, ...pending];
  });
  // The photo goes with the account: its public link stops working once nobody shows it.
  for (const link of photos) await releasePhoto(deps, link);
}

const actors = aliasedTable(users, "actors");

/** A member's ledger, newest first, with who made each change (spec: "who, when, from, to"). */
export async function userLedger(db: Db, input: { id: string; limit?: number }) {
  const rows = await db
    .select({
      id: pointLedger.id,
      account: pointLedger.account,
      kind: pointLedger.kind,
      delta: pointLedger.delta,
      balanceAfter: pointLedger.balanceAfter,
      actionName: pointLedger.actionName,
      quantity: pointLedger.quantity,
      note: pointLedger.note,
      createdAt: pointLedger.createdAt,
      actorUserID: actors.userId,
      actorName: actors.name,
    })
    .from(pointLedger)
    .leftJoin(actors, eq(actors.id, pointLedger.actorId))
    .where(eq(pointLedger.userId, input.id))
    .orderBy(desc(pointLedger.createdAt), desc(pointLedger.id))
    .limit(input.limit ?? 50);
  return rows.map((r) => ({ ...r, balanceBefore: r.balanceAfter - r.delta }));
}
