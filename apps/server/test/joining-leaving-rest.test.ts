import { MSG, TERMS_VERSION } from "@enmusubi/shared";
import { describe, expect, it } from "vitest";
import { snapshotTables, useTestServer } from "./helpers";

/**
 * Joining and leaving through HTTP (decision 0034): sign-up with consent, the consent asked after the legacy
 * sign-up, the balance by expiry, 退会 and the administrators' restore. Every answer is held to
 * the OpenAPI document by the test server.
 */
const server = useTestServer();
const consent = { acceptTerms: true, adult: true, termsVersion: TERMS_VERSION };

describe("joining through REST", () => {
  it("POST /api/auth/join registers with consent; without it, 400 in Japanese and nothing registered", async () => {
    const before = await snapshotTables(server, "users", "mail_outbox");
    const refused = await server.request({
      method: "POST",
      url: "/api/auth/join",
      payload: { email: "rest-join@example.jp", acceptTerms: true, termsVersion: TERMS_VERSION },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ message: MSG.adultDeclarationRequired });
    expect(await snapshotTables(server, "users", "mail_outbox")).toEqual(before);
    const joined = await server.request({
      method: "POST",
      url: "/api/auth/join",
      payload: { email: "rest-join@example.jp", gender: "female", ...consent },
    });
    expect(joined.statusCode, joined.body).toBe(201);
  });

  it("the legacy sign-up still works; such a member is asked, and POST /api/auth/consent records it", async () => {
    const legacy = await server.request({
      method: "POST",
      url: "/api/auth/signup",
      payload: { email: "rest-legacy@example.jp", gender: "male" },
    });
    expect(legacy.statusCode, legacy.body).toBe(201);
    const member = await server.createUser({ termsVersion: undefined });
    const asked = await server.request({ method: "GET", url: "/api/auth/consent", as: member });
    expect(asked.json()).toMatchObject({ required: true, termsVersion: null, currentVersion: TERMS_VERSION });
    const bad = await server.request({
      method: "POST",
      url: "/api/auth/consent",
      as: member,
      payload: { ...consent, acceptTerms: false },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ message: MSG.termsConsentRequired });
    const ok = await server.request({ method: "POST", url: "/api/auth/consent", as: member, payload: consent });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ required: false, termsVersion: TERMS_VERSION });
  });

  it("GET /api/users/points/balance: purchased and free points, the next expiry", async () => {
    const member = await server.createUser({ points: 100 });
    const res = await server.request({ method: "GET", url: "/api/users/points/balance", as: member });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ total: 100, purchased: 0, free: 100, nextExpiry: { free: 100 } });
  });
});

describe("leaving through REST", () => {
  it("POST /api/auth/withdraw: a wrong password is 400; then the login is 403; an administrator lists and restores", async () => {
    const admin = await server.createUser({ role: "admin" });
    const member = await server.createUser({ points: 100 });
    const wrong = await server.request({
      method: "POST",
      url: "/api/auth/withdraw",
      as: member,
      payload: { password: "not-the-one" },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ message: MSG.withdrawPasswordWrong });
    const done = await server.request({
      method: "POST",
      url: "/api/auth/withdraw",
      as: member,
      payload: { password: member.password },
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ success: true, forfeited: { free: 100, purchased: 0, sendPoints: 20 } });
    const login = await server.request({
      method: "POST",
      url: "/api/auth/login",
      payload: { userID: member.userID, password: member.password },
    });
    expect(login.statusCode).toBe(403);
    expect(login.json()).toMatchObject({ message: MSG.accountWithdrawn });
    const stale = await server.request({ method: "GET", url: "/api/auth/me", as: member });
    expect(stale.statusCode).toBe(401);

    const list = await server.request({ method: "GET", url: "/api/admin/users/withdrawn?page=1", as: admin });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json<{ users: Array<{ _id: string; restorable: boolean }> }>().users).toContainEqual(
      expect.objectContaining({ _id: member.id, restorable: true }),
    );
    const restored = await server.request({ method: "POST", url: `/api/admin/users/${member.id}/restore`, as: admin });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json()).toEqual({ success: true, message: MSG.userRestored });
    const again = await server.request({ method: "POST", url: `/api/admin/users/${member.id}/restore`, as: admin });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ message: MSG.notWithdrawn });
    const back = await server.request({
      method: "POST",
      url: "/api/auth/login",
      payload: { userID: member.userID, password: member.password },
    });
    expect(back.statusCode).toBe(200);
  });

  it("a member cannot reach the administrators' rows", async () => {
    const member = await server.createUser();
    const res = await server.request({ method: "GET", url: "/api/admin/users/withdrawn", as: member });
    expect(res.statusCode).toBe(403);
  });
});
