import type { Db } from "@enmusubi/db";
import { NEW_USER_DEFAULTS, type Role, TERMS_VERSION } from "@enmusubi/shared";
import { createAccount, type NewAccount } from "./accounts/create-account";
import type { PasswordHasher } from "./auth/password";
import { type Session, sessionOf } from "./context";

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
 * one (context.ts): a test caller built from it on every call sees what a request would.
 */
export function currentSession(db: Db, account: { id: string }): Promise<Session | null> {
  return sessionOf(db, account.id);
}

/** A signed SmartPit notification as the provider would send it (tests and the dev simulator). */
export { simulateSmartPitPayment } from "./payments/providers/smart-pit-simulator";
