import { type Db, rowsOf, users } from "@enmusubi/db";
import { LEGAL, MSG, pageOffset } from "@enmusubi/shared";
import { and, count, desc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { writeAudit } from "../audit/audit-log";
import { AppError, isUniqueViolation } from "../errors";
import { pagesFor } from "../lists/pages";
import { restoreForfeited } from "../points/forfeit";

/*
 * Withdrawn members in the administrators' user management (decision 0034): listed with
 * the date they left and until when they may be restored; an administrator restores one within the
 * retention (audited): the account is live again and its forfeited balance goes back to its lots.
 */

export interface WithdrawnMember {
  id: string;
  userID: string;
  name: string | null;
  email: string;
  gender: "male" | "female";
  withdrawnAt: Date;
  /** The end of the retention: restorable until then; then the personal data is deleted. */
  retainedUntil: Date;
  /** When the retention job deleted the personal data (then not restorable). */
  personalDataDeletedAt: Date | null;
  restorable: boolean;
}

const retainedUntil = sql<Date>`${users.withdrawnAt} + make_interval(years => ${LEGAL.accountRetentionYears})`;

export async function listWithdrawn(db: Db, input: { page: number; pageSize: number }) {
  const where = isNotNull(users.withdrawnAt);
  const rows = await db
    .select({
      id: users.id,
      userID: users.userId,
      name: users.name,
      email: users.email,
      gender: users.gender,
      withdrawnAt: sql<Date>`${users.withdrawnAt}`.mapWith(users.withdrawnAt),
      retainedUntil: retainedUntil.mapWith(users.withdrawnAt),
      personalDataDeletedAt: users.personalDataDeletedAt,
      restorable: sql<boolean>`(${users.personalDataDeletedAt} is null and ${retainedUntil} > now())`,
    })
    .from(users)
    .where(where)
    .orderBy(desc(users.withdrawnAt), desc(users.id))
    .limit(input.pageSize)
    .offset(pageOffset(input.page, input.pageSize));
  const [total] = await db.select({ n: count() }).from(users).where(where);
  return {
    users: rows as WithdrawnMember[],
    pagination: {
      total: total?.n ?? 0,
      currentPage: input.page,
      totalPages: pagesFor(total?.n ?? 0, false, input.pageSize),
      limit: input.pageSize,
    },
  };
}

export async function restoreWithdrawn(
  db: Db,
  adminId: string,
  id: string,
): Promise<{ success: true; message: string }> {
  try {
    await db.transaction(async (tx) => {
      const [user] = await rowsOf<{ userId: string; email: string; withdrawnAt: Date; within: boolean }>(
        tx,
        sql`select user_id as "userId", email, withdrawn_at as "withdrawnAt",
                   (personal_data_deleted_at is null and ${retainedUntil} > now()) as within
            from ${users} where id = ${id} and withdrawn_at is not null for update`,
      );
      if (!user) throw new AppError("NOT_FOUND", MSG.notWithdrawn);
      if (!user.within) throw new AppError("CONFLICT", MSG.restoreRetentionOver);
      const [taken] = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(sql`lower(${users.email}) = lower(${user.email})`, isNull(users.deletedAt)));
      if (taken) throw new AppError("CONFLICT", MSG.restoreEmailTaken);
      await tx
        .update(users)
        .set({ deletedAt: null, withdrawnAt: null })
        .where(and(eq(users.id, id), isNotNull(users.withdrawnAt)));
      const restored = await restoreForfeited(tx, id, adminId);
      await writeAudit(tx, {
        adminId,
        action: "user.restore",
        targetType: "user",
        targetId: id,
        details: {
          userID: user.userId,
          withdrawnAt: new Date(user.withdrawnAt).toISOString(),
          points: restored.points,
          sendPoints: restored.sendPoints,
        },
      });
    });
  } catch (error) {
    // The address was registered again meanwhile (a concurrent sign-up won the live-address index).
    if (isUniqueViolation(error)) throw new AppError("CONFLICT", MSG.restoreEmailTaken);
    throw error;
  }
  return { success: true, message: MSG.userRestored };
}
