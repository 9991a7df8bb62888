import type { Database } from "@enmusubi/db";
import { openTestDatabase, type TestTemplate } from "@enmusubi/db/testing";
import { afterAll, beforeAll, inject } from "vitest";
import { createPasswordHasher } from "../src/auth/password";
import { createTokenService } from "../src/auth/tokens";
import { createContextInner } from "../src/context";
import type { ApiDeps, Session } from "../src/deps";
import { createMemoryMailboxEvents } from "../src/messages/events";
import { createLinkSigner } from "../src/notices/links";
import { createRecordingSms } from "../src/phone/sms";
import { createPhotoUrlSigner } from "../src/photos/signed-url";
import { createCaller } from "../src/root";
import { ScreeningRules } from "../src/screening/rules";
import { unlimited } from "../src/security/rate-limit";
import { createTestAccount, currentSession, type TestAccountFields } from "../src/testing";

declare module "vitest" {
  export interface ProvidedContext {
    dbTemplate: TestTemplate;
  }
}

/** argon2 at its lowest cost: tests check behaviour, not hashing strength. */
export const testPasswords = createPasswordHasher({ memoryCost: 1024, timeCost: 1 });

export interface TestUser {
  id: string;
  userID: string;
  password: string;
  role: "user" | "admin";
  session: Session;
}

export interface TestApi {
  database: Database;
  deps: ApiDeps;
  mailQueued: { count: number };
  /**
   * A tRPC caller acting as `user` (or anonymous): each call reads the user's session as a request
   * with their token would (a suspended or deleted account calls as nobody).
   */
  caller(user?: TestUser | null, ip?: string): ReturnType<typeof createCaller>;
  createUser(fields?: TestAccountFields): Promise<TestUser>;
}

let counter = 0;

/**
 * A fresh database for this test file (see vitest.global-setup.ts) and helpers to act as members
 * and administrators. Call at the top level of a test file.
 */
export function useTestApi(overrides: Partial<ApiDeps> = {}): TestApi {
  const api = { mailQueued: { count: 0 } } as TestApi;
  beforeAll(async () => {
    api.database = await openTestDatabase(inject("dbTemplate"));
    api.deps = {
      db: api.database.db,
      tokens: createTokenService("test-secret-test-secret-test-secret-42"),
      photoUrls: createPhotoUrlSigner("test-secret-test-secret-test-secret-42"),
      links: createLinkSigner("test-secret-test-secret-test-secret-42"),
      passwords: testPasswords,
      limiter: unlimited,
      uploadsDir: `/tmp/enmusubi-test-uploads-${process.pid}`,
      publicUrl: "http://localhost:3000",
      mailbox: createMemoryMailboxEvents(),
      screening: new ScreeningRules(),
      sms: createRecordingSms(),
      onMailQueued: () => {
        api.mailQueued.count += 1;
      },
      ...overrides,
    };
  });
  afterAll(async () => {
    await api.database?.close();
  });
  api.caller = (user, ip) => {
    const from = ip ?? `10.0.0.${(counter % 250) + 1}`;
    return createCaller(async () =>
      createContextInner(api.deps, user ? await currentSession(api.deps.db, user) : null, from),
    );
  };
  api.createUser = async (fields) => {
    counter += 1;
    return createTestAccount(api.database.db, testPasswords, fields);
  };
  return api;
}

/** Every row of the tables a failed call must leave untouched, for before/after comparisons. */
export async function snapshotTables(api: TestApi, ...tables: string[]): Promise<unknown> {
  const out: Record<string, unknown> = {};
  for (const table of tables) {
    const result = await api.database.db.execute(`select * from ${table} order by 1`);
    out[table] = Array.isArray(result) ? [...result] : (result as { rows: unknown[] }).rows;
  }
  return out;
}
