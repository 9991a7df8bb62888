import { type Db, users } from "@enmusubi/db";
import { MSG, type WithdrawInput } from "@enmusubi/shared";
import { and, eq, isNull, sql } from "drizzle-orm";
import { type CurrentPasswordDeps, checkCurrentPassword } from "../auth/current-password";
import { AppError } from "../errors";
import { type Forfeited, forfeitable, forfeitBalance } from "../points/forfeit";
import { withdrawAllChanges } from "../profile-review/changes";
import { cancelEmailChanges } from "./email-change";

/*
 * 退会 (decision 0034). The member's password is checked, then in one transaction: the
 * balance is forfeited through the ledger (the terms: unused points are not refunded), and the
 * account is marked withdrawn and deleted (`deleted_at`, so every rule that hides a deleted account
 * hides it: login, search, favourites, footprints, the board; its token version is bumped, so every
 * session ends). Nothing else is erased now: the account data is kept LEGAL.accountRetentionYears
 * (an administrator may restore it until then), then the retention job deletes the personal data.
 * The address is free at once: the live-address unique index covers live accounts only.
 */

/** What the confirmation dialog names: what would be lost now. */
export async function withdrawalPreview(db: Db, userId: string): Promise<Forfeited> {
  return forfeitable(db, userId);
}

export async function withdraw(
  deps: CurrentPasswordDeps & { ip: string },
  userId: string,
  input: WithdrawInput,
): Promise<{ success: true; message: string; forfeited: Forfeited }> {
  const [user] = await deps.db
    .select({ role: users.role })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)));
  if (!user) throw new AppError("UNAUTHORIZED", MSG.unauthorized);
  if (user.role !== "user") throw new AppError("FORBIDDEN", MSG.adminNotWithdrawable);
  // Counted like a login's attempts (decision 0038).
  await checkCurrentPassword(deps, { userId, ip: deps.ip }, input.password, MSG.withdrawPasswordWrong);
  const forfeited = await deps.db.transaction(async (tx) => {
    // The member's row lock: charges and the expiry job wait, so the balance read is the one taken.
    const [locked] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, userId), isNull(users.deletedAt)))
      .for("update");
    if (!locked) throw new AppError("UNAUTHORIZED", MSG.unauthorized);
    const taken = await forfeitBalance(tx, userId);
    await tx
      .update(users)
      .set({
        deletedAt: sql`now()`,
        withdrawnAt: sql`now()`,
        tokenVersion: sql`${users.tokenVersion} + 1`,
        pendingPasswordHash: null,
        pendingPasswordExpiresAt: null,
      })
      .where(eq(users.id, userId));
    await cancelEmailChanges(tx, userId);
    // A photo or 自己紹介 change waiting for the review is never decided (decision 0044); its file
    // is left to the photo sweep (a day later), which removes files nothing uses.
    await withdrawAllChanges(tx, userId);
    return taken;
  });
  return { success: true, message: MSG.withdrawDone, forfeited };
}
