import { annualIncomes, type Db, occupations, pointLedger, users } from "@enmusubi/db";
import {
  type ForgotInput,
  type LoginInput,
  MSG,
  NEW_USER_DEFAULTS,
  type ProfileUpdateInput,
  type Role,
  type SignupInput,
} from "@enmusubi/shared";
import { and, eq, isNull, sql } from "drizzle-orm";
import { AppError, isUniqueViolation } from "../errors";
import { enqueueMail } from "../mail/outbox";
import { releasePhoto } from "../photos/service";
import { enforceRateLimit, LOGIN_FAILURES_PER_ACCOUNT, RATE_LIMITS, type RateLimiter } from "../security/rate-limit";
import { getOwnUserView } from "../users/user-view";
import { generatePassword, generateUserId, type PasswordHasher } from "./password";
import type { TokenService } from "./tokens";

interface AuthDeps {
  db: Db;
  passwords: PasswordHasher;
  tokens: TokenService;
  limiter: RateLimiter;
  publicUrl: string;
}

// Verified against when the user ID is unknown, so both failures take the same time.
let dummyHash: Promise<string> | undefined;

export async function login(deps: AuthDeps, input: LoginInput, ip: string): Promise<{ token: string; role: Role }> {
  enforceRateLimit(deps.limiter, [[`login:ip:${ip}`, RATE_LIMITS.loginPerIp]]);
  const [user] = await deps.db
    .select()
    .from(users)
    .where(and(eq(users.userId, input.userID), isNull(users.deletedAt)));
  if (!user) {
    dummyHash ??= deps.passwords.hash("not-a-password");
    await deps.passwords.verify(await dummyHash, input.password);
    throw new AppError("UNAUTHORIZED", MSG.loginFailed);
  }
  const windowOpen =
    user.lastFailedLoginAt !== null &&
    Date.now() - user.lastFailedLoginAt.getTime() < LOGIN_FAILURES_PER_ACCOUNT.windowMs;
  if (windowOpen && user.failedLoginCount >= LOGIN_FAILURES_PER_ACCOUNT.max) {
    throw new AppError("TOO_MANY_REQUESTS", MSG.tooManyRequests);
  }
  if (!(await deps.passwords.verify(user.passwordHash, input.password))) {
    await deps.db
      .update(users)
      .set({
        failedLoginCount: windowOpen ? sql`${users.failedLoginCount} + 1` : 1,
        lastFailedLoginAt: new Date(),
      })
      .where(eq(users.id, user.id));
    throw new AppError("UNAUTHORIZED", MSG.loginFailed);
  }
  if (user.failedLoginCount > 0) {
    await deps.db.update(users).set({ failedLoginCount: 0, lastFailedLoginAt: null }).where(eq(users.id, user.id));
  }
  const token = await deps.tokens.sign({ sub: user.id, role: user.role, tv: user.tokenVersion });
  return { token, role: user.role };
}

/** A fresh login ID that no account (live or deleted) uses. */
export async function uniqueUserId(db: Db): Promise<string> {
  for (;;) {
    const candidate = generateUserId();
    const [taken] = await db.select({ id: users.id }).from(users).where(eq(users.userId, candidate));
    if (!taken) return candidate;
  }
}

/** Admin helper (spec `GET /api/auth/uniuqeGenerate`): an unused login ID and a new password. */
export async function generateCredentials(db: Db): Promise<{ userID: string; password: string }> {
  return { userID: await uniqueUserId(db), password: generatePassword() };
}

function credentialsMail(publicUrl: string, userID: string, password: string, intro: string) {
  return [
    intro,
    "",
    `ユーザーID: ${userID}`,
    `パスワード: ${password}`,
    "",
    `ログイン: ${publicUrl}/login`,
    "",
    "ログイン後、プロフィール設定からパスワードを変更できます。",
    "このメールにお心当たりがない場合は破棄してください。",
    "",
    "縁結び (Enmusubi)",
  ].join("\n");
}

/**
 * Registration: creates a member with a generated user ID and password and mails both to the
 * address. The starting balances are written to the ledger like any other change.
 */
export async function signup(deps: AuthDeps & { onMailQueued(): void }, input: SignupInput, ip: string) {
  enforceRateLimit(deps.limiter, [
    [`signup:ip:${ip}`, RATE_LIMITS.signupPerIp],
    [`signup:email:${input.email}`, RATE_LIMITS.signupPerEmail],
  ]);
  const password = generatePassword();
  const passwordHash = await deps.passwords.hash(password);
  try {
    await deps.db.transaction(async (tx) => {
      const [taken] = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(sql`lower(${users.email}) = ${input.email}`, isNull(users.deletedAt)));
      if (taken) throw new AppError("CONFLICT", MSG.emailTaken);
      const userID = await uniqueUserId(tx);
      const [user] = await tx
        .insert(users)
        .values({
          userId: userID,
          email: input.email,
          gender: input.gender,
          passwordHash,
          role: "user",
          points: NEW_USER_DEFAULTS.points,
          sendPoints: NEW_USER_DEFAULTS.sendPoints,
        })
        .returning({ id: users.id });
      if (!user) throw new Error("insert returned no row");
      await writeOpeningBalances(tx, user.id, NEW_USER_DEFAULTS.points, NEW_USER_DEFAULTS.sendPoints);
      await enqueueMail(tx, {
        to: input.email,
        subject: "【縁結び】会員登録が完了しました",
        text: credentialsMail(
          deps.publicUrl,
          userID,
          password,
          "縁結びへのご登録ありがとうございます。ログイン情報をお送りします。",
        ),
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("CONFLICT", MSG.emailTaken, { cause: error });
    throw error;
  }
  deps.onMailQueued();
  return { success: true as const, message: MSG.signupDone };
}

/** Ledger rows for the balances an account starts with, so ledger sums always equal balances. */
export async function writeOpeningBalances(
  tx: Db,
  userId: string,
  points: number,
  sendPoints: number,
  actorId?: string,
) {
  const rows = [
    { account: "points" as const, delta: points },
    { account: "send_points" as const, delta: sendPoints },
  ].filter((r) => r.delta !== 0);
  if (rows.length === 0) return;
  await tx.insert(pointLedger).values(
    rows.map((r) => ({
      userId,
      account: r.account,
      kind: "initial" as const,
      delta: r.delta,
      balanceAfter: r.delta,
      actorId,
    })),
  );
}

/**
 * Password reissue. The answer is the same whether or not the pair exists, so the form cannot be
 * used to discover accounts; only a matching pair gets a new password by mail.
 */
export async function forgotPassword(deps: AuthDeps & { onMailQueued(): void }, input: ForgotInput, ip: string) {
  enforceRateLimit(deps.limiter, [
    [`forgot:ip:${ip}`, RATE_LIMITS.forgotPerIp],
    [`forgot:user:${input.userID}`, RATE_LIMITS.forgotPerAccount],
  ]);
  const password = generatePassword();
  const passwordHash = await deps.passwords.hash(password);
  const sent = await deps.db.transaction(async (tx) => {
    const [user] = await tx
      .update(users)
      .set({ passwordHash, tokenVersion: sql`${users.tokenVersion} + 1`, failedLoginCount: 0, lastFailedLoginAt: null })
      .where(
        and(
          eq(users.userId, input.userID),
          sql`lower(${users.email}) = ${input.email.toLowerCase()}`,
          isNull(users.deletedAt),
        ),
      )
      .returning({ email: users.email });
    if (!user) return false;
    await enqueueMail(tx, {
      to: user.email,
      subject: "【縁結び】パスワード再発行のお知らせ",
      text: credentialsMail(
        deps.publicUrl,
        input.userID,
        password,
        "パスワードの再発行を受け付けました。新しいログイン情報をお送りします。",
      ),
    });
    return true;
  });
  if (sent) deps.onMailQueued();
  return { success: true as const, message: MSG.forgotSent };
}

export async function me(db: Db, userId: string) {
  const view = await getOwnUserView(db, userId);
  if (!view) throw new AppError("UNAUTHORIZED", MSG.unauthorized);
  return view;
}

/**
 * The member's own profile. A new password needs the current one and ends every other session
 * (token version); the response carries a fresh token for this one.
 */
export async function updateProfile(
  deps: AuthDeps & { uploadsDir: string },
  userId: string,
  input: ProfileUpdateInput,
) {
  const { db, passwords, tokens } = deps;
  const [user] = await db
    .select({
      passwordHash: users.passwordHash,
      role: users.role,
      tokenVersion: users.tokenVersion,
      photoLink: users.photoLink,
    })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)));
  if (!user) throw new AppError("UNAUTHORIZED", MSG.unauthorized);
  // A new photo arrives through photos.upload (which checks and cleans the image); here the link
  // may only be kept or cleared, so nobody can point their profile at another member's file.
  if (input.photoLink && input.photoLink !== user.photoLink) throw new AppError("BAD_REQUEST", MSG.photoLinkInvalid);
  let passwordHash: string | undefined;
  if (input.newPassword) {
    if (!(await passwords.verify(user.passwordHash, input.currentPassword ?? ""))) {
      throw new AppError("BAD_REQUEST", MSG.currentPasswordWrong);
    }
    passwordHash = await passwords.hash(input.newPassword);
  }
  if (input.occupationId) {
    const [found] = await db
      .select({ id: occupations.id })
      .from(occupations)
      .where(eq(occupations.id, input.occupationId));
    if (!found) throw new AppError("BAD_REQUEST", MSG.occupationUnknown);
  }
  if (input.annualIncomeId) {
    const [found] = await db
      .select({ id: annualIncomes.id })
      .from(annualIncomes)
      .where(eq(annualIncomes.id, input.annualIncomeId));
    if (!found) throw new AppError("BAD_REQUEST", MSG.annualIncomeUnknown);
  }
  const blankToNull = (v: string | null | undefined) => (v === undefined ? undefined : v === "" ? null : v);
  const changes = Object.fromEntries(
    Object.entries({
      name: input.name,
      birthday: input.birthday,
      address: blankToNull(input.address),
      occupationId: input.occupationId,
      annualIncomeId: input.annualIncomeId,
      photoLink: blankToNull(input.photoLink),
    }).filter(([, value]) => value !== undefined),
  );
  // Nothing to change (an empty form) is a successful no-op, not an empty UPDATE.
  const [updated] =
    Object.keys(changes).length === 0 && !passwordHash
      ? [{ tokenVersion: user.tokenVersion }]
      : await db
          .update(users)
          .set({ ...changes, ...(passwordHash ? { passwordHash, tokenVersion: sql`${users.tokenVersion} + 1` } : {}) })
          .where(eq(users.id, userId))
          .returning({ tokenVersion: users.tokenVersion });
  if (!updated) throw new AppError("UNAUTHORIZED", MSG.unauthorized);
  if (input.photoLink === "" || input.photoLink === null) await releasePhoto(deps, user.photoLink);
  const token = passwordHash
    ? await tokens.sign({ sub: userId, role: user.role, tv: updated.tokenVersion })
    : undefined;
  return { user: await me(db, userId), token };
}
