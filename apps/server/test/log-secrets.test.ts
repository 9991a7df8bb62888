import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Database } from "@enmusubi/db";
import { openTestDatabase } from "@enmusubi/db/testing";
import { MSG } from "@enmusubi/shared";
import { TRPCError } from "@trpc/server";
import { DrizzleQueryError } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { buildApp } from "../src/app";
import { loadConfig } from "../src/config";
import { serializeError } from "../src/logging";
import { testPasswords } from "./helpers";

/**
 * A failing statement is logged with its cause, but never with its parameters: drivers attach them
 * to the error (and drizzle writes them into the message), and they hold password hashes and
 * e-mail addresses. The request log leaves out query strings (tRPC inputs, searches).
 */

let app: FastifyInstance;
let database: Database;
const lines: string[] = [];
const logText = () => lines.join("");

beforeAll(async () => {
  database = await openTestDatabase(inject("dbTemplate"));
  // Any account whose e-mail holds "leak-probe" fails in the database, after its password is hashed.
  await database.db.execute(
    "alter table users add constraint users_leak_probe check (position('leak-probe' in email) = 0)",
  );
  const config = {
    ...loadConfig({
      NODE_ENV: "development", // request logging on, as in production
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "enmusubi-log-test-")),
      JWT_SECRET: "log-test-secret-log-test-secret-log-test-0123",
      LOG_LEVEL: "info",
    }),
    jobs: false,
  };
  app = await buildApp(config, {
    database,
    passwords: testPasswords,
    logger: { stream: { write: (line: string) => void lines.push(line) } },
  });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

beforeEach(() => {
  lines.length = 0;
});

function errorEntries(): Array<Record<string, unknown>> {
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => Number(entry.level) >= 50);
}

describe("database errors in the log", () => {
  it("a failing REST sign-up is logged with its cause, without the e-mail or the password hash", async () => {
    const email = `leak-probe-rest-${Date.now()}@example.jp`;
    const answer = await app.inject({ method: "POST", url: "/api/auth/signup", payload: { email, gender: "female" } });
    expect({ status: answer.statusCode, body: answer.json() }).toEqual({
      status: 500,
      body: { message: MSG.internalError },
    });

    const [entry, ...more] = errorEntries();
    expect(more).toEqual([]);
    expect(entry?.msg).toBe("legacy route failed");
    // The failure is there: what failed, where, and the database's own error below it.
    const err = entry?.err as { message: string; stack: string; cause: { message: string; constraint?: string } };
    expect(err.message).toMatch(/^Failed query: insert into "users" .*\nparams: \[redacted\]$/s);
    expect(err.stack).toMatch(/\nparams: \[redacted\]\n\s+at /);
    expect(err.cause.message).toContain('violates check constraint "users_leak_probe"');
    // The data is not.
    expect(logText()).not.toContain(email.split("@")[0]);
    expect(logText()).not.toMatch(/\$argon2/);
  });

  it("a failing tRPC sign-up is logged the same way", async () => {
    const email = `leak-probe-trpc-${Date.now()}@example.jp`;
    const answer = await app.inject({
      method: "POST",
      url: "/trpc/auth.signup",
      payload: { json: { email, gender: "male" } },
    });
    expect(answer.statusCode).toBe(500);

    const entries = errorEntries();
    expect(entries.map((entry) => entry.msg)).toContain("procedure failed");
    expect(JSON.stringify(entries)).toContain("users_leak_probe");
    expect(logText()).not.toContain(email.split("@")[0]);
    expect(logText()).not.toMatch(/\$argon2/);
  });

  it("the log line of a refused request carries the path, not the query string", async () => {
    const search = encodeURIComponent(JSON.stringify({ json: { search: "leak-probe-search@example.jp" } }));
    await app.inject({ method: "GET", url: `/trpc/adminUsers.list?input=${search}` });
    // Successful requests are logged at debug only (logging.ts RequestLogController); a 401 at info.
    const completed = lines.map((line) => JSON.parse(line)).find((entry) => entry.msg === "request completed");
    expect(completed?.res?.statusCode).toBe(401);
    expect(completed?.req?.url).toBe("/trpc/adminUsers.list?[query omitted]");
    expect(logText()).not.toContain("leak-probe-search");
  });
});

describe("serializeError", () => {
  it("keeps type, message, stack, codes and the cause chain, and drops parameters and values", () => {
    const driverError = Object.assign(new Error('new row for relation "users" violates check constraint "c"'), {
      code: "23514",
      severity: "ERROR",
      table_name: "users",
      constraint_name: "c",
      detail: "Failing row contains (hanako@example.jp, $argon2id$v=19$m=1024,t=1,p=1$c2FsdA$aGFzaA).",
      parameters: ["hanako@example.jp", "$argon2id$v=19$m=1024,t=1,p=1$c2FsdA$aGFzaA"],
      params: ["hanako@example.jp"],
      values: ["hanako@example.jp"],
      query: "insert into users values ($1, $2)",
      args: ["hanako@example.jp"],
    });
    const drizzleError = new DrizzleQueryError(
      'insert into "users" ("email", "password_hash") values ($1, $2)',
      ["hanako@example.jp", "$argon2id$v=19$m=1024,t=1,p=1$c2FsdA$aGFzaA"],
      driverError,
    );
    const trpcError = new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause: drizzleError });

    const logged = serializeError(trpcError) as Record<string, unknown>;
    const text = JSON.stringify(logged);
    expect(text).not.toContain("hanako");
    expect(text).not.toContain("argon2");
    expect(logged).toMatchObject({
      type: "TRPCError",
      code: "INTERNAL_SERVER_ERROR",
      message: 'Failed query: insert into "users" ("email", "password_hash") values ($1, $2)\nparams: [redacted]',
      cause: {
        type: "DrizzleQueryError",
        message: expect.stringContaining("params: [redacted]"),
        stack: expect.stringMatching(/^Error: Failed query: [^\n]*\nparams: \[redacted\]\n\s+at /),
        cause: {
          type: "Error",
          message: 'new row for relation "users" violates check constraint "c"',
          code: "23514",
          severity: "ERROR",
          table_name: "users",
          constraint_name: "c",
        },
      },
    });
    const driverLogged = (logged.cause as { cause: Record<string, unknown> }).cause;
    for (const field of ["detail", "parameters", "params", "values", "query", "args"]) {
      expect(driverLogged).not.toHaveProperty(field);
    }
  });
});
