import { createHash } from "node:crypto";
import { annualIncomes, type Db, favorites, occupations, pointLedger, rowsOf, users } from "@enmusubi/db";
import {
  type AdminUserCreateInput,
  type AdminUserListInput,
  type AdminUserUpdateInput,
  adminUserListInput,
  type Gender,
  MSG,
} from "@enmusubi/shared";
import { aliasedTable, and, asc, count, desc, eq, inArray, isNull, or, type SQL, sql } from "drizzle-orm";
import { createAccount } from "../accounts/create-account";
import { writeAudit } from "../audit/audit-log";
import type { PasswordHasher } from "../auth/password";
import { AppError, isUniqueViolation } from "../errors";
import { likeEscape } from "../lists/like";
import { releasePhoto, withStoredPhoto } from "../photos/service";
import { setBalance } from "../points/ledger";
import type { RateLimiter } from "../security/rate-limit";
import { getUserView, toUserView, type UserView, userColumns } from "./user-view";

/**
 * Administrator user management (spec §2 admin screen 1). Filtering and paging run in the
 * database, so the screen stays fast with 100,000 members. Every change writes the audit log in
 * the same transaction; a change of a balance is a ledger entry (who, when, from, to).
 */

interface AdminDeps {
  db: Db;
  passwords: PasswordHasher;
  uploadsDir: string;
  limiter: RateLimiter;
}

const GENDER_TERMS: Record<string, Gender> = {
  male: "male",
  m: "male",
  男性: "male",
  男: "male",
  female: "female",
  f: "female",
  女性: "female",
  女: "female",
};

interface Search {
  where: SQL | undefined;
  /** One userID prefix: the matches are listed in userID order (see listUsers). */
  prefix: boolean;
}

function searchCondition(field: "userID" | "gender", search: string): Search {
  if (!search) return { where: undefined, prefix: false };
  if (field === "gender") {
    const gender = GENDER_TERMS[search.toLowerCase()];
    return { where: gender ? eq(users.gender, gender) : sql`false`, prefix: false };
  }
  const ids = [
    ...new Set(
      search
        .split(/[,、，\s]+/)
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  if (ids.length === 0) return { where: undefined, prefix: false };
  if (ids.length === 1) {
    // One ID: a case-insensitive prefix (so an admin finds "ab12…" while typing), which the
    // users_user_id_prefix_idx index answers without reading the table.
    const escaped = likeEscape((ids[0] ?? "").toLowerCase());
    return { where: sql`lower(${users.userId}) like ${`${escaped}%`}`, prefix: true };
  }
  return { where: inArray(users.userId, ids), prefix: false };
}

/**
 * The order of a page. A userID prefix lists its matches by userID (the exact ID first), read in
 * order from users_user_id_prefix_idx (text_pattern_ops, hence the `~<~` byte order): newest
 * first, a broad prefix ("lm00": 100,000 of the oldest members at 1,000,000) had either to walk
 * the newest members until it met its matches or to sort all of them (issue 14).
 */
function listOrder(prefix: boolean, reversed = false): SQL[] {
  if (prefix) {
    const op = sql.raw(reversed ? "~>~" : "~<~");
    return [sql`lower(${users.userId}) using ${op}`, sql`${users.userId} using ${op}`];
  }
  return reversed ? [asc(users.createdAt), asc(users.id)] : [desc(users.createdAt), desc(users.id)];
}

/**
 * The list counts at most this many matches exactly. Beyond it the total is PostgreSQL's own
 * estimate of the matching rows (the plan's row count from the table statistics), flagged
 * `totalEstimated`: counting 1,000,000 members for the "総ユーザー数" line cost more than the page.
 */
export const USER_COUNT_CAP = 10_000;

/** A row of the list: the user and whether the account is suspended (the row's 利用停止 / 停止解除 button). */
export type ListedUser = UserView & { suspended: boolean };

/**
 * Live users matching `where`, in the public shape plus their standing: the page answers each
 * row's standing itself, so the screen needs no read per row (issue 21: a page's 50 batched
 * standing reads passed the server's URL limit and the buttons drew nothing).
 */
function selectListedUsers(db: Db, where?: SQL) {
  return db
    .select({ ...userColumns, suspendedAt: users.suspendedAt })
    .from(users)
    .leftJoin(occupations, eq(users.occupationId, occupations.id))
    .leftJoin(annualIncomes, eq(users.annualIncomeId, annualIncomes.id))
    .where(and(isNull(users.deletedAt), where))
    .$dynamic();
}

const toListedUser = ({ suspendedAt, ...row }: Awaited<ReturnType<typeof selectListedUsers>>[number]): ListedUser => ({
  ...toUserView(row),
  suspended: suspendedAt !== null,
});

export interface UserPage {
  users: ListedUser[];
  /** Every match, or when `totalEstimated` the planner's estimate (never below USER_COUNT_CAP + 1). */
  total: number;
  totalEstimated: boolean;
  page: number;
  pageSize: number;
  totalPages: number;
}

/** The planner's row estimate for a query (EXPLAIN, no execution). */
async function plannedRows(db: Db, query: SQL): Promise<number> {
  const rows = await rowsOf<Record<string, unknown>>(db, sql`explain (format json) ${query}`);
  const raw = rows[0] ? Object.values(rows[0])[0] : undefined;
  const plan = (typeof raw === "string" ? JSON.parse(raw) : raw) as Array<{ Plan?: { "Plan Rows"?: number } }>;
  return Math.round(plan?.[0]?.Plan?.["Plan Rows"] ?? 0);
}

export async function listUsers(
  db: Db,
  raw: AdminUserListInput,
  options: { countCap?: number } = {},
): Promise<UserPage> {
  const input = adminUserListInput.parse(raw);
  const { where: search, prefix } = searchCondition(input.field, input.search);
  const where = and(isNull(users.deletedAt), search);
  const offset = (input.page - 1) * input.pageSize;
  // Exact up to the cap (or one page past the page asked for), read through an index and stopped
  // there; above it, the estimate.
  const cap = Math.max(options.countCap ?? USER_COUNT_CAP, offset + input.pageSize);
  // A prefix is counted along its index range: unordered, the planner took a sequential scan that
  // stops at the cap, and such a scan of a large table starts where the previous one stopped
  // (synchronized scans), so it sometimes read most of the members before it met the prefix's.
  const [counted] = await db.select({ total: count() }).from(
    db
      .select({ one: sql`1` })
      .from(users)
      .where(where)
      .orderBy(...(prefix ? listOrder(prefix) : []))
      .limit(cap + 1)
      .as("matches"),
  );
  const exact = counted?.total ?? 0;
  const totalEstimated = exact > cap;
  const total = totalEstimated
    ? Math.max(cap + 1, await plannedRows(db, sql`select 1 from ${users} where ${where}`))
    : exact;
  // Pages in the second half of an exactly counted list are read from the other end, so its last
  // page skips a few rows instead of nearly all of them (an estimate cannot say where the end is).
  const fromEnd = !totalEstimated && offset > total / 2;
  const rows = fromEnd
    ? (
        await selectListedUsers(db, search)
          .orderBy(...listOrder(prefix, true))
          .limit(Math.max(0, Math.min(input.pageSize, total - offset)))
          .offset(Math.max(0, total - offset - input.pageSize))
      ).reverse()
    : await selectListedUsers(db, search)
        .orderBy(...listOrder(prefix))
        .limit(input.pageSize)
        .offset(offset);
  return {
    users: rows.map(toListedUser),
    total,
    totalEstimated,
    page: input.page,
    pageSize: input.pageSize,
    totalPages: Math.max(1, Math.ceil(total / input.pageSize)),
  };
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

/** Adds an account; a photo sent as data is stored only if the account is created. */
export async function createUser(deps: AdminDeps, adminId: string, input: AdminUserCreateInput): Promise<UserView> {
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
          // The administrator who creates an account vouches for the holder's age (recorded below).
          verificationStatus: "verified",
          actorId: adminId,
        });
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
 * The version of a user as an administrator reads it (the REST `ETag`): a digest of every field
 * of the user's view, so any change of them, a charge or a credit of points included, gives
 * another version. No column to keep up to date: every writer of a balance changes it.
 */
export function userVersion(u: {
  id: string;
  userID: string;
  name: string | null;
  email: string;
  role: string;
  gender: string;
  points: number;
  sendPoints: number;
  photoLink: string | null;
  birthday: string | null;
  address: string | null;
  occupationId: string | null;
  annualIncomeId: string | null;
}): string {
  const fields = [
    u.id,
    u.userID,
    u.name,
    u.email,
    u.role,
    u.gender,
    u.points,
    u.sendPoints,
    u.photoLink,
    u.birthday,
    u.address,
    u.occupationId,
    u.annualIncomeId,
  ];
  return createHash("sha256").update(JSON.stringify(fields)).digest("base64url").slice(0, 27);
}

const versionOfRow = (row: typeof users.$inferSelect) => userVersion({ ...row, userID: row.userId });

export type VersionedUserView = UserView & { version: string };

export function withVersion(view: UserView): VersionedUserView {
  return {
    ...view,
    version: userVersion({
      ...view,
      occupationId: view.occupation?.id ?? null,
      annualIncomeId: view.annualIncome?.id ?? null,
    }),
  };
}

/** One user as administrators see it, with its version (the REST ETag). */
export async function getUser(db: Db, id: string): Promise<VersionedUserView> {
  const view = await getUserView(db, id);
  if (!view) throw new AppError("NOT_FOUND", MSG.notFound);
  return withVersion(view);
}

/**
 * The balances an edit states it replaces, checked under the row lock: a version (REST If-Match)
 * must be the user's current one (PRECONDITION_FAILED), an expected balance the current balance
 * (CONFLICT). Both refusals carry the current figures; nothing of the edit is written.
 */
function checkStated(
  before: typeof users.$inferSelect,
  stated: {
    expectedVersion?: string | undefined;
    expectedPoints?: number | undefined;
    expectedSendPoints?: number | undefined;
  },
) {
  const current = { points: before.points, sendPoints: before.sendPoints };
  if (stated.expectedVersion !== undefined) {
    const version = versionOfRow(before);
    if (stated.expectedVersion !== version) {
      throw new AppError("PRECONDITION_FAILED", MSG.userChangedSince, { details: { ...current, version } });
    }
  }
  if (
    (stated.expectedPoints !== undefined && stated.expectedPoints !== before.points) ||
    (stated.expectedSendPoints !== undefined && stated.expectedSendPoints !== before.sendPoints)
  ) {
    throw new AppError("CONFLICT", MSG.balanceChanged, { details: current });
  }
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
): Promise<VersionedUserView> {
  if (input.email !== undefined) await assertFree(deps.db, { email: input.email }, input.id);
  const passwordHash = input.password ? await deps.passwords.hash(input.password) : undefined;
  const photo = input.newPhoto ? { data: input.newPhoto, actorId: adminId, adminId } : undefined;
  const applied = await withStoredPhoto(deps, photo, (newLink) => {
    const link = newLink ?? (input.photoLink === undefined ? undefined : input.photoLink || null);
    return deps.db
      .transaction(async (tx) => {
        const before = await lockLiveUser(tx, input.id);
        checkStated(before, input);
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
  const photo = await deps.db.transaction(async (tx) => {
    const user = await lockLiveUser(tx, id);
    if (user.role === "admin") throw new AppError("FORBIDDEN", MSG.adminNotDeletable);
    await tx
      .update(users)
      .set({ deletedAt: new Date(), tokenVersion: user.tokenVersion + 1, photoLink: null })
      .where(eq(users.id, id));
    await tx.delete(favorites).where(or(eq(favorites.userId, id), eq(favorites.favoriteUserId, id)));
    await writeAudit(tx, {
      adminId,
      action: "user.delete",
      targetType: "user",
      targetId: id,
      details: { userID: user.userId },
    });
    return user.photoLink;
  });
  // The photo goes with the account: its public link stops working once nobody shows it.
  await releasePhoto(deps, photo);
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
