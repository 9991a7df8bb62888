import { type Db, users } from "@enmusubi/db";
import {
  type ForgotInput,
  type JoinInput,
  type LoginInput,
  MSG,
  NEW_USER_DEFAULTS,
  type Role,
  type SignupInput,
} from "@enmusubi/shared";
import { and, eq, isNotNull, isNull, or, sql } from "drizzle-orm";
import { createAccount, uniqueUserId } from "../accounts/create-account";
import { cancelEmailChanges } from "../accounts/email-change";
import { AppError, isUniqueViolation } from "../errors";
import { enqueueMail } from "../mail/outbox";
import { alreadyRegisteredMail, passwordReissueMail, signupDoneMail } from "../mail/templates";
import { markActive } from "../members/activity";
import { enforceRateLimit, LOGIN_FAILURES_PER_ACCOUNT, RATE_LIMITS, type RateLimiter } from "../security/rate-limit";
import { loginThrottleKey } from "./current-password";
import { generatePassword, type PasswordHasher } from "./password";
import type { TokenService } from "./tokens";

/** Sign-in, registration and password reissue. */

interface AuthDeps {
  db: Db;
  passwords: PasswordHasher;
  tokens: TokenService;
  limiter: RateLimiter;
  publicUrl: string;
}

/** How long a password reissued by mail can be taken into use. */
export const PENDING_PASSWORD_HOURS = 24;

// Verified against when the user ID is unknown, so both failures take the same time.
let dummyHash: Promise<string> | undefined;

/**
 * Login by userID and password. Attempts are counted per account and client before the password
 * is checked (atomic: concurrent attempts cannot overtake the limit) and cleared by a success;
 * unknown and known IDs are answered alike. A password reissued by mail works alongside the current
 * one until it is first used, which makes it the password and ends the other sessions. A suspended
 * account is refused (FORBIDDEN) once its password matched, and nothing about it changes.
 */
export async function login(deps: AuthDeps, input: LoginInput, ip: string): Promise<{ token: string; role: Role }> {
  const throttle = loginThrottleKey(input.userID, ip);
  await enforceRateLimit(deps.limiter, [
    [`login:ip:${ip}`, RATE_LIMITS.loginPerIp],
    [throttle, LOGIN_FAILURES_PER_ACCOUNT],
  ]);
  // A withdrawn account (退会) is read too, to be told so once its password matched (decision 0034);
  // an account an administrator deleted, or whose personal data is gone, is unknown.
  const [user] = await deps.db
    .select()
    .from(users)
    .where(
      and(
        eq(users.userId, input.userID),
        or(isNull(users.deletedAt), and(isNotNull(users.withdrawnAt), isNull(users.personalDataDeletedAt))),
      ),
    );
  if (!user) {
    dummyHash ??= deps.passwords.hash("not-a-password");
    await deps.passwords.verify(await dummyHash, input.password);
    throw new AppError("UNAUTHORIZED", MSG.loginFailed);
  }
  let tokenVersion = user.tokenVersion;
  if (!(await deps.passwords.verify(user.passwordHash, input.password))) {
    const pending = user.pendingPasswordHash;
    const usable =
      pending !== null &&
      (user.pendingPasswordExpiresAt?.getTime() ?? 0) > Date.now() &&
      (await deps.passwords.verify(pending, input.password));
    if (!usable) throw new AppError("UNAUTHORIZED", MSG.loginFailed);
    if (user.deletedAt) throw new AppError("FORBIDDEN", MSG.accountWithdrawn);
    if (user.suspendedAt) throw new AppError("FORBIDDEN", MSG.accountSuspended);
    const [promoted] = await deps.db
      .update(users)
      .set({
        passwordHash: pending,
        pendingPasswordHash: null,
        pendingPasswordExpiresAt: null,
        tokenVersion: sql`${users.tokenVersion} + 1`,
      })
      .where(and(eq(users.id, user.id), eq(users.pendingPasswordHash, pending)))
      .returning({ tokenVersion: users.tokenVersion });
    // The password changed: a pending e-mail change (perhaps an intruder's) ends (decision 0038).
    if (promoted) await cancelEmailChanges(deps.db, user.id);
    // A concurrent login already promoted it: read the version that one wrote.
    tokenVersion =
      promoted?.tokenVersion ??
      (await deps.db.select({ v: users.tokenVersion }).from(users).where(eq(users.id, user.id)))[0]?.v ??
      tokenVersion;
  }
  // Told only after the password matched, so guessing never reveals a suspension; the attempt
  // stays counted (not a successful login).
  if (user.deletedAt) throw new AppError("FORBIDDEN", MSG.accountWithdrawn);
  if (user.suspendedAt) throw new AppError("FORBIDDEN", MSG.accountSuspended);
  await deps.limiter.reset(throttle);
  await markActive(deps.db, user.id);
  const token = await deps.tokens.sign({ sub: user.id, role: user.role, tv: tokenVersion });
  return { token, role: user.role };
}

/**
 * Registration: creates a member with a generated user ID and password and mails both to the
 * address. A registered address gets the same answer (so the form cannot tell which addresses
 * are members) and its owner a mail saying so; nothing else changes.
 */
export async function signup(deps: AuthDeps & { onMailQueued(): void }, input: SignupInput | JoinInput, ip: string) {
  await enforceRateLimit(deps.limiter, [
    [`signup:ip:${ip}`, RATE_LIMITS.signupPerIp],
    [`signup:email:${input.email}`, RATE_LIMITS.signupPerEmail],
  ]);
  const password = generatePassword();
  // Hashed whether or not the address is new, so both answers take the same time.
  const passwordHash = await deps.passwords.hash(password);
  const notifyOwner = (tx: Db) => enqueueMail(tx, { to: input.email, ...alreadyRegisteredMail(deps.publicUrl) });
  try {
    await deps.db.transaction(async (tx) => {
      const [taken] = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(sql`lower(${users.email}) = ${input.email}`, isNull(users.deletedAt)));
      if (taken) return notifyOwner(tx);
      const userID = await uniqueUserId(tx);
      await createAccount(tx, {
        userID,
        passwordHash,
        email: input.email,
        gender: input.gender,
        role: "user",
        // The sign-up bonus (free points) waits for the phone's verification: one account per
        // number keeps it from being collected again with a new address (decision 0048).
        points: 0,
        signupBonusPending: true,
        sendPoints: NEW_USER_DEFAULTS.sendPoints,
        // The sign-up screen's consent (joinInput); the legacy REST sign-up records none: asked at first sign-in.
        ...("termsVersion" in input ? { termsVersion: input.termsVersion } : {}),
      });
      await enqueueMail(tx, { to: input.email, ...signupDoneMail(deps.publicUrl, userID), secret: password });
    });
  } catch (error) {
    // The same address registered concurrently: it is registered now, so answer as for one.
    if (!isUniqueViolation(error)) throw error;
    await deps.db.transaction(notifyOwner);
  }
  deps.onMailQueued();
  return { success: true as const, message: MSG.signupDone };
}

/**
 * Password reissue (spec: a new password by mail). The answer is the same whether or not the pair
 * exists; only a matching pair gets a mail. The new password waits beside the current one (see
 * `login`), so someone who knows a member's ID and address cannot lock them out.
 */
export async function forgotPassword(deps: AuthDeps & { onMailQueued(): void }, input: ForgotInput, ip: string) {
  await enforceRateLimit(deps.limiter, [
    [`forgot:ip:${ip}`, RATE_LIMITS.forgotPerIp],
    [`forgot:user:${input.userID}`, RATE_LIMITS.forgotPerAccount],
  ]);
  const password = generatePassword();
  const pendingPasswordHash = await deps.passwords.hash(password);
  const sent = await deps.db.transaction(async (tx) => {
    const [user] = await tx
      .update(users)
      .set({
        pendingPasswordHash,
        pendingPasswordExpiresAt: sql`now() + make_interval(hours => ${PENDING_PASSWORD_HOURS})`,
      })
      .where(
        and(
          eq(users.userId, input.userID),
          sql`lower(${users.email}) = ${input.email.toLowerCase()}`,
          isNull(users.deletedAt),
        ),
      )
      .returning({ id: users.id, email: users.email });
    if (!user) return false;
    // A reissue is asked by someone who may have lost the account: a pending e-mail change ends now
    // (it may be an intruder's), and again when the new password is first used (decision 0038).
    await cancelEmailChanges(tx, user.id);
    await enqueueMail(tx, {
      to: user.email,
      ...passwordReissueMail(deps.publicUrl, input.userID, PENDING_PASSWORD_HOURS),
      secret: password,
    });
    return true;
  });
  if (sent) deps.onMailQueued();
  return { success: true as const, message: MSG.forgotSent };
}
