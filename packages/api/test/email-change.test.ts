import { emailChanges, mailOutbox, rowsOf } from "@enmusubi/db";
import { MSG } from "@enmusubi/shared";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { confirmEmailChange, EMAIL_CHANGE_HOURS, maskedAddress } from "../src/accounts/email-change";
import { snapshotTables, type TestUser, useTestApi } from "./helpers";

const api = useTestApi();

async function mailsTo(to: string) {
  return rowsOf<{ subject: string; text: string; secret: string | null }>(
    api.database.db,
    sql`select subject, text, secret from ${mailOutbox} where "to" = ${to} order by created_at`,
  );
}
const emailOf = async (user: TestUser) =>
  (await rowsOf<{ email: string }>(api.database.db, sql`select email from users where id = ${user.id}`))[0]?.email;

async function request(user: TestUser, newEmail: string) {
  await api.caller(user).account.requestEmailChange({ newEmail, currentPassword: user.password });
  const [mail] = (await mailsTo(newEmail.toLowerCase())).slice(-1);
  if (!mail?.secret) throw new Error("no confirmation mail");
  return mail.secret;
}

describe("changing the e-mail address", () => {
  it("takes effect only on the link mailed to the new address, once; the old address is told", async () => {
    const member = await api.createUser();
    const old = await emailOf(member);
    const token = await request(member, "New.Address@Example.jp");
    expect(await emailOf(member)).toBe(old);
    const [confirmMail] = await mailsTo("new.address@example.jp");
    expect(confirmMail?.text).toContain("/email-change/confirm?token={{secret}}");
    expect(await api.caller(null).account.confirmEmailChange({ token })).toEqual({ message: MSG.emailChangeDone });
    expect(await emailOf(member)).toBe("new.address@example.jp");
    expect((await mailsTo(old ?? "")).map((m) => m.subject)).toContain("【縁結び】メールアドレスが変更されました");
    await expect(api.caller(null).account.confirmEmailChange({ token })).rejects.toThrow(MSG.emailChangeUsed);
  });

  it("refuses a wrong password, the same address and another member's address, changing nothing", async () => {
    const member = await api.createUser();
    const other = await api.createUser();
    const before = await snapshotTables(api, "users", "email_changes", "mail_outbox");
    const caller = api.caller(member);
    await expect(
      caller.account.requestEmailChange({ newEmail: "x1@example.jp", currentPassword: "wrong-password" }),
    ).rejects.toThrow(MSG.currentPasswordWrong);
    await expect(
      caller.account.requestEmailChange({ newEmail: (await emailOf(other)) ?? "", currentPassword: member.password }),
    ).rejects.toMatchObject({ code: "CONFLICT", message: MSG.emailInUse });
    await expect(
      caller.account.requestEmailChange({ newEmail: (await emailOf(member)) ?? "", currentPassword: member.password }),
    ).rejects.toThrow(MSG.emailChangeSame);
    await expect(
      caller.account.requestEmailChange({ newEmail: "not-an-address", currentPassword: member.password }),
    ).rejects.toThrow(MSG.emailInvalid);
    expect(await snapshotTables(api, "users", "email_changes", "mail_outbox")).toEqual(before);
  });

  it("refuses at confirmation an address taken meanwhile, an expired link and a bad one", async () => {
    const member = await api.createUser();
    const token = await request(member, "race@example.jp");
    const rival = await api.createUser();
    await api.database.db.execute(sql`update users set email = 'race@example.jp' where id = ${rival.id}`);
    const before = await snapshotTables(api, "users", "email_changes");
    await expect(api.caller(null).account.confirmEmailChange({ token })).rejects.toMatchObject({
      code: "CONFLICT",
      message: MSG.emailInUse,
    });
    await expect(api.caller(null).account.confirmEmailChange({ token: "bogus" })).rejects.toThrow(
      MSG.emailChangeInvalid,
    );
    const late = new Date(Date.now() + (EMAIL_CHANGE_HOURS + 1) * 3600_000);
    const second = await request(member, "later@example.jp");
    await expect(confirmEmailChange(api.deps, second, late)).rejects.toThrow(MSG.emailChangeInvalid);
    // The newer request replaced the first link.
    await expect(api.caller(null).account.confirmEmailChange({ token })).rejects.toThrow(MSG.emailChangeInvalid);
    expect(await snapshotTables(api, "users")).toEqual({ users: (before as { users: unknown }).users });
    const rows = await api.database.db.select().from(emailChanges).where(eq(emailChanges.userId, member.id));
    expect(rows.every((r) => r.usedAt === null)).toBe(true);
  });

  it("tells the current address at once, naming the new one masked", async () => {
    const member = await api.createUser();
    const old = (await emailOf(member)) ?? "";
    await request(member, "someone.else@example.jp");
    const [notice] = await mailsTo(old);
    expect(notice?.subject).toBe("【縁結び】メールアドレス変更のお申し込みがありました");
    expect(notice?.text).toContain("so***@example.jp");
    expect(notice?.text).not.toContain("someone.else@example.jp");
    expect(maskedAddress("a@example.jp")).toBe("a***@example.jp");
  });
});

describe("a pending e-mail change ends with a password change, a reissue or 退会 (decision 0038)", () => {
  it("a password change: the link then answers that it is no longer valid, changing nothing", async () => {
    const member = await api.createUser();
    const old = await emailOf(member);
    const token = await request(member, "intruder1@example.jp");
    await api.caller(member).profile.update({ currentPassword: member.password, newPassword: "another-pass-123" });
    await expect(api.caller(null).account.confirmEmailChange({ token })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: MSG.emailChangeCancelled,
    });
    expect(await emailOf(member)).toBe(old);
  });

  it("a password reissue, when asked and again when the new password is first used", async () => {
    const member = await api.createUser();
    const old = (await emailOf(member)) ?? "";
    const first = await request(member, "intruder2@example.jp");
    await api.caller(null).auth.forgot({ userID: member.userID, email: old });
    await expect(api.caller(null).account.confirmEmailChange({ token: first })).rejects.toThrow(
      MSG.emailChangeCancelled,
    );
    // Asked again before the reissued password is used: that first use ends it too.
    const second = await request(member, "intruder3@example.jp");
    const reissued = (await mailsTo(old)).find((m) => m.subject.includes("パスワード再発行"))?.secret ?? "";
    await api.caller(null).auth.login({ userID: member.userID, password: reissued });
    await expect(api.caller(null).account.confirmEmailChange({ token: second })).rejects.toThrow(
      MSG.emailChangeCancelled,
    );
    expect(await emailOf(member)).toBe(old);
  });

  it("退会 ends it", async () => {
    const member = await api.createUser();
    const token = await request(member, "intruder4@example.jp");
    await api.caller(member).account.withdraw({ password: member.password });
    await expect(api.caller(null).account.confirmEmailChange({ token })).rejects.toThrow(MSG.emailChangeCancelled);
  });
});
