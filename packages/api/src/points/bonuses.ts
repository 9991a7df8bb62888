import { bonusSettings, type Db, loginBonuses, rowsOf, users } from "@enmusubi/db";
import { LOGIN_BONUS_TIME_ZONE, SIGNUP_BONUS_POINTS } from "@enmusubi/shared";
import { and, eq, isNotNull, isNull, or, type SQL, sql } from "drizzle-orm";
import { applyChange } from "./ledger";

/*
 * The bonuses that phone verification gates (decision 0048): free points (their own lots, 180
 * days, decision 0008) with ledger kinds of their own, each booked in one transaction through the
 * ledger like every other credit.
 */

/**
 * The sign-up bonus, at most once per account: the member's `signup_bonus_pending` (set by their
 * own sign-up) turns false in the statement that claims it, and nothing sets it back, so a cleared
 * and verified-again phone, or two concurrent verifications, never grant it twice. Call it inside
 * the verifying transaction. Answers the points granted (0 when the account has none pending).
 */
export async function grantSignupBonus(tx: Db, userId: string): Promise<number> {
  const [claimed] = await tx
    .update(users)
    .set({ signupBonusPending: false, signupBonusGrantedAt: sql`now()` })
    .where(and(eq(users.id, userId), eq(users.signupBonusPending, true), isNull(users.deletedAt)))
    .returning({ id: users.id });
  if (!claimed) return 0;
  await applyChange(tx, {
    userId,
    delta: SIGNUP_BONUS_POINTS,
    kind: "signup_bonus",
    reference: "signup_bonus",
    note: "登録特典（電話番号の確認）",
  });
  return SIGNUP_BONUS_POINTS;
}

/** The Japanese day (Asia/Tokyo) of `instant`, computed by the database like the session's check. */
export const japaneseDayOf = (instant: SQL): SQL<string> =>
  sql<string>`((${instant}) at time zone ${sql.raw(`'${LOGIN_BONUS_TIME_ZONE}'`)})::date`;

/**
 * True when the member's request is the first of its Japanese day to look at the login bonus:
 * read by the session's one statement (auth/session.ts), so the day's other requests cost nothing.
 * Members with a verified phone only; the bonus setting is read only when this is true.
 */
export function loginBonusDue(): SQL<boolean> {
  return sql<boolean>`(${users.phoneVerifiedAt} is not null and ${users.role} = 'user' and (${users.loginBonusDay} is null or ${users.loginBonusDay} < ${japaneseDayOf(sql`now()`)}))`;
}

/** The daily login bonus administrators set (0 = off; no settings row yet means 0). */
export async function loginBonusPoints(db: Db): Promise<number> {
  const [row] = await db
    .select({ points: bonusSettings.loginBonusPoints })
    .from(bonusSettings)
    .where(eq(bonusSettings.id, 1));
  return row?.points ?? 0;
}

export interface LoginBonusResult {
  /** The Japanese day it was counted for (YYYY-MM-DD). */
  day: string;
  /** Points granted by this call: 0 when the day was already counted, the bonus is off or the member is not eligible. */
  points: number;
}

/**
 * The daily login bonus of `userId` for the Japanese day of `at` (now by default, the database's
 * clock): once per day whichever process serves the day's first request. The first statement
 * claims the day on the member's row (`login_bonus_day`, forward only; a concurrent request waits
 * for its row lock and then finds the day claimed), and the `login_bonuses` key (member, day) holds
 * it in PostgreSQL whatever else happens: a second row for the day fails the transaction, crediting
 * nothing. Only live, unsuspended members with a verified phone; with the bonus off (0) the day is
 * still marked, so the day's other requests do not look again. One transaction.
 */
export async function grantLoginBonus(db: Db, userId: string, at?: Date): Promise<LoginBonusResult> {
  const instant = at ? sql`${at.toISOString()}::timestamptz` : sql`now()`;
  return db.transaction(async (tx) => {
    const [today] = await rowsOf<{ day: string }>(tx, sql`select ${japaneseDayOf(instant)}::text as day`);
    const day = today?.day as string;
    const [claimed] = await tx
      .update(users)
      .set({ loginBonusDay: day })
      .where(
        and(
          eq(users.id, userId),
          or(isNull(users.loginBonusDay), sql`${users.loginBonusDay} < ${day}::date`),
          isNotNull(users.phoneVerifiedAt),
          eq(users.role, "user"),
          isNull(users.deletedAt),
          isNull(users.suspendedAt),
        ),
      )
      .returning({ id: users.id });
    if (!claimed) return { day, points: 0 };
    const points = await loginBonusPoints(tx);
    if (points <= 0) return { day, points: 0 };
    const { ledgerId } = await applyChange(tx, {
      userId,
      delta: points,
      kind: "login_bonus",
      reference: `login_bonus:${day}`,
      note: `ログインボーナス（${day}）`,
    });
    await tx.insert(loginBonuses).values({ userId, day, points, ledgerId });
    return { day, points };
  });
}
