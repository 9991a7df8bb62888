import { mailOutbox, users } from "@enmusubi/db";
import { MSG } from "@enmusubi/shared";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createMemoryRateLimiter } from "../src/security/rate-limit";
import { snapshotTables, useTestApi } from "./helpers";

const api = useTestApi();

describe("auth.login", () => {
  it("returns a token and the role; the token opens auth.me", async () => {
    const member = await api.createUser({ name: "花子" });
    const { token, role } = await api.caller().auth.login({ userID: member.userID, password: member.password });
    expect(role).toBe("user");
    const session = await (await import("../src/context")).resolveSession(api.deps, `Bearer ${token}`);
    expect(session).toEqual({ id: member.id, role: "user" });
    const me = await api.caller(member).auth.me();
    expect(me).toMatchObject({ userID: member.userID, name: "花子", points: 100, sendPoints: 20, role: "user" });
    expect(me).not.toHaveProperty("passwordHash");
    expect(me).not.toHaveProperty("tokenVersion");
  });

  it("refuses a wrong password and an unknown user with the same 401 message", async () => {
    const member = await api.createUser();
    await expect(api.caller().auth.login({ userID: member.userID, password: "wrong-pass" })).rejects.toMatchObject({
      code: "UNAUTHORIZED",
      message: MSG.loginFailed,
    });
    await expect(api.caller().auth.login({ userID: "nobody-here", password: "whatever" })).rejects.toMatchObject({
      code: "UNAUTHORIZED",
      message: MSG.loginFailed,
    });
  });

  it("requires both fields, in Japanese", async () => {
    await expect(api.caller().auth.login({ userID: " ", password: "" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: MSG.loginRequired,
    });
  });

  it("locks an account for the window after 10 failures, even with the right password", async () => {
    const member = await api.createUser();
    for (let i = 0; i < 10; i++) {
      await expect(api.caller().auth.login({ userID: member.userID, password: "bad-password" })).rejects.toMatchObject({
        code: "UNAUTHORIZED",
      });
    }
    await expect(api.caller().auth.login({ userID: member.userID, password: member.password })).rejects.toMatchObject({
      code: "TOO_MANY_REQUESTS",
    });
  });

  it("refuses a deleted user's login and their existing token", async () => {
    const member = await api.createUser();
    const { token } = await api.caller().auth.login({ userID: member.userID, password: member.password });
    await api.database.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, member.id));
    const { resolveSession } = await import("../src/context");
    expect(await resolveSession(api.deps, `Bearer ${token}`)).toBeNull();
    await expect(api.caller().auth.login({ userID: member.userID, password: member.password })).rejects.toMatchObject({
      code: "UNAUTHORIZED",
    });
  });
});

describe("auth.signup", () => {
  it("creates a member with generated credentials, ledger rows and a queued mail", async () => {
    const before = api.mailQueued.count;
    const result = await api.caller().auth.signup({ email: "New.Member@Example.jp", gender: "female" });
    expect(result.message).toContain("完了");
    const [user] = await api.database.db.select().from(users).where(eq(users.email, "new.member@example.jp"));
    expect(user).toMatchObject({ gender: "female", role: "user", points: 100, sendPoints: 20 });
    const [mail] = await api.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, "new.member@example.jp"));
    expect(mail?.text).toContain(user?.userId);
    const password = /パスワード: (\S+)/.exec(mail?.text ?? "")?.[1] ?? "";
    await expect(api.caller().auth.login({ userID: user?.userId ?? "", password })).resolves.toMatchObject({
      role: "user",
    });
    expect(api.mailQueued.count).toBe(before + 1);
  });

  it("refuses an address already registered, and changes nothing", async () => {
    await api.caller().auth.signup({ email: "taken@example.jp", gender: "male" });
    const before = await snapshotTables(api, "users", "mail_outbox", "point_ledger");
    await expect(api.caller().auth.signup({ email: "TAKEN@example.jp", gender: "male" })).rejects.toMatchObject({
      code: "CONFLICT",
      message: MSG.emailTaken,
    });
    expect(await snapshotTables(api, "users", "mail_outbox", "point_ledger")).toEqual(before);
  });

  it("refuses a malformed address in Japanese", async () => {
    await expect(api.caller().auth.signup({ email: "not-an-email", gender: "male" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: MSG.emailInvalid,
    });
  });
});

describe("auth.forgot", () => {
  it("mails a new password for a matching pair and ends old sessions", async () => {
    const member = await api.createUser();
    const { token } = await api.caller().auth.login({ userID: member.userID, password: member.password });
    const answer = await api.caller().auth.forgot({ userID: member.userID, email: `${member.userID}@EXAMPLE.jp` });
    expect(answer.message).toBe(MSG.forgotSent);
    const [mail] = await api.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.to, `${member.userID}@example.jp`));
    const password = /パスワード: (\S+)/.exec(mail?.text ?? "")?.[1] ?? "";
    await expect(api.caller().auth.login({ userID: member.userID, password })).resolves.toBeTruthy();
    const { resolveSession } = await import("../src/context");
    expect(await resolveSession(api.deps, `Bearer ${token}`)).toBeNull();
  });

  it("answers the same for an unknown pair and changes nothing", async () => {
    const member = await api.createUser();
    const before = await snapshotTables(api, "users", "mail_outbox");
    const answer = await api.caller().auth.forgot({ userID: member.userID, email: "someone-else@example.jp" });
    expect(answer.message).toBe(MSG.forgotSent);
    expect(await snapshotTables(api, "users", "mail_outbox")).toEqual(before);
  });

  it("is rate limited per account", async () => {
    const limited = useLimitedCaller();
    const member = await api.createUser();
    for (let i = 0; i < 3; i++) await limited({ userID: member.userID, email: "x@example.jp" });
    await expect(limited({ userID: member.userID, email: "x@example.jp" })).rejects.toMatchObject({
      code: "TOO_MANY_REQUESTS",
      message: MSG.tooManyRequests,
    });
  });
});

function useLimitedCaller() {
  const limiter = createMemoryRateLimiter();
  return async (input: { userID: string; email: string }) => {
    const { createCaller } = await import("../src/root");
    const { createContextInner } = await import("../src/context");
    return createCaller(
      createContextInner({ ...api.deps, limiter }, null, `192.168.0.${Math.floor(Math.random() * 250)}`),
    ).auth.forgot(input);
  };
}

describe("auth.updateProfile", () => {
  it("an empty update is a successful no-op", async () => {
    const user = await api.createUser({ name: "変えない" });
    const before = await snapshotTables(api, "users");
    const result = await api.caller(user).auth.updateProfile({});
    expect(result.user.name).toBe("変えない");
    expect(result.token).toBeUndefined();
    expect(await snapshotTables(api, "users")).toEqual(before);
  });

  it("changes the password only with the current one, and old tokens stop working", async () => {
    const member = await api.createUser();
    const { token } = await api.caller().auth.login({ userID: member.userID, password: member.password });
    await expect(
      api.caller(member).auth.updateProfile({ currentPassword: "wrong-one", newPassword: "brand-new-pass" }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", message: MSG.currentPasswordWrong });
    await expect(api.caller(member).auth.updateProfile({ newPassword: "brand-new-pass" })).rejects.toMatchObject({
      message: MSG.currentPasswordRequired,
    });
    await expect(
      api.caller(member).auth.updateProfile({ currentPassword: member.password, newPassword: "short" }),
    ).rejects.toMatchObject({ message: MSG.passwordTooShort });
    const result = await api
      .caller(member)
      .auth.updateProfile({ currentPassword: member.password, newPassword: "brand-new-pass", name: "新しい名前" });
    expect(result.token).toBeTypeOf("string");
    expect(result.user.name).toBe("新しい名前");
    const { resolveSession } = await import("../src/context");
    expect(await resolveSession(api.deps, `Bearer ${token}`)).toBeNull();
    expect(await resolveSession(api.deps, `Bearer ${result.token}`)).toEqual({ id: member.id, role: "user" });
  });

  it("refuses an under-18 birthday and an unknown occupation, changing nothing", async () => {
    const member = await api.createUser();
    const before = await snapshotTables(api, "users");
    const year = new Date().getUTCFullYear() - 17;
    await expect(api.caller(member).auth.updateProfile({ birthday: `${year}-01-01` })).rejects.toMatchObject({
      message: MSG.underAge,
    });
    await expect(
      api.caller(member).auth.updateProfile({ occupationId: "00000000-0000-4000-8000-000000000000" }),
    ).rejects.toMatchObject({ message: MSG.occupationUnknown });
    expect(await snapshotTables(api, "users")).toEqual(before);
  });
});

describe("roles", () => {
  it("uniqueGenerate is admin-only: FORBIDDEN for a member, UNAUTHORIZED for anonymous", async () => {
    const admin = await api.createUser({ role: "admin" });
    const member = await api.createUser();
    const creds = await api.caller(admin).auth.uniqueGenerate();
    expect(creds.userID).toMatch(/^[a-z][a-z0-9]{7}$/);
    expect(creds.password).toHaveLength(10);
    await expect(api.caller(member).auth.uniqueGenerate()).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(api.caller().auth.uniqueGenerate()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(api.caller().auth.me()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});
