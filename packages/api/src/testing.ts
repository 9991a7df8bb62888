import type { Db } from "@enmusubi/db";
import { NEW_USER_DEFAULTS, type Role } from "@enmusubi/shared";
import { createAccount, type NewAccount } from "./accounts/create-account";
import type { PasswordHasher } from "./auth/password";

/** Test data, shared by every test project (`@enmusubi/api/testing`): accounts made the one real way. */

export interface TestAccount {
  id: string;
  userID: string;
  password: string;
  role: Role;
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
      ...fields,
      userID,
      role,
      passwordHash: await passwords.hash(password),
    }),
  );
  return { id, userID, password, role };
}

/** A signed SmartPit notification as the provider would send it (tests and the dev simulator). */
export { simulateSmartPitPayment } from "./payments/providers/smart-pit-simulator";
