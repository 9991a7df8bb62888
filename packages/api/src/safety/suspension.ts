import { type Db, scheduledMessages, users } from "@enmusubi/db";
import { MSG } from "@enmusubi/shared";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { writeAudit } from "../audit/audit-log";
import { AppError } from "../errors";

export interface ModerationDeps {
  db: Db;
  publicUrl: string;
}

/** Administrators suspend and reinstate accounts (decision 0009; spec §7 user management). */

/**
 * Suspends an account: no login, and every token it holds stops at once (token_version bumped;
 * resolveSession also refuses suspended accounts). Its pending scheduled messages are cancelled
 * (the dispatcher sends as the owner without a token). Administrators cannot be suspended.
 */
export async function suspendAccount(tx: Db, adminId: string, userId: string, reason: string, reportId?: string) {
  const [user] = await tx
    .select({ id: users.id, role: users.role, suspendedAt: users.suspendedAt })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)))
    .for("update");
  if (!user) throw new AppError("NOT_FOUND", MSG.notFound);
  if (user.role === "admin") throw new AppError("BAD_REQUEST", MSG.suspendAdmin);
  const [after] = await tx
    .update(users)
    .set({ suspendedAt: user.suspendedAt ?? sql`now()`, tokenVersion: sql`${users.tokenVersion} + 1` })
    .where(eq(users.id, userId))
    .returning({ suspendedAt: users.suspendedAt });
  const cancelled = await tx
    .update(scheduledMessages)
    .set({ status: "cancelled" })
    .where(and(eq(scheduledMessages.ownerId, userId), eq(scheduledMessages.status, "pending")))
    .returning({ id: scheduledMessages.id });
  await writeAudit(tx, {
    adminId,
    action: "user.suspend",
    targetType: "user",
    targetId: userId,
    details: {
      suspendedAt: { from: user.suspendedAt, to: after?.suspendedAt ?? null },
      reason,
      reportId: reportId ?? null,
      cancelledScheduled: cancelled.length,
    },
  });
}

export async function suspendMember(deps: ModerationDeps, adminId: string, input: { userId: string; reason: string }) {
  await deps.db.transaction((tx) => suspendAccount(tx, adminId, input.userId, input.reason));
  return { success: true as const, message: MSG.suspendDone };
}

/** Reinstates a suspended account (its old tokens stay invalid: the member logs in again). */
export async function unsuspendMember(deps: ModerationDeps, adminId: string, input: { userId: string }) {
  return deps.db.transaction(async (tx) => {
    const [user] = await tx
      .select({ id: users.id, role: users.role, suspendedAt: users.suspendedAt })
      .from(users)
      .where(and(eq(users.id, input.userId), isNull(users.deletedAt)))
      .for("update");
    if (!user) throw new AppError("NOT_FOUND", MSG.notFound);
    if (user.role === "admin") throw new AppError("BAD_REQUEST", MSG.suspendAdmin);
    if (user.suspendedAt) {
      await tx.update(users).set({ suspendedAt: null }).where(eq(users.id, user.id));
      await writeAudit(tx, {
        adminId,
        action: "user.unsuspend",
        targetType: "user",
        targetId: user.id,
        details: { suspendedAt: { from: user.suspendedAt, to: null } },
      });
    }
    return { success: true as const, message: MSG.unsuspendDone };
  });
}

/** Which of `userIds` are suspended now (the user management row menu offers the matching action). */
export async function suspendedAmong(db: Db, userIds: string[]) {
  if (userIds.length === 0) return [];
  const rows = await db
    .select({ id: users.id, suspendedAt: users.suspendedAt })
    .from(users)
    .where(and(inArray(users.id, userIds), sql`${users.suspendedAt} is not null`));
  return rows.map((r) => ({ id: r.id, suspendedAt: r.suspendedAt as Date }));
}
