import { type Db, users } from "@enmusubi/db";
import type { Gender, Role, VerificationStatus } from "@enmusubi/shared";
import { eq } from "drizzle-orm";
import { generatePassword, generateUserId } from "../auth/password";
import { openBalances } from "../points/ledger";

/** Everything an account starts with. The password arrives hashed: hashing is slow and belongs outside the transaction. */
export interface NewAccount {
  userID: string;
  passwordHash: string;
  email: string;
  role: Role;
  gender: Gender;
  name?: string | null;
  points: number;
  sendPoints: number;
  photoLink?: string | null;
  birthday?: string | null;
  address?: string | null;
  occupationId?: string | null;
  annualIncomeId?: string | null;
  createdAt?: Date;
  /** Signup leaves it `unverified` (the default); accounts an administrator creates are `verified`. */
  verificationStatus?: VerificationStatus;
  /** The administrator who created it, recorded on the opening ledger rows. */
  actorId?: string;
  /** The terms version accepted at sign-up (with the 18+ declaration); the time is the insert's (decision 0034). */
  termsVersion?: string;
  /**
   * A member's own sign-up: the sign-up bonus waits for the phone's verification (decision 0048)
   * instead of being opened with the account. Accounts made otherwise start with `points` as given.
   */
  signupBonusPending?: boolean;
}

/**
 * The one way an account comes into being: signup, the administrator's add-user, the first
 * administrator, the demo data and the test factories all call it. The row is inserted with empty
 * balances and the starting balances are opened through the ledger, so the sum of the ledger equals
 * the balance from the first moment. Call it inside the caller's transaction. Answers the new id,
 * or null when `ifAbsent` is set and the userID already exists.
 */
export async function createAccount(tx: Db, account: NewAccount): Promise<string>;
export async function createAccount(tx: Db, account: NewAccount, options: { ifAbsent: true }): Promise<string | null>;
export async function createAccount(tx: Db, account: NewAccount, options: { ifAbsent?: boolean } = {}) {
  const { userID, points, sendPoints, actorId, ...fields } = account;
  const verifiedAt = fields.verificationStatus === "verified" ? (fields.createdAt ?? new Date()) : null;
  const consent = fields.termsVersion ? { termsAcceptedAt: fields.createdAt ?? new Date() } : {};
  const values = { ...fields, ...consent, userId: userID, points: 0, sendPoints: 0, verifiedAt };
  const [row] = options.ifAbsent
    ? await tx.insert(users).values(values).onConflictDoNothing().returning({ id: users.id })
    : await tx.insert(users).values(values).returning({ id: users.id });
  if (!row) {
    if (options.ifAbsent) return null;
    throw new Error("account insert returned no row");
  }
  await openBalances(tx, { userId: row.id, points, sendPoints, ...(actorId ? { actorId } : {}) });
  return row.id;
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
