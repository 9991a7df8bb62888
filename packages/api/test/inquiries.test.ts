import { adminAuditLog, inquiries, inquiryReplies, mailOutbox } from "@enmusubi/db";
import { INQUIRY_MESSAGE_MAX, INQUIRY_TITLE_MAX, MSG } from "@enmusubi/shared";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createContextInner } from "../src/context";
import { INQUIRY_RATE_LIMIT } from "../src/inquiries/router";
import { createCaller } from "../src/root";
import { createDatabaseRateLimiter } from "../src/security/rate-limit";
import { snapshotTables, type TestUser, useTestApi } from "./helpers";

const api = useTestApi();
let admin: TestUser;
let owner: TestUser;
let other: TestUser;

const TABLES = ["inquiries", "inquiry_replies", "mail_outbox", "admin_audit_log"];

beforeAll(async () => {
  admin = await api.createUser({ role: "admin", name: "運営 担当" });
  owner = await api.createUser({ name: "問い合わせ 太郎" });
  other = await api.createUser({ name: "他人 花子" });
});

async function newInquiry(title = "ポイントについて", message = "購入したポイントが反映されません。") {
  return api.caller(owner).inquiries.create({ title, message });
}

type Actor = "owner" | "other" | "admin" | "anonymous";
/** "ok" when the call must succeed, else the tRPC code it must be refused with (tables unchanged). */
type Expect = "ok" | "NOT_FOUND" | "FORBIDDEN" | "UNAUTHORIZED";

const actors = (): Record<Actor, TestUser | null> => ({ owner, other, admin, anonymous: null });

interface Row {
  route: string;
  call(caller: ReturnType<typeof api.caller>, inquiryId: string): Promise<unknown>;
  expect: Record<Actor, Expect>;
  /** Checked after a successful call. */
  verify?(inquiryId: string, result: unknown): Promise<void>;
}

const memberOnly = { owner: "ok", other: "NOT_FOUND", admin: "FORBIDDEN", anonymous: "UNAUTHORIZED" } as const;
const adminOnly = { owner: "FORBIDDEN", other: "FORBIDDEN", admin: "ok", anonymous: "UNAUTHORIZED" } as const;

const ROUTES: Row[] = [
  {
    route: "inquiries.create",
    call: (c) => c.inquiries.create({ title: "件名", message: "本文" }),
    expect: { owner: "ok", other: "ok", admin: "FORBIDDEN", anonymous: "UNAUTHORIZED" },
    async verify(_id, result) {
      const created = (result as { id: string }).id;
      const [row] = await api.database.db.select().from(inquiries).where(eq(inquiries.id, created));
      expect(row).toMatchObject({ title: "件名", message: "本文" });
    },
  },
  {
    route: "inquiries.list",
    call: (c) => c.inquiries.list({}),
    expect: { owner: "ok", other: "ok", admin: "FORBIDDEN", anonymous: "UNAUTHORIZED" },
    async verify(_id, result) {
      expect((result as { inquiries: unknown[] }).inquiries).toEqual(expect.any(Array));
    },
  },
  {
    route: "inquiries.delete",
    call: (c, id) => c.inquiries.delete({ id }),
    expect: memberOnly,
    async verify(id) {
      const [row] = await api.database.db.select().from(inquiries).where(eq(inquiries.id, id));
      expect(row?.deletedAt).toBeInstanceOf(Date);
    },
  },
  {
    route: "inquiries.markRepliesSeen",
    call: (c, id) => c.inquiries.markRepliesSeen({ id }),
    expect: memberOnly,
    async verify(_id, result) {
      expect(result).toEqual({ success: true });
    },
  },
  {
    route: "adminInquiries.list",
    call: (c) => c.adminInquiries.list({ limit: 100 }),
    expect: adminOnly,
    async verify(id, result) {
      expect((result as { inquiries: { id: string }[] }).inquiries.map((i) => i.id)).toContain(id);
    },
  },
  {
    route: "adminInquiries.markRead",
    call: (c, id) => c.adminInquiries.markRead({ id }),
    expect: adminOnly,
    async verify(id) {
      const [row] = await api.database.db.select().from(inquiries).where(eq(inquiries.id, id));
      expect(row?.isRead).toBe(true);
    },
  },
  {
    route: "adminInquiries.reply",
    call: (c, id) => c.adminInquiries.reply({ id, reply: "確認いたします。" }),
    expect: adminOnly,
    async verify(id) {
      const replies = await api.database.db.select().from(inquiryReplies).where(eq(inquiryReplies.inquiryId, id));
      expect(replies.map((r) => r.reply)).toEqual(["確認いたします。"]);
    },
  },
];

describe("who may call each inquiry route", () => {
  for (const row of ROUTES) {
    for (const actor of ["owner", "other", "admin", "anonymous"] as const) {
      const expected = row.expect[actor];
      it(`${row.route} as ${actor}: ${expected}`, async () => {
        const inquiry = await newInquiry();
        const caller = api.caller(actors()[actor]);
        if (expected === "ok") {
          const result = await row.call(caller, inquiry.id);
          await row.verify?.(inquiry.id, result);
          return;
        }
        const before = await snapshotTables(api, ...TABLES);
        await expect(row.call(caller, inquiry.id)).rejects.toMatchObject({ code: expected });
        expect(await snapshotTables(api, ...TABLES)).toEqual(before);
      });
    }
  }

  it("a member's list holds only their own inquiries; an administrator's holds everyone's", async () => {
    const mine = await newInquiry("自分の問い合わせ");
    const theirs = await api.caller(other).inquiries.create({ title: "他人の問い合わせ", message: "本文" });
    const ownList = await api.caller(owner).inquiries.list({ limit: 100 });
    expect(ownList.inquiries.map((i) => i.id)).toContain(mine.id);
    expect(ownList.inquiries.map((i) => i.id)).not.toContain(theirs.id);
    expect(ownList.inquiries.every((i) => i.author.id === owner.id)).toBe(true);
    const otherList = await api.caller(other).inquiries.list({ limit: 100 });
    expect(otherList.inquiries.map((i) => i.id)).not.toContain(mine.id);
    const all = await api.caller(admin).adminInquiries.list({ limit: 100 });
    expect(all.inquiries.map((i) => i.id)).toEqual(expect.arrayContaining([mine.id, theirs.id]));
  });

  it("an unknown id or a deleted inquiry is NOT_FOUND for everyone", async () => {
    const gone = await newInquiry();
    await api.caller(owner).inquiries.delete({ id: gone.id });
    const unknown = "00000000-0000-4000-8000-000000000000";
    const before = await snapshotTables(api, ...TABLES);
    for (const id of [gone.id, unknown]) {
      await expect(api.caller(owner).inquiries.delete({ id })).rejects.toMatchObject({ code: "NOT_FOUND" });
      await expect(api.caller(owner).inquiries.markRepliesSeen({ id })).rejects.toMatchObject({ code: "NOT_FOUND" });
      await expect(api.caller(admin).adminInquiries.markRead({ id })).rejects.toMatchObject({ code: "NOT_FOUND" });
      await expect(api.caller(admin).adminInquiries.reply({ id, reply: "返信" })).rejects.toMatchObject({
        code: "NOT_FOUND",
      });
    }
    expect(await snapshotTables(api, ...TABLES)).toEqual(before);
    const list = await api.caller(admin).adminInquiries.list({ limit: 100 });
    expect(list.inquiries.map((i) => i.id)).not.toContain(gone.id);
  });
});

describe("inquiries.create", () => {
  it("stores the trimmed title and message, unread, without replies", async () => {
    const created = await api.caller(owner).inquiries.create({ title: "  件名です  ", message: "\n 本文です \n" });
    expect(created).toMatchObject({
      title: "件名です",
      message: "本文です",
      isRead: false,
      replyUnread: false,
      replies: [],
      author: { id: owner.id, userID: owner.userID },
    });
  });

  it("accepts exactly 100 / 1000 characters", async () => {
    const created = await api
      .caller(owner)
      .inquiries.create({ title: "題".repeat(INQUIRY_TITLE_MAX), message: "文".repeat(INQUIRY_MESSAGE_MAX) });
    expect(created.title).toHaveLength(INQUIRY_TITLE_MAX);
    expect(created.message).toHaveLength(INQUIRY_MESSAGE_MAX);
  });

  const BAD: Array<[string, { title: unknown; message: unknown }, string]> = [
    ["blank title", { title: "   ", message: "本文" }, MSG.inquiryTitleRequired],
    ["missing title", { title: undefined, message: "本文" }, MSG.inquiryTitleRequired],
    ["blank message", { title: "件名", message: " \n " }, MSG.inquiryMessageRequired],
    ["missing message", { title: "件名", message: undefined }, MSG.inquiryMessageRequired],
    ["title of 101", { title: "題".repeat(INQUIRY_TITLE_MAX + 1), message: "本文" }, MSG.inquiryTitleTooLong],
    ["message of 1001", { title: "件名", message: "文".repeat(INQUIRY_MESSAGE_MAX + 1) }, MSG.inquiryMessageTooLong],
    ["NUL in the message", { title: "件名", message: "a\u0000b" }, MSG.textInvalid],
    ["a number as title", { title: 5, message: "本文" }, MSG.inquiryTitleRequired],
  ];
  for (const [name, input, message] of BAD) {
    it(`refuses ${name} with 「${message}」, changing nothing`, async () => {
      const before = await snapshotTables(api, ...TABLES);
      await expect(api.caller(owner).inquiries.create(input as never)).rejects.toMatchObject({
        code: "BAD_REQUEST",
        message,
      });
      expect(await snapshotTables(api, ...TABLES)).toEqual(before);
    });
  }

  it(`a member may send ${INQUIRY_RATE_LIMIT.max} an hour; the next is refused and not stored`, async () => {
    const writer = await api.createUser();
    const caller = createCaller(
      createContextInner({ ...api.deps, limiter: createDatabaseRateLimiter(api.database.db) }, writer.session),
    );
    for (let i = 0; i < INQUIRY_RATE_LIMIT.max; i++)
      await caller.inquiries.create({ title: `件名${i}`, message: "本文" });
    const before = await snapshotTables(api, ...TABLES);
    await expect(caller.inquiries.create({ title: "超過", message: "本文" })).rejects.toMatchObject({
      code: "TOO_MANY_REQUESTS",
      message: MSG.tooManyRequests,
    });
    expect(await snapshotTables(api, ...TABLES)).toEqual(before);
  });

  it("the spec's two messages read exactly as written", () => {
    expect(MSG.inquiryTitleRequired).toBe("エラー : タイトルを入力してください");
    expect(MSG.inquiryMessageRequired).toBe("エラー : メッセージを入力してください");
  });
});

describe("a reply reaches the member", () => {
  it("queues a mail and sets the unread marker in the same transaction; opening the replies clears it", async () => {
    const inquiry = await newInquiry("退会方法", "退会の手順を教えてください。");
    const mailsBefore = api.mailQueued.count;
    const reply = await api
      .caller(admin)
      .adminInquiries.reply({ id: inquiry.id, reply: "  設定画面から退会できます。 " });
    expect(reply).toMatchObject({ reply: "設定画面から退会できます。", admin: { id: admin.id, userID: admin.userID } });
    expect(api.mailQueued.count).toBe(mailsBefore + 1);

    const mails = await api.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.to, `${owner.userID}@example.jp`));
    const mail = mails.find((m) => m.text.includes("退会方法"));
    expect(mail).toMatchObject({
      subject: "【縁結び】お問い合わせへの返信のお知らせ",
      secret: null,
      status: "pending",
    });
    expect(mail?.text).toContain("/user/inquiry-history");
    // The reply's text is read after signing in, not sent by mail.
    expect(mail?.text).not.toContain("設定画面から退会できます。");

    const list = await api.caller(owner).inquiries.list({ limit: 100 });
    const seen = list.inquiries.find((i) => i.id === inquiry.id);
    expect(seen).toMatchObject({ replyUnread: true, isRead: true });
    expect(seen?.replies).toEqual([
      expect.objectContaining({
        reply: "設定画面から退会できます。",
        admin: { id: admin.id, name: "運営 担当", userID: null },
      }),
    ]);
    expect(list.unreadReplies).toBeGreaterThanOrEqual(1);
    const adminView = await api.caller(admin).adminInquiries.list({ limit: 100 });
    expect(adminView.inquiries.find((i) => i.id === inquiry.id)?.replies[0]?.admin).toEqual({
      id: admin.id,
      name: "運営 担当",
      userID: admin.userID,
    });

    const [audit] = await api.database.db
      .select()
      .from(adminAuditLog)
      .where(and(eq(adminAuditLog.targetId, inquiry.id), eq(adminAuditLog.action, "inquiry.reply")));
    expect(audit).toMatchObject({ adminId: admin.id, targetType: "inquiry" });
    expect(audit?.details).toMatchObject({ before: { isRead: false }, after: { isRead: true }, memberNotified: true });

    await api.caller(owner).inquiries.markRepliesSeen({ id: inquiry.id });
    const after = await api.caller(owner).inquiries.list({ limit: 100 });
    expect(after.inquiries.find((i) => i.id === inquiry.id)?.replyUnread).toBe(false);
    expect(after.unreadReplies).toBe(list.unreadReplies - 1);
  });

  it("a blank or too long reply is refused and changes nothing", async () => {
    const inquiry = await newInquiry();
    const before = await snapshotTables(api, ...TABLES);
    await expect(api.caller(admin).adminInquiries.reply({ id: inquiry.id, reply: "  " })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: MSG.inquiryReplyRequired,
    });
    await expect(
      api.caller(admin).adminInquiries.reply({ id: inquiry.id, reply: "あ".repeat(1001) }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", message: MSG.inquiryReplyTooLong });
    expect(await snapshotTables(api, ...TABLES)).toEqual(before);
  });

  it("when the mail cannot be queued, no reply, marker or audit entry is left either", async () => {
    const inquiry = await newInquiry("失敗時の確認");
    const db = api.database.db;
    // Makes the outbox refuse this one member's mail, as a failing step inside the transaction.
    await db.execute(`create or replace function refuse_mail() returns trigger language plpgsql as $$
      begin if new."to" = '${owner.userID}@example.jp' then raise exception 'outbox down'; end if; return new; end $$`);
    await db.execute(
      "create trigger refuse_mail before insert on mail_outbox for each row execute function refuse_mail()",
    );
    try {
      const before = await snapshotTables(api, ...TABLES);
      await expect(
        api.caller(admin).adminInquiries.reply({ id: inquiry.id, reply: "返信します" }),
      ).rejects.toMatchObject({ code: "INTERNAL_SERVER_ERROR" });
      expect(await snapshotTables(api, ...TABLES)).toEqual(before);
    } finally {
      await db.execute("drop trigger refuse_mail on mail_outbox");
      await db.execute("drop function refuse_mail()");
    }
  });
});

describe("adminInquiries", () => {
  it("lists newest first, paged on the server, with the total and unread counts", async () => {
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await newInquiry(`ページ${i}`));
    const caller = api.caller(admin);
    const first = await caller.adminInquiries.list({ limit: 2, page: 1 });
    expect(first.inquiries.map((i) => i.id)).toEqual([made[2]?.id, made[1]?.id]);
    expect(first.totalPages).toBe(Math.ceil(first.total / 2));
    const second = await caller.adminInquiries.list({ limit: 2, page: 2 });
    expect(second.inquiries[0]?.id).toBe(made[0]?.id);

    const [counts] = await api.database.db
      .execute(
        "select count(*)::int as all, count(*) filter (where not is_read)::int as unread from inquiries where deleted_at is null",
      )
      .then((r) => (Array.isArray(r) ? r : (r as { rows: unknown[] }).rows) as Array<{ all: number; unread: number }>);
    expect(first).toMatchObject({ totalAll: counts?.all, unread: counts?.unread, total: counts?.all });

    const unreadOnly = await caller.adminInquiries.list({ unreadOnly: true, limit: 100 });
    expect(unreadOnly.total).toBe(counts?.unread);
    expect(unreadOnly.inquiries.every((i) => !i.isRead)).toBe(true);
    expect(first.inquiries[0]?.author).toMatchObject({ userID: owner.userID, email: `${owner.userID}@example.jp` });
  });

  it("mark-as-read is written once to the audit log and repeating it changes nothing", async () => {
    const inquiry = await newInquiry();
    const caller = api.caller(admin);
    const before = await caller.adminInquiries.list({ limit: 1 });
    await caller.adminInquiries.markRead({ id: inquiry.id });
    const after = await caller.adminInquiries.list({ limit: 1 });
    expect(after.unread).toBe(before.unread - 1);
    const snapshot = await snapshotTables(api, ...TABLES);
    await caller.adminInquiries.markRead({ id: inquiry.id });
    expect(await snapshotTables(api, ...TABLES)).toEqual(snapshot);
    const audits = await api.database.db
      .select()
      .from(adminAuditLog)
      .where(and(eq(adminAuditLog.targetId, inquiry.id), eq(adminAuditLog.action, "inquiry.mark_read")));
    expect(audits).toHaveLength(1);
    expect(audits[0]?.details).toEqual({ before: { isRead: false }, after: { isRead: true } });
  });
});
