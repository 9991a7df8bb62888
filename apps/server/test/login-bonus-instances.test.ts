import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createTestAccount, markPhoneVerified } from "@enmusubi/api/testing";
import { createDatabase, type Database, rowsOf } from "@enmusubi/db";
import { onPostgres, openTestDatabase } from "@enmusubi/db/testing";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { buildApp } from "../src/app";
import { loadConfig } from "../src/config";
import { testPasswords } from "./helpers";

/**
 * The daily login bonus is granted once per member and Japanese day whichever process serves the
 * day's first requests (decision 0048): two apps, each with its own connection pool on one
 * PostgreSQL database, stand for two processes; every member's first requests of the day arrive at
 * both at once. PostgreSQL only (PGlite has one connection: nothing would run concurrently).
 */
describe.runIf(onPostgres)("the login bonus across two processes on one database", () => {
  let one: Database;
  let two: Database;
  let apps: FastifyInstance[] = [];
  beforeAll(async () => {
    one = await openTestDatabase(inject("dbTemplate"));
    two = await createDatabase({ url: one.url as string, max: 5 });
    const config = {
      ...loadConfig({
        NODE_ENV: "test",
        DATA_DIR: mkdtempSync(path.join(tmpdir(), "enmusubi-bonus-test-")),
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
    await one.db.execute(sql`insert into bonus_settings (id, login_bonus_points) values (1, 3)
      on conflict (id) do update set login_bonus_points = 3`);
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await two?.close();
    await one?.close();
  });

  it("12 concurrent first requests per member, split between the apps: one bonus each, the books equal", async () => {
    const members = [];
    for (let i = 0; i < 8; i++) {
      const member = await createTestAccount(one.db, testPasswords, { points: 0 });
      await markPhoneVerified(one.db, member.id, `+8170${String(30_000_000 + i * 101 + (process.pid % 97))}`);
      const login = await (apps[0] as FastifyInstance).inject({
        method: "POST",
        url: "/api/auth/login",
        payload: { userID: member.userID, password: member.password },
      });
      members.push({ ...member, token: login.json<{ token: string }>().token });
    }
    // The login's own request counted nothing (it carries no session); start the day afresh for all.
    await one.db.execute(sql`update users set login_bonus_day = null`);
    const requests = members.flatMap((member) =>
      Array.from({ length: 12 }, (_, i) =>
        (apps[i % 2] as FastifyInstance).inject({
          method: "GET",
          url: i % 3 === 0 ? "/api/auth/me" : "/api/account/phone",
          headers: { authorization: `Bearer ${member.token}` },
        }),
      ),
    );
    const answers = await Promise.all(requests);
    expect(answers.map((a) => a.statusCode).filter((s) => s !== 200)).toEqual([]);
    const ids = members.map((m) => m.id);
    const books = await rowsOf<{
      id: string;
      points: number;
      ledger: number;
      lots: number;
      bonuses: number;
      rows: number;
    }>(
      one.db,
      sql`select u.id, u.points,
            (select coalesce(sum(delta), 0)::int from point_ledger l where l.user_id = u.id and l.account = 'points') as ledger,
            (select coalesce(sum(remaining), 0)::int from point_lots p where p.user_id = u.id) as lots,
            (select count(*)::int from point_ledger l where l.user_id = u.id and l.kind = 'login_bonus') as bonuses,
            (select count(*)::int from login_bonuses b where b.user_id = u.id) as rows
          from users u where u.id in (${sql.join(
            ids.map((id) => sql`${id}::uuid`),
            sql`, `,
          )})`,
    );
    expect(books).toHaveLength(members.length);
    for (const row of books) {
      expect(row).toEqual({ id: row.id, points: 3, ledger: 3, lots: 3, bonuses: 1, rows: 1 });
    }
  });
});
