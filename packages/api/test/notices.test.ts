import { mailOutbox, messageNotices, rowsOf, users } from "@enmusubi/db";
import { MSG } from "@enmusubi/shared";
import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { NOTICE_LIVE_MINUTES, NOTICE_WINDOW_MINUTES, sendDueNotices } from "../src/notices/job";
import { type TestUser, useTestApi } from "./helpers";

const api = useTestApi();
const minutes = (n: number) => n * 60_000;

/**
 * The fixed clock: an hour after the database's now, so the members created here (active "now")
 * are not on the site by then; each test moves it forward by hand.
 */
let clock: Date;
const at = (offsetMinutes: number) => new Date(clock.getTime() + minutes(offsetMinutes));
const run = (offsetMinutes: number) => sendDueNotices(api.deps, { now: at(offsetMinutes) });

async function noticesTo(user: TestUser) {
  const email = `${user.userID}@example.jp`;
  return rowsOf<{ subject: string; text: string; secret: string | null }>(
    api.database.db,
    sql`select subject, text, secret from ${mailOutbox} where "to" = ${email} and subject like '%新着メッセージ%' order by created_at`,
  );
}

async function send(from: TestUser, to: TestUser, body = "こんにちは、秘密の本文です") {
  await api.caller(from).messages.send({ recipientIds: [to.id], body });
}

let a: TestUser;
let b: TestUser;
let c: TestUser;
beforeEach(async () => {
  clock = new Date(Date.now() + minutes(60));
  a = await api.createUser({ name: "あかり", points: 5000 });
  b = await api.createUser({ name: "ひかる", points: 5000 });
  c = await api.createUser({ name: "みなと", points: 5000 });
});

describe("new-message notices: the window", () => {
  it("sends one notice naming the sender and linking the conversation, never the body", async () => {
    await send(b, a);
    expect(await run(0)).toEqual({ claimed: 1, mailed: 1 });
    const [notice] = await noticesTo(a);
    expect(notice?.subject).toBe("【縁結び】新着メッセージが1件あります");
    expect(notice?.text).toContain("ひかるさん");
    expect(notice?.text).toContain(`http://localhost:3000/user/messages/${b.id}`);
    expect(notice?.text).not.toContain("秘密の本文");
    // The stop token is the mail's secret (erased once sent), not stored in the text.
    expect(notice?.text).toContain("/notice-mail/stop?token={{secret}}");
    expect(notice?.secret).toMatch(/^ey/);
  });

  it("sends at most one notice in 15 minutes, then one summing what arrived meanwhile", async () => {
    await send(b, a);
    await run(0);
    await send(b, a);
    await send(c, a);
    await send(c, a);
    expect(await run(1)).toEqual({ claimed: 0, mailed: 0 });
    expect(await run(NOTICE_WINDOW_MINUTES - 0.5)).toEqual({ claimed: 0, mailed: 0 });
    expect(await noticesTo(a)).toHaveLength(1);
    expect(await run(NOTICE_WINDOW_MINUTES)).toEqual({ claimed: 1, mailed: 1 });
    const second = (await noticesTo(a))[1];
    expect(second?.subject).toBe("【縁結び】新着メッセージが3件あります");
    expect(second?.text).toContain("みなとさん、ひかるさん");
    expect(second?.text).toContain("http://localhost:3000/user/unread-emails");
    // Nothing new: nothing more, however late.
    expect(await run(NOTICE_WINDOW_MINUTES * 4)).toEqual({ claimed: 0, mailed: 0 });
  });

  it("counts only what is still unread: everything read meanwhile sends nothing", async () => {
    await send(b, a);
    await run(0);
    await send(b, a);
    await api.database.db.execute(sql`update messages set is_read = true where to_user_id = ${a.id}`);
    expect(await run(NOTICE_WINDOW_MINUTES)).toEqual({ claimed: 1, mailed: 0 });
    expect(await noticesTo(a)).toHaveLength(1);
    const [row] = await api.database.db.select().from(messageNotices).where(eq(messageNotices.userId, a.id));
    expect(row?.pendingCount).toBe(0);
  });

  it("counts an administrator's message too, from 運営事務局", async () => {
    const admin = await api.createUser({ role: "admin", name: "管理" });
    await api.caller(admin).adminMessages.send({ recipientIds: [a.id, b.id], body: "お知らせ本文" });
    expect(await run(0)).toEqual({ claimed: 2, mailed: 2 });
    const [notice] = await noticesTo(a);
    expect(notice?.text).toContain(MSG.boardOperatorName);
    expect(notice?.text).not.toContain("お知らせ本文");
  });
});

describe("new-message notices: who gets none", () => {
  it("none while the member is on the site; what is still unread is told once they have left", async () => {
    await send(b, a);
    // Active two minutes before the job looks: the site is open.
    await api.database.db
      .update(users)
      .set({ lastActiveAt: at(-2) })
      .where(eq(users.id, a.id));
    expect(await run(0)).toEqual({ claimed: 1, mailed: 0 });
    expect(await noticesTo(a)).toHaveLength(0);
    expect(await run(NOTICE_LIVE_MINUTES - 3)).toEqual({ claimed: 1, mailed: 0 });
    expect(await run(NOTICE_LIVE_MINUTES)).toEqual({ claimed: 1, mailed: 1 });
    expect(await noticesTo(a)).toHaveLength(1);
  });

  it("a member who has never been active is not on the site: a new account is told at once (decision 0038)", async () => {
    const fresh = await api.createUser({ name: "はじめ" });
    const [row] = await api.database.db
      .select({ lastActiveAt: users.lastActiveAt })
      .from(users)
      .where(eq(users.id, fresh.id));
    expect(row?.lastActiveAt).toBeNull();
    await send(b, fresh);
    // A few seconds after the account was made, not 10 minutes.
    expect(await sendDueNotices(api.deps, { now: new Date(Date.now() + 5_000) })).toMatchObject({ mailed: 1 });
    expect(await noticesTo(fresh)).toHaveLength(1);
  });

  it("none to a suspended, an unverified or a deleted member, nor to one who turned notices off", async () => {
    const suspended = await api.createUser({ name: "停止" });
    const unverified = await api.createUser({ name: "未確認", verificationStatus: "pending" });
    const deleted = await api.createUser({ name: "削除" });
    for (const to of [suspended, deleted, c]) await send(b, to);
    // The unverified member cannot be written to by members (decision 0025); the operator can.
    const admin = await api.createUser({ role: "admin" });
    await api.caller(admin).adminMessages.send({ recipientIds: [unverified.id], body: "確認のお願い" });
    await api.caller(c).account.setNoticeSetting({ enabled: false });
    const db = api.database.db;
    await db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, suspended.id));
    await db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, deleted.id));
    expect(await run(0)).toEqual({ claimed: 4, mailed: 0 });
    for (const u of [suspended, unverified, deleted, c]) expect(await noticesTo(u)).toHaveLength(0);
    // Their pending counts are dropped, not kept for later.
    expect(await run(NOTICE_WINDOW_MINUTES)).toEqual({ claimed: 0, mailed: 0 });
  });
});

describe("the stop link", () => {
  async function stopToken(to: TestUser) {
    await send(b, to);
    await run(0);
    const [notice] = await noticesTo(to);
    if (!notice?.secret) throw new Error("no notice");
    return notice.secret;
  }

  it("turns the notices off without a login, once; a second use says so and changes nothing", async () => {
    const token = await stopToken(a);
    const anonymous = api.caller(null);
    expect(await anonymous.account.stopNotice({ token })).toEqual({
      stopped: true,
      alreadyUsed: false,
      message: MSG.noticeStopDone,
    });
    expect(await api.caller(a).account.noticeSetting()).toEqual({ enabled: false });
    // Turned on again in the settings: the used link still does not turn them off.
    await api.caller(a).account.setNoticeSetting({ enabled: true });
    expect(await anonymous.account.stopNotice({ token })).toEqual({
      stopped: false,
      alreadyUsed: true,
      message: MSG.noticeStopUsed,
    });
    expect(await api.caller(a).account.noticeSetting()).toEqual({ enabled: true });
  });

  it("refuses a forged or malformed link with a Japanese message and changes nothing", async () => {
    const token = await stopToken(a);
    const forged = `${token.slice(0, -4)}AAAA`;
    for (const bad of [forged, "not-a-token", "x".repeat(3000)]) {
      await expect(api.caller(null).account.stopNotice({ token: bad })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    }
    await expect(api.caller(null).account.stopNotice({ token: forged })).rejects.toThrow(MSG.noticeStopInvalid);
    expect(await api.caller(a).account.noticeSetting()).toEqual({ enabled: true });
  });

  it("is on by default and follows the setting", async () => {
    expect(await api.caller(b).account.noticeSetting()).toEqual({ enabled: true });
    expect(await api.caller(b).account.setNoticeSetting({ enabled: false })).toMatchObject({ enabled: false });
    expect(await api.caller(b).account.noticeSetting()).toEqual({ enabled: false });
  });
});
