import { bonusSettings, type Db, users } from "@enmusubi/db";
import { formatJapaneseMobile, type LoginBonusSettingInput, MSG } from "@enmusubi/shared";
import { and, eq, isNotNull, isNull } from "drizzle-orm";
import { writeAudit } from "../audit/audit-log";
import { AppError } from "../errors";
import { loginBonusPoints } from "../points/bonuses";

/*
 * What administrators see and do about phone verification (decision 0048): a member's state in
 * user management, clearing it (audited), and the daily login bonus setting (audited).
 */

export interface AdminPhoneState {
  verified: boolean;
  /** The full number (`090-1234-5678`): administrators answer members' inquiries about it. */
  phone: string | null;
  verifiedAt: Date | null;
  signupBonusPending: boolean;
  signupBonusGrantedAt: Date | null;
}

/** A member's phone verification (also a suspended or deleted one whose data is still kept). */
export async function adminPhoneState(db: Db, userId: string): Promise<AdminPhoneState> {
  const [row] = await db
    .select({
      phone: users.phoneNumber,
      verifiedAt: users.phoneVerifiedAt,
      signupBonusPending: users.signupBonusPending,
      signupBonusGrantedAt: users.signupBonusGrantedAt,
    })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.personalDataDeletedAt)));
  if (!row) throw new AppError("NOT_FOUND", MSG.notFound);
  return {
    verified: row.phone !== null && row.verifiedAt !== null,
    phone: row.phone ? formatJapaneseMobile(row.phone) : null,
    verifiedAt: row.verifiedAt,
    signupBonusPending: row.signupBonusPending,
    signupBonusGrantedAt: row.signupBonusGrantedAt,
  };
}

/**
 * Clears a member's verified number (the number is free for another account at once; the member
 * may verify again, but the sign-up bonus is never granted twice): in one transaction with its
 * audit row (`user.phone.clear`, the number it held). 409 when no number is verified.
 */
export async function clearPhone(db: Db, adminId: string, userId: string): Promise<{ message: string }> {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ phone: users.phoneNumber })
      .from(users)
      .where(and(eq(users.id, userId), isNull(users.personalDataDeletedAt)))
      .for("no key update");
    if (!before) throw new AppError("NOT_FOUND", MSG.notFound);
    const [cleared] = await tx
      .update(users)
      .set({ phoneNumber: null, phoneVerifiedAt: null })
      .where(and(eq(users.id, userId), isNotNull(users.phoneNumber)))
      .returning({ id: users.id });
    if (!cleared || !before.phone) throw new AppError("CONFLICT", MSG.phoneNotVerified);
    await writeAudit(tx, {
      adminId,
      action: "user.phone.clear",
      targetType: "user",
      targetId: userId,
      details: { before: { phone: formatJapaneseMobile(before.phone) }, after: { phone: null } },
    });
    return { message: MSG.phoneCleared };
  });
}

/** The bonus settings administrators edit. */
export async function bonusSettingsView(db: Db): Promise<{ loginBonusPoints: number }> {
  return { loginBonusPoints: await loginBonusPoints(db) };
}

/** Saves the daily login bonus (0 = off), audited with before → after (`settings.bonus`). */
export async function saveBonusSettings(
  db: Db,
  adminId: string,
  input: LoginBonusSettingInput,
): Promise<{ loginBonusPoints: number; message: string }> {
  return db.transaction(async (tx) => {
    // The row is locked (or, absent, the insert below waits on its key): saves are one after the other.
    const [row] = await tx
      .select({ points: bonusSettings.loginBonusPoints })
      .from(bonusSettings)
      .where(eq(bonusSettings.id, 1))
      .for("update");
    const before = row?.points ?? 0;
    await tx
      .insert(bonusSettings)
      .values({ id: 1, loginBonusPoints: input.loginBonusPoints, updatedBy: adminId })
      .onConflictDoUpdate({
        target: bonusSettings.id,
        set: { loginBonusPoints: input.loginBonusPoints, updatedBy: adminId, updatedAt: new Date() },
      });
    await writeAudit(tx, {
      adminId,
      action: "settings.bonus",
      targetType: "settings",
      details: { before: { loginBonusPoints: before }, after: { loginBonusPoints: input.loginBonusPoints } },
    });
    return { loginBonusPoints: input.loginBonusPoints, message: MSG.loginBonusSaved };
  });
}
