import { adminAuditLog, messages } from "@enmusubi/db";
import { MSG } from "@enmusubi/shared";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { snapshotTables, type TestUser, useTestApi } from "./helpers";

const api = useTestApi();
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;

beforeAll(async () => {
  admin = await api.createUser({ role: "admin", name: "運営" });
  alice = await api.createUser({ name: "アリス", points: 1000 });
  bob = await api.createUser({ name: "ボブ", gender: "female", points: 1000 });
  carol = await api.createUser({ name: "キャロル", points: 1000 });
});

describe("member messages", () => {
  it("a member sees only what they sent or received, through the public shape", async () => {
    const { messageIds } = await api.caller(alice).messages.send({ recipientIds: [bob.id], body: "  はじめまして  " });
    const id = messageIds[0] as string;
    // Sealed until Bob opens it (unread_mail_view, decision 0027): a preview line, no body.
    const seenByBob = await api.caller(bob).messages.get({ id });
    expect(seenByBob).toMatchObject({ body: "", sealed: true, preview: "はじめ…", isRead: false });
    expect(seenByBob).toMatchObject({ from: { id: alice.id, name: "アリス" } });
    expect((await api.caller(alice).messages.get({ id })).body).toBe("はじめまして");
    expect(Object.keys(seenByBob.from).sort()).toEqual(["id", "name", "photoLink", "role"]);
    await expect(api.caller(carol).messages.get({ id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(api.caller(carol).messages.markRead({ id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(api.caller(alice).messages.markRead({ id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    const inbox = await api.caller(bob).messages.list({ box: "unread" });
    expect(inbox.messages.map((m) => m.id)).toContain(id);
    expect((await api.caller(alice).messages.list({ box: "sent", counterpartId: bob.id })).total).toBeGreaterThan(0);
  });

  it("while either has blocked the other, their messages leave both mailboxes and the unread count; unblocking brings them back", async () => {
    const dave = await api.createUser({ name: "デイブ", points: 1000 });
    const erin = await api.createUser({ name: "エリン", gender: "female", points: 1000 });
    const { messageIds } = await api.caller(dave).messages.send({ recipientIds: [erin.id], body: "ブロック前の挨拶" });
    const id = messageIds[0] as string;
    const seen = async () => ({
      inbox: (await api.caller(erin).messages.list({ box: "inbox" })).messages.map((m) => m.id),
      unread: (await api.caller(erin).messages.unreadCount()).count,
      sent: (await api.caller(dave).messages.list({ box: "sent" })).messages.map((m) => m.id),
    });
    expect(await seen()).toEqual({ inbox: [id], unread: 1, sent: [id] });
    await api.caller(erin).safety.block({ userId: dave.id });
    expect(await seen()).toEqual({ inbox: [], unread: 0, sent: [] });
    await expect(api.caller(erin).messages.get({ id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(api.caller(dave).messages.get({ id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await api.caller(erin).safety.unblock({ userId: dave.id });
    expect(await seen()).toEqual({ inbox: [id], unread: 1, sent: [id] });
    expect(await api.caller(erin).messages.get({ id })).toMatchObject({ sealed: true, preview: "ブロック…" });
  });

  it("a reply marks the original replied, and read when answered from the unread list", async () => {
    const { messageIds } = await api.caller(alice).messages.send({ recipientIds: [bob.id], body: "質問です" });
    const original = messageIds[0] as string;
    await api
      .caller(bob)
      .messages.send({ recipientIds: [alice.id], body: "お答えします", replyToId: original, markRead: true });
    expect(await api.caller(bob).messages.get({ id: original })).toMatchObject({ hasReply: true, isRead: true });
    // Only the recipient of a message can answer it, and only to its sender.
    await expect(
      api.caller(carol).messages.send({ recipientIds: [alice.id], body: "横から", replyToId: original }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", message: MSG.replyTargetInvalid });
  });

  it("writing to an administrator is free; bad bodies and recipients are refused, changing nothing", async () => {
    const before = await snapshotTables(api, "messages", "point_ledger");
    for (const [input, message] of [
      [{ recipientIds: [bob.id], body: "   " }, MSG.messageRequired],
      [{ recipientIds: [bob.id], body: "x".repeat(2001) }, MSG.messageTooLong],
      [{ recipientIds: [bob.id], body: "a\u0000b" }, MSG.textInvalid],
      [{ recipientIds: [], body: "hi" }, MSG.recipientsRequired],
      [{ recipientIds: [alice.id], body: "hi" }, MSG.cannotMessageSelf],
      [{ recipientIds: ["00000000-0000-4000-8000-000000000000"], body: "hi" }, MSG.recipientUnavailable],
    ] as const) {
      await expect(api.caller(alice).messages.send(input as never)).rejects.toMatchObject({ message });
    }
    expect(await snapshotTables(api, "messages", "point_ledger")).toEqual(before);
    const result = await api.caller(alice).messages.send({ recipientIds: [admin.id], body: "<b>問い合わせ</b>" });
    expect(result.cost).toBe(0);
    const [row] = await api.database.db
      .select()
      .from(messages)
      .where(eq(messages.id, result.messageIds[0] as string));
    expect(row?.body).toBe("<b>問い合わせ</b>");
  });

  it("the unread-count subscription yields the count now and again after a message arrives", async () => {
    const stream = (await api.caller(carol).messages.onUnreadCount()) as AsyncIterable<{ count: number }>;
    const iterator = stream[Symbol.asyncIterator]();
    const first = (await iterator.next()).value as { count: number };
    await api.caller(alice).messages.send({ recipientIds: [carol.id], body: "届きましたか" });
    const second = (await iterator.next()).value as { count: number };
    expect(second.count).toBe(first.count + 1);
    await iterator.return?.();
  });
});

describe("administrator messages", () => {
  it("send-as-user never charges the member, records the acting admin, and answers an admin's message", async () => {
    const sent = await api.caller(admin).adminMessages.send({ recipientIds: [carol.id], body: "運営からのお知らせ" });
    await expect(api.caller(admin).adminMessages.send({ recipientIds: [admin.id], body: "x" })).rejects.toMatchObject({
      message: MSG.adminRecipientRefused,
    });
    const ledger = await snapshotTables(api, "point_ledger");
    const { messageId } = await api
      .caller(admin)
      .adminMessages.sendAsUser({ fromUserId: carol.id, toUserId: admin.id, body: "承知しました" });
    expect(await snapshotTables(api, "point_ledger")).toEqual(ledger);
    const original = await api.caller(carol).messages.get({ id: sent.messageIds[0] as string });
    expect(original).toMatchObject({ isRead: true, hasReply: true });
    const listed = await api.caller(admin).adminMessages.list({ box: "inbox", search: "承知" });
    expect(listed.messages[0]).toMatchObject({
      id: messageId,
      sentByAdmin: { id: admin.id },
      from: { userID: carol.userID },
    });
    const asMember = await api.caller(carol).messages.get({ id: messageId });
    expect(asMember).not.toHaveProperty("sentByAdmin");
    const audit = await api.database.db.select().from(adminAuditLog).where(eq(adminAuditLog.targetId, messageId));
    expect(audit).toHaveLength(1);
  });

  it("lists filter by status and page in the database; edit and delete are audited and hide the message", async () => {
    const { messageIds } = await api.caller(bob).messages.send({ recipientIds: [carol.id], body: "編集前の本文" });
    const id = messageIds[0] as string;
    const unread = await api.caller(admin).adminMessages.list({ status: "unread", search: "編集前", limit: 25 });
    expect(unread.messages.map((m) => m.id)).toEqual([id]);
    await api.caller(admin).adminMessages.update({ id, body: "編集後の本文" });
    expect((await api.caller(bob).messages.get({ id })).body).toBe("編集後の本文");
    expect((await api.caller(carol).messages.get({ id })).preview).toBe("編集後…");
    await api.caller(admin).adminMessages.delete({ id });
    await expect(api.caller(carol).messages.get({ id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(api.caller(admin).adminMessages.delete({ id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(api.caller(bob).adminMessages.list({})).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});
