import { createCaller, createContextInner } from "@enmusubi/api";
import { favorites, users } from "@enmusubi/db";
import { MSG } from "@enmusubi/shared";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { BODY_LIMIT_BYTES } from "../src/app";
import { toOwnLegacyUser } from "../src/rest/legacy-shapes";
import { snapshotTables, useTestServer } from "./helpers";

const server = useTestServer();

describe("legacy auth REST rows", () => {
  it("POST /api/auth/login returns {token, role}; wrong credentials give 401 with the spec's message", async () => {
    const member = await server.createUser();
    const ok = await server.request({
      method: "POST",
      url: "/api/auth/login",
      payload: { userID: member.userID, password: member.password },
    });
    expect(ok.statusCode).toBe(200);
    expect(Object.keys(ok.json()).sort()).toEqual(["role", "token"]);
    expect(ok.json().role).toBe("user");

    const bad = await server.request({
      method: "POST",
      url: "/api/auth/login",
      payload: { userID: member.userID, password: "wrong-password" },
    });
    expect(bad.statusCode).toBe(401);
    expect(bad.json().message).toBe(MSG.loginFailed);
  });

  it("GET /api/auth/me answers in the legacy shape with nothing secret", async () => {
    const member = await server.createUser({ name: "花子" });
    const res = await server.request({ method: "GET", url: "/api/auth/me", as: member });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      userID: member.userID,
      name: "花子",
      role: "user",
      points: 100,
      sendPoints: 20,
      occupation: null,
      annual_income: null,
      favoriteUserIds: [],
      selfIntroduction: "",
    });
    expect(typeof body._id).toBe("string");
    expect(typeof body.createdAt).toBe("string");
    expect(JSON.stringify(body)).not.toMatch(/password|hash|tokenVersion/i);
  });

  it("answers 401 without a token and with a forged one", async () => {
    expect((await server.request({ method: "GET", url: "/api/auth/me" })).statusCode).toBe(401);
    const forged = await server.request({
      method: "GET",
      url: "/api/auth/me",
      headers: { authorization: "Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0." },
    });
    expect(forged.statusCode).toBe(401);
    expect(forged.json().message).toBe(MSG.unauthorized);
  });

  it("GET /api/auth/me reads its session with its answer: a suspended, deleted or re-roled account is refused at once, and a stale activity is recorded", async () => {
    const { db } = server.database;
    const member = await server.createUser();
    const me = () => server.request({ method: "GET", url: "/api/auth/me", as: member });
    await db.update(users).set({ lastActiveAt: sql`now() - interval '1 day'` }).where(eq(users.id, member.id));
    expect((await me()).statusCode).toBe(200);
    const [touched] = await db
      .select({ fresh: sql<boolean>`${users.lastActiveAt} > now() - interval '1 minute'` })
      .from(users)
      .where(eq(users.id, member.id));
    expect(touched?.fresh).toBe(true);

    for (const [spoil, undo] of [
      [{ suspendedAt: new Date() }, { suspendedAt: null }],
      [{ deletedAt: new Date() }, { deletedAt: null }],
      [{ role: "admin" as const }, { role: "user" as const }],
      [{ tokenVersion: 99 }, { tokenVersion: 0 }],
    ] as const) {
      await db.update(users).set(spoil).where(eq(users.id, member.id));
      const refused = await me();
      expect(refused.statusCode, JSON.stringify(spoil)).toBe(401);
      expect(refused.json()).toEqual({ message: MSG.unauthorized });
      await db.update(users).set(undo).where(eq(users.id, member.id));
      expect((await me()).statusCode, JSON.stringify(undo)).toBe(200);
    }
  });

  it("GET /api/auth/me answers what profile.me answers, favourites and 自己紹介 included", async () => {
    const { db } = server.database;
    const member = await server.createUser();
    const liked = await server.createUser({ gender: "female" });
    await db.insert(favorites).values({ userId: member.id, favoriteUserId: liked.id });
    await db.update(users).set({ selfIntroduction: "はじめまして" }).where(eq(users.id, member.id));
    const rest = await server.request({ method: "GET", url: "/api/auth/me", as: member });
    expect(rest.statusCode).toBe(200);
    const procedure = await createCaller(createContextInner(server.app.deps, member.session)).profile.me();
    expect(rest.json()).toEqual(JSON.parse(JSON.stringify(toOwnLegacyUser(procedure))));
    expect(rest.json()).toMatchObject({
      favoriteUserIds: [liked.id],
      selfIntroduction: "はじめまして",
      profileReview: { photo: null, selfIntroduction: null },
    });
  });

  it("bad JSON and wrong types give 400 in Japanese, never 500, and change nothing", async () => {
    const before = await snapshotTables(server, "users", "mail_outbox");
    const broken = await server.request({
      method: "POST",
      url: "/api/auth/signup",
      headers: { "content-type": "application/json" },
      payload: "{not json",
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().message).toBe(MSG.invalidJson);
    const wrongType = await server.request({
      method: "POST",
      url: "/api/auth/signup",
      payload: { email: 42, gender: ["male"] },
    });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().message).toMatch(/[ぁ-んァ-ン一-龥]/);
    const badEmail = await server.request({
      method: "POST",
      url: "/api/auth/signup",
      payload: { email: "not-an-email", gender: "male" },
    });
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.json().message).toBe(MSG.emailInvalid);
    expect(await snapshotTables(server, "users", "mail_outbox")).toEqual(before);
  });

  it("POST /api/auth/signup creates the account and queues the mail; a registered address gets the same answer", async () => {
    const first = await server.request({
      method: "POST",
      url: "/api/auth/signup",
      payload: { email: "rest-signup@example.jp", gender: "female" },
    });
    expect(first.statusCode).toBe(201);
    expect(first.json().message).toContain("完了");
    const before = await snapshotTables(server, "users", "point_ledger");
    const again = await server.request({
      method: "POST",
      url: "/api/auth/signup",
      payload: { email: "REST-signup@example.jp", gender: "male" },
    });
    // Nothing tells a stranger that the address is registered; its owner is told by mail.
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(await snapshotTables(server, "users", "point_ledger")).toEqual(before);
  });

  it("POST /api/auth/forgot answers the same whether or not the pair exists", async () => {
    const member = await server.createUser();
    const real = await server.request({
      method: "POST",
      url: "/api/auth/forgot",
      payload: { userID: member.userID, email: `${member.userID}@example.jp` },
    });
    const fake = await server.request({
      method: "POST",
      url: "/api/auth/forgot",
      payload: { userID: "nobody", email: "nobody@example.jp" },
    });
    expect(real.statusCode).toBe(200);
    expect(fake.statusCode).toBe(200);
    expect(fake.json()).toEqual(real.json());
  });

  it("GET /api/auth/uniuqeGenerate is for administrators only", async () => {
    const admin = await server.createUser({ role: "admin" });
    const member = await server.createUser();
    const ok = await server.request({ method: "GET", url: "/api/auth/uniuqeGenerate", as: admin });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().userID).toMatch(/^[a-z0-9]{8}$/);
    expect(ok.json().password.length).toBeGreaterThanOrEqual(6);
    const denied = await server.request({ method: "GET", url: "/api/auth/uniuqeGenerate", as: member });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe(MSG.forbidden);
  });

  it("PUT /api/auth/profile needs the current password to change it", async () => {
    const member = await server.createUser();
    const refused = await server.request({
      method: "PUT",
      url: "/api/auth/profile",
      as: member,
      payload: { name: "太郎", newPassword: "newpassword" },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(MSG.currentPasswordRequired);
    const ok = await server.request({
      method: "PUT",
      url: "/api/auth/profile",
      as: member,
      payload: { name: "太郎", currentPassword: member.password, newPassword: "newpassword" },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user.name).toBe("太郎");
    // The old token stops working after the password change; the returned one works.
    expect((await server.request({ method: "GET", url: "/api/auth/me", as: member })).statusCode).toBe(401);
    const fresh = { ...member, token: ok.json().token as string };
    expect((await server.request({ method: "GET", url: "/api/auth/me", as: fresh })).statusCode).toBe(200);
  });

  it("PUT /api/auth/profile saves 自己紹介 with its line breaks; over 1,000 characters is 400 and changes nothing", async () => {
    const member = await server.createUser();
    const text = "はじめまして。\n映画が好きです。";
    const ok = await server.request({
      method: "PUT",
      url: "/api/auth/profile",
      as: member,
      payload: { selfIntroduction: text },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user.selfIntroduction).toBe(text);
    const before = await snapshotTables(server, "users", "member_search_grams");
    const long = await server.request({
      method: "PUT",
      url: "/api/auth/profile",
      as: member,
      payload: { name: "変えない", selfIntroduction: "あ".repeat(1001) },
    });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe(MSG.selfIntroductionTooLong);
    const wrongType = await server.request({
      method: "PUT",
      url: "/api/auth/profile",
      as: member,
      payload: { selfIntroduction: 42 },
    });
    expect(wrongType.statusCode).toBe(400);
    expect(await snapshotTables(server, "users", "member_search_grams")).toEqual(before);
    const me = await server.request({ method: "GET", url: "/api/auth/me", as: member });
    expect(me.json().selfIntroduction).toBe(text);
  });
});

describe("platform routes", () => {
  it("GET /healthz answers ok", async () => {
    const res = await server.request({ method: "GET", url: "/healthz" });
    expect(res.statusCode).toBe(200);
  });

  it("sends security headers and no wildcard CORS", async () => {
    const res = await server.request({ method: "GET", url: "/healthz", headers: { origin: "https://evil.example" } });
    expect(res.headers["content-security-policy"]).toContain("default-src 'self'");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("refuses a body above the limit with 413 and a Japanese message", async () => {
    const res = await server.request({
      method: "POST",
      url: "/api/auth/login",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ userID: "x", password: "a".repeat(BODY_LIMIT_BYTES + 1) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe(MSG.payloadTooLarge);
  });

  it("publishes the OpenAPI document with the auth paths", async () => {
    const res = await server.request({ method: "GET", url: "/api/openapi.json" });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\.1/);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(["/api/auth/login", "/api/auth/me", "/api/auth/uniuqeGenerate"]),
    );
  });

  it("serves the SPA for client routes and JSON 404 for unknown API paths", async () => {
    const page = await server.request({ method: "GET", url: "/user/dashboard", headers: { accept: "text/html" } });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toContain("text/html");
    const api = await server.request({ method: "GET", url: "/api/nope", headers: { accept: "text/html" } });
    expect(api.statusCode).toBe(404);
    expect(api.json().message).toBe(MSG.notFound);
  });
});
