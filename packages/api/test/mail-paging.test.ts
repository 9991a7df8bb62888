import { messages, purchaseTransactions } from "@enmusubi/db";
import { MEMBER_MESSAGE_PAGE_SIZE, MSG, pointsCredited } from "@enmusubi/shared";
import { beforeAll, describe, expect, it } from "vitest";
import { SEARCH_WINDOW } from "../src/messages/admin-search";
import { simulateSmartPitPayment } from "../src/payments/providers/smart-pit-simulator";
import { snapshotTables, type TestUser, useTestApi } from "./helpers";

/*
 * "Every message reachable, in the right state": the member's mail screens page and
 * search on the server (box read for 受信, the partner's name, the operator's messages on 未読), the
 * administrators' sent / inbox filters search names on the server, opening or marking read tells
 * the sender's live stream, and the live stream carries the balance and the payments credited.
 */

const api = useTestApi();
let admin: TestUser;
/** The member with 250 messages. */
let taro: TestUser;
let hanako: TestUser;
let hanaya: TestUser;
let jiro: TestUser;
const TABLES = ["messages", "users", "point_ledger", "purchase_transactions"];

/** `n` messages from `from` to `to`, one a minute, the oldest `minutesAgo` minutes back; `read` or not. */
async function seed(
  from: TestUser,
  to: TestUser,
  n: number,
  options: { read: boolean; minutesAgo: number; tag: string },
) {
  const now = Date.now();
  const rows = Array.from({ length: n }, (_, i) => ({
    fromUserId: from.id,
    toUserId: to.id,
    body: `${options.tag} ${i + 1}通目`,
    isRead: options.read,
    openedAt: options.read ? new Date(now) : null,
    createdAt: new Date(now - (options.minutesAgo - i) * 60_000),
  }));
  await api.database.db.insert(messages).values(rows);
}

beforeAll(async () => {
  admin = await api.createUser({ role: "admin", name: "運営事務局" });
  taro = await api.createUser({ name: "山田 太郎", points: 1000 });
  hanako = await api.createUser({ name: "佐藤 花子", gender: "female", points: 1000 });
  hanaya = await api.createUser({ name: "花屋のはなこ", gender: "female", points: 1000 });
  jiro = await api.createUser({ name: "鈴木 次郎", points: 1000 });
  // 250 messages to Taro: the 150 oldest read (from Hanako), the 100 newest unread (from Hanaya).
  await seed(hanako, taro, 150, { read: true, minutesAgo: 1000, tag: "花子から" });
  await seed(hanaya, taro, 100, { read: false, minutesAgo: 500, tag: "はなこから" });
  // 250 messages from Taro to Jiro, Jiro has read the older half.
  await seed(taro, jiro, 125, { read: true, minutesAgo: 2000, tag: "次郎へ古い" });
  await seed(taro, jiro, 125, { read: false, minutesAgo: 1500, tag: "次郎へ新しい" });
  // One message from the operator, read.
  await api.caller(admin).adminMessages.send({ recipientIds: [taro.id], body: "運営からのお知らせ" });
  await api.caller(taro).messages.markRead({
    id: (await api.caller(taro).messages.list({ box: "unread", partner: "運営" })).messages[0]?.id as string,
  });
});

describe("the member's boxes page on the server", () => {
  it("受信 (box read) lists the read ones although 100 newer unread exist, and pages to the oldest", async () => {
    const first = await api.caller(taro).messages.list({ box: "read" });
    expect(first.total).toBe(151);
    expect(first.limit).toBe(MEMBER_MESSAGE_PAGE_SIZE);
    expect(first.totalPages).toBe(8);
    expect(first.messages.every((m) => m.isRead)).toBe(true);
    expect(first.messages[0]?.body).toBe("運営からのお知らせ");
    const last = await api.caller(taro).messages.list({ box: "read", page: 8 });
    expect(last.messages.map((m) => m.body).at(-1)).toBe("花子から 1通目");
    // The whole box, 20 at a time: every message once, newest first.
    const inbox: string[] = [];
    for (let page = 1; page <= 13; page += 1) {
      const p = await api.caller(taro).messages.list({ box: "inbox", page });
      expect(p.totalPages).toBe(13);
      inbox.push(...p.messages.map((m) => m.id));
    }
    expect(new Set(inbox).size).toBe(251);
  });

  it("送信 pages through 250 sent messages to the oldest, each with its read state", async () => {
    const page1 = await api.caller(taro).messages.list({ box: "sent" });
    expect(page1).toMatchObject({ total: 250, totalPages: 13 });
    expect(page1.messages[0]).toMatchObject({ body: "次郎へ新しい 125通目", isRead: false });
    const page13 = await api.caller(taro).messages.list({ box: "sent", page: 13 });
    expect(page13.messages).toHaveLength(10);
    expect(page13.messages.at(-1)).toMatchObject({ body: "次郎へ古い 1通目", isRead: true });
    // The count rides on a page's rows; a page past the last one still counts them all.
    expect(page13).toMatchObject({ total: 250, totalPages: 13 });
    const page14 = await api.caller(taro).messages.list({ box: "sent", page: 14 });
    expect(page14).toMatchObject({ messages: [], total: 250, totalPages: 13 });
  });

  it("未読 with withOperator: the unread ones plus the operator's, read or not", async () => {
    const unread = await api.caller(taro).messages.list({ box: "unread" });
    expect(unread.total).toBe(100);
    const screen = await api.caller(taro).messages.list({ box: "unread", withOperator: true });
    expect(screen.total).toBe(101);
    expect(screen.messages[0]).toMatchObject({ body: "運営からのお知らせ", isRead: true, from: { role: "admin" } });
    const last = await api.caller(taro).messages.list({ box: "unread", withOperator: true, page: 6 });
    expect(last.messages.map((m) => m.preview)).toEqual(["はなこか…"]);
  });

  it("searches the partner's name: two characters (no trigram), three or more (trigram index), none found", async () => {
    const byShort = await api.caller(taro).messages.list({ box: "read", partner: "花子" });
    expect(byShort.total).toBe(150);
    expect(byShort.messages.every((m) => m.from.id === hanako.id)).toBe(true);
    const byLong = await api.caller(taro).messages.list({ box: "unread", partner: "花屋の" });
    expect(byLong.total).toBe(100);
    expect(byLong.messages.every((m) => m.from.id === hanaya.id)).toBe(true);
    // Case and kana as typed; blank is everyone; a name nobody in the box has finds nothing.
    expect((await api.caller(taro).messages.list({ box: "inbox", partner: "  " })).total).toBe(251);
    expect((await api.caller(taro).messages.list({ box: "inbox", partner: "次郎" })).total).toBe(0);
    expect((await api.caller(taro).messages.list({ box: "sent", partner: "次郎" })).total).toBe(250);
    expect((await api.caller(taro).messages.list({ box: "sent", partner: "鈴木 次" })).total).toBe(250);
    // LIKE's wildcards are text: "%" finds no one.
    expect((await api.caller(taro).messages.list({ box: "sent", partner: "%" })).total).toBe(0);
    // Someone else's mailbox is never searched: Jiro's received are Taro's sent.
    expect((await api.caller(jiro).messages.list({ box: "inbox", partner: "花子" })).total).toBe(0);
    const paged = await api.caller(taro).messages.list({ box: "read", partner: "花子", page: 8 });
    expect(paged.messages.at(-1)?.body).toBe("花子から 1通目");
  });

  it("bad input: a Japanese 400 and nothing changed", async () => {
    const before = await snapshotTables(api, ...TABLES);
    const cases = [
      [{ box: "read", partner: "あ".repeat(51) }, MSG.partnerSearchTooLong],
      [{ box: "read", partner: "\0" }, MSG.textInvalid],
      [{ box: "trash" }, MSG.badRequest],
      [{ box: "read", page: 0 }, MSG.badRequest],
      [{ box: "read", limit: 101 }, MSG.badRequest],
      [{ box: "unread", withOperator: "yes" }, MSG.badRequest],
    ] as const;
    for (const [input, message] of cases) {
      await expect(api.caller(taro).messages.list(input as never), JSON.stringify(input)).rejects.toMatchObject({
        code: "BAD_REQUEST",
        message,
      });
    }
    await expect(api.caller(admin).adminMessages.list({ partner: "x".repeat(51) })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: MSG.partnerSearchTooLong,
    });
    // Authenticated first: anonymous is refused before the input is read.
    await expect(api.caller(null).messages.list({ box: "read", partner: "あ".repeat(51) })).rejects.toMatchObject({
      code: "UNAUTHORIZED",
    });
    expect(await snapshotTables(api, ...TABLES)).toEqual(before);
  });
});

describe("the administrators' sent / inbox filters search names on the server", () => {
  it("sent: by the recipient's name or userID; inbox: by the sender's; a short keyword says it looked in the newest", async () => {
    await api.caller(hanako).messages.send({ recipientIds: [admin.id], body: "運営さんへの質問" });
    const sent = await api.caller(admin).adminMessages.list({ box: "sent", partner: "山田 太" });
    expect(sent.total).toBe(1);
    expect(sent.searchWindow).toBeNull();
    expect((await api.caller(admin).adminMessages.list({ box: "sent", partner: taro.userID })).total).toBe(1);
    expect((await api.caller(admin).adminMessages.list({ box: "sent", partner: "佐藤 花" })).total).toBe(0);
    const inbox = await api.caller(admin).adminMessages.list({ box: "inbox", partner: "花子" });
    expect(inbox.messages.map((m) => m.body)).toEqual(["運営さんへの質問"]);
    expect(inbox.searchWindow).toBe(SEARCH_WINDOW);
    expect((await api.caller(admin).adminMessages.list({ box: "inbox", partner: "太郎" })).total).toBe(0);
    // Email management (all): either side.
    expect((await api.caller(admin).adminMessages.list({ partner: "鈴木 次郎" })).total).toBe(250);
  });
});

describe("the live stream", () => {
  const next = async <T>(iterator: AsyncIterator<T>, ms = 5000): Promise<T> => {
    const answer = iterator.next();
    const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error("no answer")), ms));
    return ((await Promise.race([answer, timeout])) as IteratorResult<T>).value;
  };
  type Live = { count: number; points: number; change: string; credited: { transactionId: string; points: number }[] };

  it("the sender hears it when the recipient opens or marks read, and the sent list says 既読", async () => {
    const { messageIds } = await api.caller(jiro).messages.send({ recipientIds: [hanako.id], body: "開いてください" });
    const id = messageIds[0] as string;
    const second = (await api.caller(jiro).messages.send({ recipientIds: [hanako.id], body: "既読にしてください" }))
      .messageIds[0] as string;
    const stream = (await api.caller(jiro).messages.onUnreadCount()) as AsyncIterable<Live>;
    const iterator = stream[Symbol.asyncIterator]();
    expect(await next(iterator)).toMatchObject({ change: "start", credited: [] });
    const readerBefore = (await api.caller(hanako).messages.unreadCount()).count;
    await api.caller(hanako).messages.open({ id });
    expect(await next(iterator)).toMatchObject({ change: "mailbox" });
    expect((await api.caller(hanako).messages.unreadCount()).count).toBe(readerBefore - 1);
    await api.caller(hanako).messages.markRead({ id: second });
    expect(await next(iterator)).toMatchObject({ change: "mailbox" });
    const sent = await api.caller(jiro).messages.list({ box: "sent", partner: "花子" });
    expect(sent.messages.filter((m) => [id, second].includes(m.id)).map((m) => m.isRead)).toEqual([true, true]);
    const readNow = await api.caller(hanako).messages.list({ box: "read", partner: "次郎" });
    expect(readNow.messages.map((m) => m.id)).toEqual([second, id]);
    await iterator.return?.();
  });

  it("carries the balance: a payment an administrator confirms, or SmartPit's notice, is announced once", async () => {
    const member = await api.createUser({ name: "入金 待子", points: 100 });
    const [order] = await api.database.db
      .insert(purchaseTransactions)
      .values({
        transactionId: "TXMAILPAGING0001",
        userId: member.id,
        paymentMethod: "bank_transfer",
        amount: 1000,
        points: 500,
      })
      .returning();
    const stream = (await api.caller(member).messages.onUnreadCount()) as AsyncIterable<Live>;
    const iterator = stream[Symbol.asyncIterator]();
    expect(await next(iterator)).toMatchObject({ count: 0, points: 100, change: "start", credited: [] });
    await api.caller(admin).adminPayments.confirm({ id: order?.transactionId as string });
    expect(await next(iterator)).toEqual({
      count: 0,
      points: 600,
      change: "balance",
      credited: [{ transactionId: "TXMAILPAGING0001", points: 500 }],
    });
    expect(pointsCredited(500)).toBe("500ptが加算されました");

    // SmartPit's signed notification of a store payment: the same announcement.
    const key = "sk_mailpaging_KEY-0001";
    await api.caller(admin).adminPayments.updateSmartPit({ smartPitId: "SP-MP", apiKey: key, isActive: true });
    const store = await api.caller(member).purchase.create({ amount: 2000, paymentMethod: "smart_pit" });
    await api.caller(null).purchase.smartPitNotify(
      simulateSmartPitPayment({
        apiKey: key,
        transactionId: store.transactionId,
        paymentCode: store.smartPit?.paymentCode as string,
        amount: 2000,
      }),
    );
    expect(await next(iterator)).toMatchObject({
      points: 600 + store.points,
      change: "balance",
      credited: [{ transactionId: store.transactionId, points: store.points }],
    });
    // An administrator's balance edit: the new figure, no payment announced.
    await api.caller(admin).adminUsers.update({ id: member.id, points: 50, expectedPoints: 600 + store.points });
    expect(await next(iterator)).toMatchObject({ points: 50, change: "balance", credited: [] });
    await iterator.return?.();
  });

  it("a stream opened after the credit shows the balance without announcing it again", async () => {
    const member = await api.createUser({ name: "後から 見る", points: 100 });
    await api.database.db.insert(purchaseTransactions).values({
      transactionId: "TXMAILPAGING0002",
      userId: member.id,
      paymentMethod: "bank_transfer",
      amount: 1000,
      points: 500,
    });
    await api.caller(admin).adminPayments.confirm({ id: "TXMAILPAGING0002" });
    const stream = (await api.caller(member).messages.onUnreadCount()) as AsyncIterable<Live>;
    const iterator = stream[Symbol.asyncIterator]();
    expect(await next(iterator)).toMatchObject({ points: 600, credited: [] });
    await api.caller(admin).adminMessages.send({ recipientIds: [member.id], body: "ようこそ" });
    expect(await next(iterator)).toMatchObject({ count: 1, points: 600, change: "mailbox", credited: [] });
    await iterator.return?.();
  });
});
