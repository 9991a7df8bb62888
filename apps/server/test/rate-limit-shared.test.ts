import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createTestAccount } from "@enmusubi/api/testing";
import { createDatabase, type Database } from "@enmusubi/db";
import { onPostgres, openTestDatabase } from "@enmusubi/db/testing";
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

  describe("the current password behind a session counts with the login's failures (decision 0038)", () => {
    const as = (token: string, remoteAddress: string) => ({
      remoteAddress,
      headers: { authorization: `Bearer ${token}` },
    });
    async function signedIn(remoteAddress: string) {
      const member = await createTestAccount(one.db, testPasswords);
      const answer = await login(apps[0] as FastifyInstance, member.userID, member.password, remoteAddress);
      return { member, token: (answer.json() as { token: string }).token };
    }
    const emailChange = (app: FastifyInstance, token: string, ip: string, currentPassword: string, n = 0) =>
      app.inject({
        method: "POST",
        url: "/api/account/email",
        ...as(token, ip),
        payload: { newEmail: `guess${n}-${ip}@example.jp`, currentPassword },
      });
    const withdraw = (app: FastifyInstance, token: string, ip: string, password: string) =>
      app.inject({ method: "POST", url: "/api/auth/withdraw", ...as(token, ip), payload: { password } });
    const passwordChange = (app: FastifyInstance, token: string, ip: string, currentPassword: string) =>
      app.inject({
        method: "PUT",
        url: "/api/auth/profile",
        ...as(token, ip),
        payload: { currentPassword, newPassword: "new-password-123" },
      });

    it("75 wrong passwords at once on both apps: 10 are checked, the rest answer 429 in Japanese", async () => {
      const { member, token } = await signedIn("192.0.2.60");
      const answers = await Promise.all(
        Array.from({ length: 75 }, (_, i) => {
          const app = apps[i % 2] as FastifyInstance;
          if (i % 3 === 0) return emailChange(app, token, "192.0.2.60", "bad-pw", i);
          if (i % 3 === 1) return withdraw(app, token, "192.0.2.60", "bad-pw");
          return passwordChange(app, token, "192.0.2.60", "bad-pw");
        }),
      );
      const codes = answers.map((a) => a.statusCode);
      expect(codes.filter((c) => c === 400)).toHaveLength(10);
      expect(codes.filter((c) => c === 429)).toHaveLength(65);
      expect(answers.find((a) => a.statusCode === 429)?.json()).toMatchObject({
        message: "試行回数が多すぎます。しばらくしてから再度お試しください。",
      });
      // Past the allowance even the right password is refused, and nothing changed.
      expect((await withdraw(apps[1] as FastifyInstance, token, "192.0.2.60", member.password)).statusCode).toBe(429);
      expect((await login(apps[0] as FastifyInstance, member.userID, member.password, "192.0.2.60")).statusCode).toBe(
        429,
      );
      const me = await apps[0]?.inject({ method: "GET", url: "/api/auth/me", ...as(token, "192.0.2.60") });
      expect(me?.statusCode).toBe(200);
      const pending = await one.db.execute(
        `select count(*)::int as n from email_changes where user_id = '${member.id}'`,
      );
      expect(JSON.stringify(pending)).toContain('"n":0');
    });

    it("failed logins and session checks share one allowance; a session cannot get more by changing its address", async () => {
      const { member, token } = await signedIn("192.0.2.61");
      for (let i = 0; i < 5; i++)
        expect((await login(apps[i % 2] as FastifyInstance, member.userID, "bad-pw", "192.0.2.61")).statusCode).toBe(
          401,
        );
      for (let i = 0; i < 5; i++)
        expect((await passwordChange(apps[i % 2] as FastifyInstance, token, "192.0.2.61", "bad-pw")).statusCode).toBe(
          400,
        );
      expect((await emailChange(apps[0] as FastifyInstance, token, "192.0.2.61", "bad-pw")).statusCode).toBe(429);
      expect((await login(apps[1] as FastifyInstance, member.userID, "bad-pw", "192.0.2.61")).statusCode).toBe(429);
      // Another address has its own login allowance, but the session's account has counted 6 (the
      // refused attempt counts too): 4 more, then 429.
      for (let i = 0; i < 4; i++)
        expect((await withdraw(apps[i % 2] as FastifyInstance, token, `198.51.100.${i}`, "bad-pw")).statusCode).toBe(
          400,
        );
      expect((await withdraw(apps[0] as FastifyInstance, token, "198.51.100.9", "bad-pw")).statusCode).toBe(429);
    });

    it("the right password clears the count, as a successful login does", async () => {
      const { member, token } = await signedIn("192.0.2.62");
      for (let i = 0; i < 9; i++)
        expect((await withdraw(apps[i % 2] as FastifyInstance, token, "192.0.2.62", "bad-pw")).statusCode).toBe(400);
      expect((await passwordChange(apps[1] as FastifyInstance, token, "192.0.2.62", member.password)).statusCode).toBe(
        200,
      );
      expect((await login(apps[0] as FastifyInstance, member.userID, "bad-pw", "192.0.2.62")).statusCode).toBe(401);
    });
  });
});
