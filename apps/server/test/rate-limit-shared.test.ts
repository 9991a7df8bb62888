import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createTestAccount } from "@enmusubi/api/testing";
import { createDatabase, type Database } from "@enmusubi/db";
import { openTestDatabase } from "@enmusubi/db/testing";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { buildApp } from "../src/app";
import { loadConfig } from "../src/config";
import { testPasswords } from "./helpers";

/**
 * Two apps on one database stand for two worker processes (or two instances): each is built with
 * its default limiter. On PostgreSQL the second app has its own connection pool, as another
 * process would; on PGlite both share the one embedded database. Either way a client's attempts
 * are counted once, in the database, so the two apps together allow exactly the limit.
 */
const onPostgres = inject("dbTemplate").kind === "postgres";

describe("per-client limits are shared by every process on the database", () => {
  let one: Database;
  let two: Database;
  let apps: FastifyInstance[] = [];
  beforeAll(async () => {
    one = await openTestDatabase(inject("dbTemplate"));
    two = onPostgres ? await createDatabase({ url: one.url as string, max: 5 }) : one;
    const config = {
      ...loadConfig({
        NODE_ENV: "test",
        DATA_DIR: mkdtempSync(path.join(tmpdir(), "enmusubi-limit-test-")),
        JWT_SECRET: "server-test-secret-server-test-secret-0123",
        LOG_LEVEL: "silent",
      }),
      jobs: false,
    };
    apps = [
      await buildApp(config, { database: one, logger: false, passwords: testPasswords }),
      await buildApp(config, { database: two, logger: false, passwords: testPasswords }),
    ];
    for (const app of apps) await app.ready();
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    if (two !== one) await two?.close();
    await one?.close();
  });

  const login = (app: FastifyInstance, userID: string, password: string, remoteAddress: string) =>
    app.inject({ method: "POST", url: "/api/auth/login", remoteAddress, payload: { userID, password } });

  it("wrong passwords sent to both apps at once: 10 are checked in total, the rest answer 429", async () => {
    const member = await createTestAccount(one.db, testPasswords);
    // More than the per-IP allowance (30): both counters count each attempt in one statement, so the
    // first 10 pass both and every other one answers 429.
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        login(apps[i % 2] as FastifyInstance, member.userID, "bad-pw", "192.0.2.50"),
      ),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 401)).toHaveLength(10);
    expect(codes.filter((c) => c === 429)).toHaveLength(30);
  });

  it("the per-IP login limit (30) holds across both apps", async () => {
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => login(apps[i % 2] as FastifyInstance, `nobody${i}`, "bad-pw", "192.0.2.51")),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 401)).toHaveLength(30);
    expect(codes.filter((c) => c === 429)).toHaveLength(30);
  });

  it("a success on one app clears the failures the other counted", async () => {
    const member = await createTestAccount(one.db, testPasswords);
    for (let i = 0; i < 9; i++) {
      expect((await login(apps[0] as FastifyInstance, member.userID, "bad-pw", "192.0.2.52")).statusCode).toBe(401);
    }
    expect((await login(apps[1] as FastifyInstance, member.userID, member.password, "192.0.2.52")).statusCode).toBe(
      200,
    );
    for (let i = 0; i < 10; i++) {
      expect((await login(apps[1] as FastifyInstance, member.userID, "bad-pw", "192.0.2.52")).statusCode).toBe(401);
    }
    expect((await login(apps[0] as FastifyInstance, member.userID, "bad-pw", "192.0.2.52")).statusCode).toBe(429);
  });
});
