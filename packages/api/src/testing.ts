import { type Db, profileReviews, users } from "@enmusubi/db";
import { NEW_USER_DEFAULTS, type Role, TERMS_VERSION } from "@enmusubi/shared";
import { and, eq, sql } from "drizzle-orm";
import { createAccount, type NewAccount } from "./accounts/create-account";
import type { PasswordHasher } from "./auth/password";
import { sessionOf } from "./auth/session";
import type { Session } from "./deps";
import { releasePhoto } from "./photos/service";
import { changeBalance } from "./points/ledger";

/** What tests look for in the outbox: the subjects of the service's mails. */
export { MAIL_SUBJECTS } from "./mail/templates";

/** Test data, shared by every test project (`@enmusubi/api/testing`): accounts made the one real way. */

export interface TestAccount {
  id: string;
  userID: string;
  password: string;
  role: Role;
  /** The session a request with this account's token gets, read when the account was made (`sessionOf`). */
  session: Session;
}

export type TestAccountFields = Partial<Omit<NewAccount, "passwordHash">> & { password?: string };

let counter = 0;

/** A live account through `createAccount` (balances opened in the ledger), with a unique userID. */
export async function createTestAccount(
  db: Db,
  passwords: PasswordHasher,
  { password = "password123", ...fields }: TestAccountFields = {},
): Promise<TestAccount> {
  counter += 1;
  const userID = fields.userID ?? `t${process.pid % 1000}u${counter}${Math.random().toString(36).slice(2, 6)}`;
  const role = fields.role ?? "user";
  const id = await db.transaction(async (tx) =>
    createAccount(tx, {
      email: `${userID}@example.jp`,
      name: `テスト${counter}`,
      gender: "male",
      points: NEW_USER_DEFAULTS.points,
      sendPoints: NEW_USER_DEFAULTS.sendPoints,
      // Most tests exercise members who may use everything; gating tests pass another state.
      verificationStatus: "verified",
      // … and who accepted the terms in force (decision 0034); `termsVersion: undefined` makes one who has not.
      termsVersion: TERMS_VERSION,
      ...fields,
      userID,
      role,
      passwordHash: await passwords.hash(password),
    }),
  );
  const session = await sessionOf(db, id);
  if (!session) throw new Error(`test account ${userID} has no session`);
  return { id, userID, password, role, session };
}

/**
 * The session a request of `account` gets now (null once deleted or suspended), read like a real
 * one (auth/session.ts): a test caller built from it on every call sees what a request would.
 */
export function currentSession(db: Db, account: { id: string }): Promise<Session | null> {
  return sessionOf(db, account.id);
}

/**
 * Credits `points` bought for `paidYen` to `userId` in the ledger (a paid lot), as a confirmed
 * payment does but without a payment order, for tests whose subject is what a member does with
 * bought points. Tests of payments go through the payment procedures. Returns the new balance.
 */
export function creditPurchasedPoints(db: Db, userId: string, points: number, paidYen: number): Promise<number> {
  return db.transaction((tx) => changeBalance(tx, { userId, delta: points, kind: "purchase", paidYen }));
}

/**
 * Marks `userId`'s phone verified with `phone` (E.164), as a confirmed SMS code does but without the
 * code and without the sign-up bonus, for tests whose subject is what a verified member gets (the
 * login bonus). Tests of the verification itself go through the phone procedures.
 */
export async function markPhoneVerified(db: Db, userId: string, phone: string): Promise<void> {
  await db.update(users).set({ phoneNumber: phone, phoneVerifiedAt: sql`now()` }).where(eq(users.id, userId));
}

/** A signed SmartPit notification as the provider would send it (tests and the dev simulator). */
export { simulateSmartPitPayment } from "./payments/providers/smart-pit-simulator";

/**
 * Approves every photo and 自己紹介 change of `userId` waiting for the profile review, as an
 * administrator's approval would (the values copied into users; decision 0044), for tests whose
 * subject is what others do with a member's new photo or text. Writes no audit row; with
 * `uploadsDir`, the photo an approval replaces is removed as the real one does. Tests of the review
 * itself go through adminProfileReview.
 */
export async function approveProfile(db: Db, userId: string, { uploadsDir }: { uploadsDir?: string } = {}) {
  const replaced = await db.transaction(async (tx) => {
    const [before] = await tx
      .select({ photoLink: users.photoLink })
      .from(users)
      .where(eq(users.id, userId))
      .for("update");
    const pending = await tx
      .update(profileReviews)
      .set({ status: "approved", decidedAt: sql`now()` })
      .where(and(eq(profileReviews.userId, userId), eq(profileReviews.status, "pending")))
      .returning({ kind: profileReviews.kind, photoLink: profileReviews.photoLink, text: profileReviews.introduction });
    for (const change of pending) {
      await tx
        .update(users)
        .set(change.kind === "photo" ? { photoLink: change.photoLink } : { selfIntroduction: change.text ?? "" })
        .where(eq(users.id, userId));
    }
    return pending.some((c) => c.kind === "photo") ? (before?.photoLink ?? null) : null;
  });
  if (uploadsDir) await releasePhoto({ db, uploadsDir }, replaced);
}
