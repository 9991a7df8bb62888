import { messages, pointCosts, pointLedger, users } from "@enmusubi/db";
import { onPostgres } from "@enmusubi/db/testing";
import { insufficientPoints, MSG } from "@enmusubi/shared";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { previewOf } from "../src/messages/sealed";
import { snapshotTables, type TestUser, useTestApi } from "./helpers";

/** 未読メール閲覧 (decision 0027): a member's message is hidden until opened, and opening it is charged once. */

const api = useTestApi();
const TABLES = ["users", "point_ledger", "prepaid_actions", "messages"];
const BODY = "はじめまして。プロフィールを拝見して、同じ趣味だと思いご連絡しました。週末はよく映画を観ます。";
let admin: TestUser;
let sender: TestUser;

beforeAll(async () => {
  admin = await api.createUser({ role: "admin", name: "運営" });
  sender = await api.createUser({ name: "送信者", points: 1000 });
});

async function write(from: TestUser, to: TestUser, body = BODY): Promise<string> {
  const [row] = await api.database.db
    .insert(messages)
    .values({ fromUserId: from.id, toUserId: to.id, body })
    .returning({ id: messages.id });
  return row?.id as string;
}

async function cost() {
  const [row] = await api.database.db.select().from(pointCosts).where(eq(pointCosts.actionName, "unread_mail_view"));
  return row?.pointCost ?? Number.NaN;
}

async function state(userId: string, id: string) {
  const [user] = await api.database.db.select().from(users).where(eq(users.id, userId));
  const [message] = await api.database.db.select().from(messages).where(eq(messages.id, id));
  const charges = await api.database.db
    .select()
    .from(pointLedger)
    .where(and(eq(pointLedger.userId, userId), eq(pointLedger.kind, "charge")));
  return { points: user?.points, openedAt: message?.openedAt ?? null, isRead: message?.isRead, charges };
}

describe("a member's unopened message", () => {
  it("is listed and answered without its body: a one-line preview, the price, and nothing written", async () => {
    const reader = await api.createUser({ points: 100 });
    const id = await write(sender, reader, `${BODY.slice(0, 10)}\n\n${BODY.slice(10)}`);
    const before = await snapshotTables(api, ...TABLES);
    for (const box of ["inbox", "unread"] as const) {
      const { messages: listed } = await api.caller(reader).messages.list({ box });
      const message = listed.find((m) => m.id === id);
      expect(message).toMatchObject({ sealed: true, body: "", preview: `${BODY.slice(0, 10)} ${BODY.slice(10, 19)}…` });
      expect(JSON.stringify(listed)).not.toContain(BODY.slice(19, 30));
    }
    const got = await api.caller(reader).messages.get({ id });
    expect(got).toMatchObject({ sealed: true, body: "", openCost: await cost(), isRead: false });
    expect(JSON.stringify(got)).not.toContain(BODY.slice(19, 30));
    expect(await snapshotTables(api, ...TABLES)).toEqual(before);
  });

  it("the preview is the first 20 characters (code points) on one line, and never more than half the message", () => {
    expect(previewOf("  短い\nメッセージ  ")).toBe("短い メ…");
    expect(previewOf("😀".repeat(45))).toBe(`${"😀".repeat(20)}…`);
    expect(previewOf("あ".repeat(20))).toBe(`${"あ".repeat(10)}…`);
    expect(previewOf("はい")).toBe("は…");
    expect(previewOf("!")).toBe("…");
  });

  it("opening charges unread_mail_view once, marks it read and answers the body; re-opening is free", async () => {
    const reader = await api.createUser({ points: 100 });
    const id = await write(sender, reader);
    const price = await cost();
    expect((await api.caller(reader).messages.unreadCount()).count).toBe(1);
    const first = await api.caller(reader).messages.open({ id });
    expect(first).toMatchObject({
      charged: true,
      remainingPoints: 100 - price,
      message: { body: BODY, sealed: false, isRead: true },
    });
    const after = await state(reader.id, id);
    expect(after).toMatchObject({ points: 100 - price, isRead: true });
    expect(after.openedAt).toBeInstanceOf(Date);
    expect(after.charges).toEqual([expect.objectContaining({ delta: -price, actionName: "unread_mail_view" })]);
    expect((await api.caller(reader).messages.unreadCount()).count).toBe(0);
    const again = await api.caller(reader).messages.open({ id });
    expect(again).toMatchObject({ charged: false, remainingPoints: 100 - price, message: { body: BODY } });
    expect((await state(reader.id, id)).charges).toHaveLength(1);
    expect(await api.caller(reader).messages.get({ id })).toMatchObject({ body: BODY, sealed: false, openCost: 0 });
    const { messages: inbox } = await api.caller(reader).messages.list({ box: "inbox" });
    expect(inbox.find((m) => m.id === id)).toMatchObject({ body: BODY, sealed: false, preview: null });
  });

  it("the operator's messages, one's own sent messages and a price of 0 are free, and answer the body", async () => {
    const reader = await api.createUser({ points: 100 });
    const { messageIds } = await api
      .caller(admin)
      .adminMessages.send({ recipientIds: [reader.id], body: "運営からのお知らせ" });
    const fromAdmin = messageIds[0] as string;
    const listed = (await api.caller(reader).messages.list({ box: "unread" })).messages.find((m) => m.id === fromAdmin);
    expect(listed).toMatchObject({ body: "運営からのお知らせ", sealed: false });
    expect(await api.caller(reader).messages.open({ id: fromAdmin })).toMatchObject({
      charged: false,
      remainingPoints: 100,
      message: { body: "運営からのお知らせ", isRead: true },
    });
    const mine = await write(reader, sender, "自分の送信");
    expect((await api.caller(reader).messages.get({ id: mine })).body).toBe("自分の送信");
    expect(await api.caller(reader).messages.open({ id: mine })).toMatchObject({
      charged: false,
      message: { body: "自分の送信" },
    });
    const [sent] = await api.database.db.select().from(messages).where(eq(messages.id, mine));
    expect(sent).toMatchObject({ isRead: false, openedAt: null });
    const price = await cost();
    await api.database.db.update(pointCosts).set({ pointCost: 0 }).where(eq(pointCosts.actionName, "unread_mail_view"));
    try {
      const id = await write(sender, reader);
      expect(await api.caller(reader).messages.get({ id })).toMatchObject({ sealed: true, openCost: 0 });
      expect(await api.caller(reader).messages.open({ id })).toMatchObject({ charged: false, message: { body: BODY } });
    } finally {
      await api.database.db
        .update(pointCosts)
        .set({ pointCost: price })
        .where(eq(pointCosts.actionName, "unread_mail_view"));
    }
    expect((await state(reader.id, fromAdmin)).charges).toEqual([]);
  });

  it("not enough points: refused with the catalogue's message, nothing opened, read or charged", async () => {
    const reader = await api.createUser({ points: 1 });
    const id = await write(sender, reader);
    const price = await cost();
    const before = await snapshotTables(api, ...TABLES);
    await expect(api.caller(reader).messages.open({ id })).rejects.toMatchObject({
      code: "PAYMENT_REQUIRED",
      message: insufficientPoints(price, 1),
    });
    expect(await snapshotTables(api, ...TABLES)).toEqual(before);
    expect(await state(reader.id, id)).toMatchObject({ points: 1, openedAt: null, isRead: false, charges: [] });
  });

  it("marking read (the legacy call) does not open it: still sealed, the unread count drops, opening still charges", async () => {
    const reader = await api.createUser({ points: 100 });
    const id = await write(sender, reader);
    await api.caller(reader).messages.markRead({ id });
    expect((await api.caller(reader).messages.unreadCount()).count).toBe(0);
    expect(await api.caller(reader).messages.get({ id })).toMatchObject({ sealed: true, body: "", isRead: true });
    const { messages: inbox } = await api.caller(reader).messages.list({ box: "inbox" });
    expect(inbox.find((m) => m.id === id)).toMatchObject({ sealed: true, body: "" });
    expect(await api.caller(reader).messages.open({ id })).toMatchObject({ charged: true, message: { body: BODY } });
  });

  it("someone else's, blocked, or (unverified) locked: refused before any charge", async () => {
    const reader = await api.createUser({ points: 100 });
    const other = await api.createUser({ points: 100 });
    const id = await write(sender, reader);
    const before = await snapshotTables(api, ...TABLES);
    await expect(api.caller(other).messages.open({ id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(
      api.caller(reader).messages.open({ id: "00000000-0000-4000-8000-000000000000" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    const unverified = await api.createUser({ points: 100 });
    await api.database.db.update(users).set({ verificationStatus: "unverified" }).where(eq(users.id, unverified.id));
    const lockedId = await write(sender, unverified);
    const lockedBefore = await snapshotTables(api, ...TABLES);
    await expect(api.caller(unverified).messages.open({ id: lockedId })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: MSG.verificationRequired,
    });
    const listed = (await api.caller(unverified).messages.list({ box: "unread" })).messages[0];
    expect(listed).toMatchObject({ locked: true, preview: null, body: MSG.lockedMessageNotice });
    expect(await snapshotTables(api, ...TABLES)).toEqual(lockedBefore);
    await api.caller(reader).safety.block({ userId: sender.id });
    const blockedBefore = await snapshotTables(api, ...TABLES);
    await expect(api.caller(reader).messages.open({ id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await snapshotTables(api, ...TABLES)).toEqual(blockedBefore);
    await api.caller(reader).safety.unblock({ userId: sender.id });
    expect(before).toBeDefined();
  });

  it("a failure inside the open's transaction changes nothing (the opening rolls back with the charge)", async () => {
    const reader = await api.createUser({ points: 100 });
    const id = await write(sender, reader);
    // The member leaves meanwhile: the message is opened, then the charge finds no account; both roll back.
    await api.database.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, reader.id));
    const before = await snapshotTables(api, ...TABLES);
    await expect(api.caller(reader).messages.open({ id })).rejects.toBeDefined();
    expect(await snapshotTables(api, ...TABLES)).toEqual(before);
    const [message] = await api.database.db.select().from(messages).where(eq(messages.id, id));
    expect(message).toMatchObject({ openedAt: null, isRead: false });
  });

  it("administrators' views still show every body", async () => {
    const reader = await api.createUser({ points: 100 });
    const id = await write(sender, reader);
    const { messages: all } = await api.caller(admin).adminMessages.list({ box: "all", counterpartId: reader.id });
    expect(all.find((m) => m.id === id)?.body).toBe(BODY);
  });
});

// On PostgreSQL the opens really interleave; on PGlite they run one after another.
describe.runIf(onPostgres)("messages.open under concurrency (PostgreSQL)", () => {
  it("50 concurrent opens of one message charge once, and every one answers the body", async () => {
    const reader = await api.createUser({ points: 1000 });
    const id = await write(sender, reader);
    const price = await cost();
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () => api.caller(reader).messages.open({ id })),
    );
    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    const answers = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
    expect(answers.filter((a) => a.charged)).toHaveLength(1);
    expect(answers.every((a) => a.message.body === BODY)).toBe(true);
    const after = await state(reader.id, id);
    expect(after.charges).toHaveLength(1);
    expect(after.points).toBe(1000 - price);
  });
});
