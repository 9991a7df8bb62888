import { messages } from "@enmusubi/db";
import { MSG } from "@enmusubi/shared";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { snapshotTables, type TestUser, useTestApi } from "./helpers";

const api = useTestApi();
let admin: TestUser;
let colleague: TestUser;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  admin = await api.createUser({ role: "admin", name: "運営" });
  colleague = await api.createUser({ role: "admin", name: "運営2" });
  alice = await api.createUser({ name: "アリス", points: 1000 });
  bob = await api.createUser({ name: "ボブ", gender: "female", points: 1000 });
});

async function message(id: string) {
  const [row] = await api.database.db.select().from(messages).where(eq(messages.id, id));
  return row;
}

describe("adminMessages.send with replyToId (the admin inbox reply)", () => {
  it("sends the reply and marks the member's message read and replied, in the same transaction", async () => {
    const { messageIds } = await api.caller(alice).messages.send({ recipientIds: [admin.id], body: "質問です" });
    const original = messageIds[0] as string;
    expect(await message(original)).toMatchObject({ isRead: false, hasReply: false });
    const reply = await api
      .caller(admin)
      .adminMessages.send({ recipientIds: [alice.id], body: "お答えします", replyToId: original });
    expect(reply.sent).toBe(1);
    expect(await message(original)).toMatchObject({ isRead: true, hasReply: true });
    expect((await message(original))?.readAt).toBeInstanceOf(Date);
    expect(await message(reply.messageIds[0] as string)).toMatchObject({
      fromUserId: admin.id,
      toUserId: alice.id,
      replyToId: original,
      body: "お答えします",
    });
    // The admin inbox counts it read (read or replied).
    const unread = await api.caller(admin).adminMessages.list({ box: "inbox", status: "unread", search: "質問です" });
    expect(unread.messages).toEqual([]);
  });

  it("the inbox is shared: a message to a colleague may be answered too", async () => {
    const { messageIds } = await api.caller(bob).messages.send({ recipientIds: [colleague.id], body: "同僚宛て" });
    await api
      .caller(admin)
      .adminMessages.send({ recipientIds: [bob.id], body: "代わりに回答", replyToId: messageIds[0] as string });
    expect(await message(messageIds[0] as string)).toMatchObject({ isRead: true, hasReply: true });
  });

  it("refuses a target that is not that member's message to an administrator, changing nothing", async () => {
    const toAdmin = (await api.caller(alice).messages.send({ recipientIds: [admin.id], body: "別件" }))
      .messageIds[0] as string;
    const betweenMembers = (await api.caller(alice).messages.send({ recipientIds: [bob.id], body: "会員同士" }))
      .messageIds[0] as string;
    const before = await snapshotTables(api, "messages");
    const refused = [
      // Alice's message, answered to Bob.
      { recipientIds: [bob.id], replyToId: toAdmin },
      // A message between members is not in the admin inbox.
      { recipientIds: [alice.id], replyToId: betweenMembers },
      // A reply goes to one member only.
      { recipientIds: [alice.id, bob.id], replyToId: toAdmin },
      // Unknown message.
      { recipientIds: [alice.id], replyToId: "00000000-0000-4000-8000-000000000000" },
    ];
    for (const input of refused) {
      await expect(api.caller(admin).adminMessages.send({ ...input, body: "返信" })).rejects.toMatchObject({
        code: "BAD_REQUEST",
        message: MSG.replyTargetInvalid,
      });
    }
    expect(await snapshotTables(api, "messages")).toEqual(before);
  });

  it("is for administrators only", async () => {
    await expect(
      api.caller(alice).adminMessages.send({ recipientIds: [bob.id], body: "x", replyToId: undefined }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});
