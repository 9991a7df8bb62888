import { createHash, randomInt, randomUUID, timingSafeEqual } from "node:crypto";
import { type Db, phoneVerificationCodes, rowsOf, users } from "@enmusubi/db";
import {
  formatJapaneseMobile,
  MSG,
  maskJapaneseMobile,
  PHONE_VERIFICATION,
  type PhoneCodeConfirmInput,
  type PhoneCodeRequestInput,
  phoneCodeWrongLeft,
  phoneResendWaitSeconds,
  SIGNUP_BONUS_POINTS,
} from "@enmusubi/shared";
import { and, desc, eq, isNull, ne, sql } from "drizzle-orm";
import { AppError, isUniqueViolation } from "../errors";
import { grantSignupBonus, loginBonusPoints } from "../points/bonuses";
import { enforceRateLimit, type RateLimiter, type RateLimitRule } from "../security/rate-limit";
import type { SmsSender } from "./sms";
import { codeSmsText } from "./texts";

/*
 * Phone verification by SMS (decision 0048): a member asks for a 6-digit code to a Japanese mobile
 * number, types it back within 10 minutes and at most 5 tries, and the number becomes theirs: one
 * account per number (users_phone_number_key). Verifying grants the sign-up bonus once and opens
 * the daily login bonus (points/bonuses.ts). Sends are limited per number and per member in
 * PostgreSQL (rate_limit_counters, decision 0014) and spaced by the resend interval.
 */

interface PhoneDeps {
  db: Db;
  limiter: RateLimiter;
  sms: SmsSender;
}

const DAY_MS = 24 * 60 * 60_000;
const SEND_RULES = {
  perNumber: { max: PHONE_VERIFICATION.sendsPerNumberDay, windowMs: DAY_MS } satisfies RateLimitRule,
  perMember: { max: PHONE_VERIFICATION.sendsPerMemberDay, windowMs: DAY_MS } satisfies RateLimitRule,
};

/** What is kept of a code: SHA-256 of the row's own (random) id and the code. */
export function hashCode(id: string, code: string): string {
  return createHash("sha256").update(`${id}:${code}`).digest("hex");
}

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A fresh code: 6 random digits (leading zeros kept). */
const newCode = () =>
  String(randomInt(0, 10 ** PHONE_VERIFICATION.codeDigits)).padStart(PHONE_VERIFICATION.codeDigits, "0");

/** Seconds until the member may ask for another code (0: now), by the database's clock. */
async function resendWait(db: Db, userId: string): Promise<number> {
  const [row] = await rowsOf<{ wait: number }>(
    db,
    sql`select coalesce(ceil(extract(epoch from (max(created_at) + make_interval(secs => ${PHONE_VERIFICATION.resendIntervalSeconds}) - now()))), 0)::int as wait
        from ${phoneVerificationCodes} where user_id = ${userId}`,
  );
  return Math.max(0, row?.wait ?? 0);
}

function waitRefusal(seconds: number): AppError {
  // The seconds are in the message; the screen reads the wait from `phoneStatus` (error bodies are `{ message }`).
  return new AppError("TOO_MANY_REQUESTS", phoneResendWaitSeconds(seconds));
}

export interface PhoneStatus {
  verified: boolean;
  /** The verified number, masked (`090-****-5678`); null until verified. */
  phone: string | null;
  verifiedAt: Date | null;
  /** The code waiting to be typed: where it went, until when, how many tries are left. */
  pendingCode: { phone: string; expiresAt: Date; attemptsLeft: number } | null;
  /** Seconds until another code may be sent (0: now). */
  resendWaitSeconds: number;
  /** What verifying unlocks: the sign-up bonus (if still due to this account) and the daily login bonus. */
  signupBonus: { points: number; pending: boolean; grantedAt: Date | null };
  loginBonusPoints: number;
}

/** The member's phone verification as the screen shows it. */
export async function phoneStatus(db: Db, userId: string): Promise<PhoneStatus> {
  const [member] = await db
    .select({
      phone: users.phoneNumber,
      verifiedAt: users.phoneVerifiedAt,
      bonusPending: users.signupBonusPending,
      bonusGrantedAt: users.signupBonusGrantedAt,
    })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)));
  if (!member) throw new AppError("NOT_FOUND", MSG.notFound);
  const verified = member.verifiedAt !== null && member.phone !== null;
  const [code] = verified
    ? []
    : await db
        .select({
          phone: phoneVerificationCodes.phoneNumber,
          expiresAt: phoneVerificationCodes.expiresAt,
          attempts: phoneVerificationCodes.attempts,
          live: sql<boolean>`${phoneVerificationCodes.expiresAt} > now() and ${phoneVerificationCodes.consumedAt} is null`,
        })
        .from(phoneVerificationCodes)
        .where(eq(phoneVerificationCodes.userId, userId))
        .orderBy(desc(phoneVerificationCodes.createdAt))
        .limit(1);
  const attemptsLeft = code ? PHONE_VERIFICATION.maxAttempts - code.attempts : 0;
  return {
    verified,
    phone: verified && member.phone ? maskJapaneseMobile(member.phone) : null,
    verifiedAt: verified ? member.verifiedAt : null,
    pendingCode:
      code?.live && attemptsLeft > 0
        ? { phone: formatJapaneseMobile(code.phone), expiresAt: code.expiresAt, attemptsLeft }
        : null,
    resendWaitSeconds: verified ? 0 : await resendWait(db, userId),
    signupBonus: {
      points: SIGNUP_BONUS_POINTS,
      pending: member.bonusPending,
      grantedAt: member.bonusGrantedAt,
    },
    loginBonusPoints: await loginBonusPoints(db),
  };
}

/** Refuses a number another account holds (live, suspended, deleted, or withdrawn within the retention). */
async function assertNumberFree(db: Db, userId: string, phone: string): Promise<void> {
  const [holder] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.phoneNumber, phone), ne(users.id, userId)));
  if (holder) throw new AppError("CONFLICT", MSG.phoneTaken);
}

export interface CodeSent {
  message: string;
  /** The number the code went to, as written in Japan. */
  phone: string;
  expiresAt: Date;
  resendWaitSeconds: number;
}

/**
 * Sends a code to `input.phone` (E.164 from the schema). Refused, with nothing written or counted:
 * a member whose phone is verified (409), a number another account holds (409), a resend within
 * the interval (429 with the seconds left). Then the send is counted per number and per member
 * (429 past the day's allowance; the count stays even if the send fails), the code stored hashed
 * and the SMS sent. A code sent earlier dies: only the newest counts. A failed send kills the new
 * code and answers 400 with a Japanese message.
 */
export async function requestPhoneCode(
  deps: PhoneDeps,
  userId: string,
  input: PhoneCodeRequestInput,
): Promise<CodeSent> {
  const [member] = await deps.db
    .select({ verifiedAt: users.phoneVerifiedAt })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)));
  if (!member) throw new AppError("NOT_FOUND", MSG.notFound);
  if (member.verifiedAt) throw new AppError("CONFLICT", MSG.phoneAlreadyVerified);
  await assertNumberFree(deps.db, userId, input.phone);
  const wait = await resendWait(deps.db, userId);
  if (wait > 0) throw waitRefusal(wait);
  await enforceRateLimit(
    deps.limiter,
    [
      [`sms:number:${input.phone}`, SEND_RULES.perNumber],
      [`sms:member:${userId}`, SEND_RULES.perMember],
    ],
    MSG.phoneSendLimit,
  );
  const code = newCode();
  const id = randomUUID();
  const stored = await deps.db.transaction(async (tx) => {
    // One code at a time per member: concurrent requests queue here, and the later one sees the
    // earlier one's code and is told to wait.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`phone-code:${userId}`}))`);
    const seconds = await resendWait(tx, userId);
    if (seconds > 0) throw waitRefusal(seconds);
    const [row] = await tx
      .insert(phoneVerificationCodes)
      .values({
        id,
        userId,
        phoneNumber: input.phone,
        codeHash: hashCode(id, code),
        expiresAt: sql`now() + make_interval(mins => ${PHONE_VERIFICATION.codeTtlMinutes})`,
      })
      .returning({ expiresAt: phoneVerificationCodes.expiresAt });
    return row as { expiresAt: Date };
  });
  try {
    await deps.sms.send({ to: input.phone, text: codeSmsText(code) });
  } catch (error) {
    await deps.db
      .update(phoneVerificationCodes)
      .set({ expiresAt: sql`now()` })
      .where(eq(phoneVerificationCodes.id, id));
    throw new AppError("BAD_REQUEST", MSG.phoneSmsFailed, { cause: error });
  }
  return {
    message: MSG.phoneCodeSent,
    phone: formatJapaneseMobile(input.phone),
    expiresAt: stored.expiresAt,
    resendWaitSeconds: PHONE_VERIFICATION.resendIntervalSeconds,
  };
}

export interface PhoneVerified {
  message: string;
  phone: string;
  /** Points of the sign-up bonus granted now (0: this account had none due). */
  signupBonusPoints: number;
}

/** Why the member's newest code takes no more tries. */
async function deadCodeRefusal(db: Db, userId: string): Promise<AppError> {
  const [latest] = await db
    .select({
      consumed: phoneVerificationCodes.consumedAt,
      attempts: phoneVerificationCodes.attempts,
      expired: sql<boolean>`${phoneVerificationCodes.expiresAt} <= now()`,
    })
    .from(phoneVerificationCodes)
    .where(eq(phoneVerificationCodes.userId, userId))
    .orderBy(desc(phoneVerificationCodes.createdAt))
    .limit(1);
  if (!latest) return new AppError("BAD_REQUEST", MSG.phoneNoCode);
  if (latest.consumed) return new AppError("CONFLICT", MSG.phoneAlreadyVerified);
  if (latest.attempts >= PHONE_VERIFICATION.maxAttempts) return new AppError("BAD_REQUEST", MSG.phoneCodeDead);
  return new AppError("BAD_REQUEST", MSG.phoneCodeExpired);
}

/**
 * Checks the code against the member's newest one. Each try is counted on the code before it is
 * compared, in a statement of its own (a refusal's rollback never uncounts it, and concurrent tries
 * cannot exceed the 5). Wrong: 400 with the tries left, and at the fifth the code is dead. Right:
 * in one transaction the code is used, the number becomes the member's (409 and nothing changed if
 * another account took it meanwhile) and the sign-up bonus is granted if this account has it due.
 */
export async function confirmPhoneCode(
  deps: Pick<PhoneDeps, "db">,
  userId: string,
  input: PhoneCodeConfirmInput,
): Promise<PhoneVerified> {
  const [member] = await deps.db
    .select({ verifiedAt: users.phoneVerifiedAt })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)));
  if (!member) throw new AppError("NOT_FOUND", MSG.notFound);
  if (member.verifiedAt) throw new AppError("CONFLICT", MSG.phoneAlreadyVerified);
  const [attempt] = await rowsOf<{ id: string; phone: string; hash: string; attempts: number }>(
    deps.db,
    sql`update ${phoneVerificationCodes} set attempts = attempts + 1
        where id = (select id from ${phoneVerificationCodes} where user_id = ${userId} order by created_at desc limit 1)
          and consumed_at is null and expires_at > now() and attempts < ${PHONE_VERIFICATION.maxAttempts}
        returning id, phone_number as phone, code_hash as hash, attempts`,
  );
  if (!attempt) throw await deadCodeRefusal(deps.db, userId);
  if (!sameHash(attempt.hash, hashCode(attempt.id, input.code))) {
    const left = PHONE_VERIFICATION.maxAttempts - attempt.attempts;
    throw new AppError("BAD_REQUEST", left > 0 ? phoneCodeWrongLeft(left) : MSG.phoneCodeDead);
  }
  try {
    const bonus = await deps.db.transaction(async (tx) => {
      const [used] = await tx
        .update(phoneVerificationCodes)
        .set({ consumedAt: sql`now()` })
        .where(and(eq(phoneVerificationCodes.id, attempt.id), isNull(phoneVerificationCodes.consumedAt)))
        .returning({ id: phoneVerificationCodes.id });
      if (!used) throw new AppError("CONFLICT", MSG.phoneAlreadyVerified);
      const [verified] = await tx
        .update(users)
        .set({ phoneNumber: attempt.phone, phoneVerifiedAt: sql`now()` })
        .where(and(eq(users.id, userId), isNull(users.phoneVerifiedAt), isNull(users.deletedAt)))
        .returning({ id: users.id });
      if (!verified) throw new AppError("CONFLICT", MSG.phoneAlreadyVerified);
      return grantSignupBonus(tx, userId);
    });
    return { message: MSG.phoneVerified, phone: maskJapaneseMobile(attempt.phone), signupBonusPoints: bonus };
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("CONFLICT", MSG.phoneTaken);
    throw error;
  }
}
