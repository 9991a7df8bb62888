import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { type Database, users } from "@enmusubi/db";
import { openTestDatabase } from "@enmusubi/db/testing";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { buildApp } from "../src/app";
import { loadConfig } from "../src/config";
import { testPasswords } from "./helpers";

/**
 * Answers that depend on who asks must not be kept by a browser or a shared cache: every answer
 * to a request with a token, and every /api and /trpc answer, carries Cache-Control: no-store.
 * Uploaded photos and the hashed /assets files keep their year-long public cache.
 */

const NO_STORE = "no-store";
const INDEX_HTML = "<!doctype html><title>t</title>";
const ASSET_JS = "console.log(1)";
const LONG = "public, max-age=31536000, immutable";

let app: FastifyInstance;
let database: Database;
let token: string;
let adminToken: string;

beforeAll(async () => {
  database = await openTestDatabase(inject("dbTemplate"));
  const dataDir = mkdtempSync(path.join(tmpdir(), "enmusubi-cache-test-"));
  // A built web app of our own, so /assets is there whether or not apps/web was built.
  const webDist = path.join(dataDir, "web");
  mkdirSync(path.join(webDist, "assets"), { recursive: true });
  writeFileSync(path.join(webDist, "index.html"), INDEX_HTML);
  writeFileSync(path.join(webDist, "assets", "index-Abc123.js"), ASSET_JS);
  // What the build's precompress step writes beside each text file (apps/web/vite.config.ts).
  for (const [file, text] of [
    ["index.html", INDEX_HTML],
    ["assets/index-Abc123.js", ASSET_JS],
  ] as const) {
    writeFileSync(path.join(webDist, `${file}.br`), brotliCompressSync(text));
    writeFileSync(path.join(webDist, `${file}.gz`), gzipSync(text));
  }
  // A photo's public thumbnail (the full-size file is served signed only, decision 0028).
  mkdirSync(path.join(dataDir, "uploads", "thumbs"), { recursive: true });
  writeFileSync(path.join(dataDir, "uploads", "thumbs", `${"0123456789abcdef".repeat(2)}.jpg`), "not really a jpeg");
  const config = {
    ...loadConfig({
      NODE_ENV: "test",
      DATA_DIR: dataDir,
      JWT_SECRET: "cache-test-secret-cache-test-secret-01234567",
    }),
    webDist,
    jobs: false,
  };
  app = await buildApp(config, { database, logger: false, passwords: testPasswords });
  await app.ready();
  for (const [userId, role] of [
    ["cachemember", "user"],
    ["cacheadmin", "admin"],
  ] as const) {
    await database.db.insert(users).values({
      userId,
      role,
      email: `${userId}@example.jp`,
      name: userId,
      gender: "male",
      passwordHash: await testPasswords.hash("password123"),
    });
  }
  const login = async (userID: string) =>
    (await app.inject({ method: "POST", url: "/api/auth/login", payload: { userID, password: "password123" } })).json<{
      token: string;
    }>().token;
  token = await login("cachemember");
  adminToken = await login("cacheadmin");
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

const bearer = (t: string) => ({ authorization: `Bearer ${t}` });

describe("Cache-Control", () => {
  it("signed-in REST and tRPC answers are no-store", async () => {
    const answers = [
      await app.inject({ method: "GET", url: "/api/admin/users", headers: bearer(adminToken) }),
      await app.inject({ method: "GET", url: "/trpc/profile.me", headers: bearer(token) }),
      await app.inject({ method: "GET", url: "/trpc/adminUsers.list", headers: bearer(token) }),
      await app.inject({ method: "POST", url: "/api/auth/login", payload: { userID: "cachemember", password: "x" } }),
    ];
    for (const answer of answers) expect(answer.headers["cache-control"]).toBe(NO_STORE);
    expect(answers[0]?.statusCode).toBe(200);
    expect(answers[1]?.statusCode).toBe(200);
  });

  it("every /api and /trpc answer is no-store, with a token or without, errors included", async () => {
    for (const url of [
      "/api/occupations",
      "/api/admin/users",
      "/api/no-such-route",
      "/api/openapi.json",
      "/trpc/reference.occupations.list",
      "/trpc/no.such.procedure",
      "/api/admin/users/%E0%A4%A",
    ]) {
      const answer = await app.inject({ method: "GET", url });
      expect([url, answer.headers["cache-control"]]).toEqual([url, NO_STORE]);
    }
  });

  it("any answer to a request with a token is no-store, except the public static files", async () => {
    const healthz = await app.inject({ method: "GET", url: "/healthz", headers: bearer(token) });
    expect(healthz.headers["cache-control"]).toBe(NO_STORE);
    const page = await app.inject({
      method: "GET",
      url: "/member/profile",
      headers: { ...bearer(token), accept: "text/html" },
    });
    expect(page.headers["cache-control"]).toBe(NO_STORE);

    // Uploaded photos and hashed assets keep their long public cache, token or not.
    for (const headers of [{}, bearer(token)]) {
      const photo = await app.inject({
        method: "GET",
        url: `/uploads/thumbs/${"0123456789abcdef".repeat(2)}.jpg`,
        headers,
      });
      expect(photo.statusCode).toBe(200);
      expect(photo.headers["cache-control"]).toBe(LONG);
      const asset = await app.inject({ method: "GET", url: "/assets/index-Abc123.js", headers });
      expect(asset.statusCode).toBe(200);
      expect(asset.headers["cache-control"]).toBe(LONG);
    }
  });

  it("sends the build's precompressed brotli or gzip file to browsers that accept it, the raw file to others", async () => {
    for (const url of ["/assets/index-Abc123.js", "/user/dashboard"]) {
      const expected = url.startsWith("/assets") ? ASSET_JS : INDEX_HTML;
      const headers = { accept: "text/html", "accept-encoding": "gzip, deflate, br" };
      const br = await app.inject({ method: "GET", url, headers });
      expect(br.statusCode).toBe(200);
      expect(br.headers["content-encoding"]).toBe("br");
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(expected);
      const gz = await app.inject({ method: "GET", url, headers: { ...headers, "accept-encoding": "gzip" } });
      expect(gz.headers["content-encoding"]).toBe("gzip");
      expect(gunzipSync(gz.rawPayload).toString()).toBe(expected);
      const raw = await app.inject({
        method: "GET",
        url,
        headers: { accept: "text/html", "accept-encoding": "identity" },
      });
      expect(raw.headers["content-encoding"]).toBeUndefined();
      expect(raw.payload).toBe(expected);
    }
  });
});
