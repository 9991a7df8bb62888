import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createPasswordHasher, type Session, unlimited } from "@enmusubi/api";
import { approveProfile, createTestAccount, type TestAccountFields } from "@enmusubi/api/testing";
import type { Database } from "@enmusubi/db";
import { openTestDatabase, type TestTemplate } from "@enmusubi/db/testing";
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, inject } from "vitest";
import { buildApp } from "../src/app";
import { type Config, loadConfig } from "../src/config";
import { type ContractChecker, checkedInject, createContractChecker, publishedDocument } from "./contract";

declare module "vitest" {
  export interface ProvidedContext {
    dbTemplate: TestTemplate;
  }
}

export const testPasswords = createPasswordHasher({ memoryCost: 1024, timeCost: 1 });

export interface RestUser {
  id: string;
  userID: string;
  password: string;
  role: "user" | "admin";
  token: string;
  /** The session a request with `token` gets, as the account was made (`createTestAccount`). */
  session: Session;
}

export interface TestServer {
  app: FastifyInstance;
  database: Database;
  config: Config;
  /**
   * `app.inject` with the user's bearer token (or none). JSON bodies are sent as JSON. Every answer
   * of a documented REST route is held to the published OpenAPI document (status, content type,
   * body, documented headers): one that drifts throws, failing the test that received it.
   */
  request(options: InjectOptions & { as?: RestUser | null }): Promise<LightMyRequestResponse>;
  /** The published /api/openapi.json as a validator (see contract.ts). */
  contract: ContractChecker;
  /** Inserts an account and logs it in through POST /api/auth/login. */
  createUser(fields?: TestAccountFields): Promise<RestUser>;
  /**
   * Approves the member's photo and 自己紹介 changes waiting for the profile review (decision 0044),
   * for tests of what others then see; the photo it replaces is removed as an approval does.
   */
  approveProfile(user: { id: string }): Promise<void>;
}

/**
 * A web build of one page, so the server tests serve the SPA without `pnpm build` (the browser
 * tests, project e2e, serve the real one).
 */
export function writeTestWebDist(dataDir: string): string {
  const webDist = path.join(dataDir, "web");
  mkdirSync(path.join(webDist, "assets"), { recursive: true });
  writeFileSync(path.join(webDist, "index.html"), '<!doctype html><html lang="ja"><title>縁結び</title></html>');
  return webDist;
}

/**
 * The checker of a published document, compiled once per worker for each distinct document (the
 * api and server projects run unisolated, so a worker keeps it between files). A checker holds no
 * state but its document's validators, and a file whose app publishes another document (other
 * `env`) gets its own.
 */
const contracts = new Map<string, Promise<ContractChecker>>();
function contractFor(document: Record<string, unknown>): Promise<ContractChecker> {
  const key = JSON.stringify(document);
  let checker = contracts.get(key);
  if (!checker) {
    checker = createContractChecker(document);
    checker.catch(() => contracts.delete(key));
    contracts.set(key, checker);
  }
  return checker;
}

/**
 * The whole server (REST, tRPC, static web) on a fresh test database for this file, jobs off,
 * rate limits off unless `limits` is set. Call at the top level of a test file.
 */
export function useTestServer(options: { limits?: boolean; env?: Record<string, string> } = {}): TestServer {
  const server = {} as TestServer;
  beforeAll(async () => {
    server.database = await openTestDatabase(inject("dbTemplate"));
    const dataDir = mkdtempSync(path.join(tmpdir(), "enmusubi-server-test-"));
    server.config = {
      ...loadConfig({
        NODE_ENV: "test",
        DATA_DIR: dataDir,
        JWT_SECRET: "server-test-secret-server-test-secret-0123",
        LOG_LEVEL: "silent",
        ...options.env,
      }),
      webDist: writeTestWebDist(dataDir),
      jobs: false,
    };
    server.app = await buildApp(server.config, {
      database: server.database,
      logger: false,
      passwords: testPasswords,
      ...(options.limits ? {} : { limiter: unlimited }),
    });
    await server.app.ready();
    server.contract = await contractFor(await publishedDocument(server.app));
  });
  afterAll(async () => {
    await server.app?.close();
    await server.database?.close();
  });
  server.request = ({ as, headers, ...rest }) =>
    checkedInject(server.app, server.contract, {
      ...rest,
      headers: { ...headers, ...(as ? { authorization: `Bearer ${as.token}` } : {}) },
    });
  server.createUser = async (fields) => {
    const { id, userID, password, role, session } = await createTestAccount(server.database.db, testPasswords, fields);
    const login = await server.app.inject({ method: "POST", url: "/api/auth/login", payload: { userID, password } });
    if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
    return { id, userID, password, role, session, token: login.json<{ token: string }>().token };
  };
  server.approveProfile = (user) =>
    approveProfile(server.database.db, user.id, { uploadsDir: server.app.deps.uploadsDir });
  return server;
}

/** Every row of the given tables, for proving a refused request changed nothing. */
export async function snapshotTables(server: TestServer, ...tables: string[]): Promise<unknown> {
  const out: Record<string, unknown> = {};
  for (const table of tables) {
    const result = await server.database.db.execute(`select * from ${table} order by 1`);
    out[table] = Array.isArray(result) ? [...result] : (result as { rows: unknown[] }).rows;
  }
  return out;
}
