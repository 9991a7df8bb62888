import { messages, pointCosts, scheduledMessages, users } from "@enmusubi/db";
import { MSG, type VerificationStatus } from "@enmusubi/shared";
import { eq, inArray, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { dispatchDue } from "../src/scheduled/dispatch";
import { snapshotTables, type TestUser, useTestApi } from "./helpers";

/**
 * Nobody pays to write to someone who cannot read (decision 0025): a member whose age
 * verification is not approved cannot read members' messages (decision 0006), so a member's send,
 * reply, scheduled entry (when scheduled and when due) to them is refused with CONFLICT and
 * `MSG.recipientCannotRead`, before anything is written or charged. The operator's messages are
 * not affected. The public profile says who is verified (the 年齢確認済み badge).
 */

const api = useTestApi();
const TABLES = ["messages", "point_ledger", "point_lots", "users", "scheduled_messages"];
const CANNOT_READ: VerificationStatus[] = ["unverified", "pending", "rejected"];

let admin: TestUser;
let sender: TestUser;
let reader: TestUser;
const unreadable = {} as Record<VerificationStatus, TestUser>;

const refusal = { code: "CONFLICT", message: MSG.recipientCannotRead };
const points = async (id: string) =>
  (await api.database.db.select({ p: users.points }).from(users).where(eq(users.id, id)))[0]?.p;

beforeAll(async () => {
  admin = await api.createUser({ role: "admin", name: "運営" });
  sender = await api.createUser({ name: "送り手", points: 1000 });
  reader = await api.createUser({ name: "読み手", gender: "female" });
  for (const status of CANNOT_READ) {
    unreadable[status] = await api.createUser({
      name: `未確認-${status}`,
      gender: "female",
      verificationStatus: status,
    });
  }
});

describe("a member's send", () => {
  for (const status of CANNOT_READ) {
    it(`to a member whose verification is ${status}: CONFLICT before any charge, nothing written`, async () => {
      const before = await snapshotTables(api, ...TABLES);
      await expect(
        api.caller(sender).messages.send({ recipientIds: [unreadable[status].id], body: "はじめまして" }),
      ).rejects.toMatchObject(refusal);
      expect(await snapshotTables(api, ...TABLES)).toEqual(before);
      expect(await points(sender.id)).toBe(1000);
    });
  }

  it("to several, one of whom cannot read: the whole send is refused, nobody is written to", async () => {
    const before = await snapshotTables(api, ...TABLES);
    await expect(
      api.caller(sender).messages.send({ recipientIds: [reader.id, unreadable.pending.id], body: "皆さんへ" }),
    ).rejects.toMatchObject(refusal);
    expect(await snapshotTables(api, ...TABLES)).toEqual(before);
  });

  it("a reply to a member who can no longer read: refused, the original is not marked replied", async () => {
    const writer = await api.createUser({ gender: "female", points: 1000 });
    const { messageIds } = await api.caller(writer).messages.send({ recipientIds: [sender.id], body: "こんにちは" });
    await api.database.db.update(users).set({ verificationStatus: "rejected" }).where(eq(users.id, writer.id));
    const before = await snapshotTables(api, ...TABLES);
    await expect(
      api.caller(sender).messages.send({
        recipientIds: [writer.id],
        body: "お返事です",
        replyToId: messageIds[0] as string,
        markRead: true,
      }),
    ).rejects.toMatchObject(refusal);
    expect(await snapshotTables(api, ...TABLES)).toEqual(before);
  });

  it("to a verified member: sent and charged as before (the badge's member)", async () => {
    const start = (await points(sender.id)) as number;
    const result = await api.caller(sender).messages.send({ recipientIds: [reader.id], body: "よろしくお願いします" });
    expect(result).toMatchObject({ sent: 1 });
    expect(await points(sender.id)).toBe(start - result.cost);
    expect(result.cost).toBeGreaterThan(0);
  });

  it("to an administrator: unaffected by the administrator's own verification field (free, as before)", async () => {
    const staff = await api.createUser({ role: "admin", verificationStatus: "unverified" });
    await expect(
      api.caller(sender).messages.send({ recipientIds: [staff.id], body: "問い合わせ" }),
    ).resolves.toMatchObject({ sent: 1, cost: 0 });
  });
});

describe("the operator's messages", () => {
  it("still reach a member who has not verified (the operator's notices)", async () => {
    const result = await api
      .caller(admin)
      .adminMessages.send({ recipientIds: [unreadable.unverified.id], body: "年齢確認のお願い" });
    expect(result.messageIds).toHaveLength(1);
  });
});

describe("scheduled messages", () => {
  const entry = (recipientIds: string[], scheduledAt: Date) => ({
    type: "direct" as const,
    recipientIds,
    content: "予約メッセージ",
    scheduledAt,
    source: "user:sent" as const,
  });

  it("scheduling one (later, or now) to a member who cannot read: refused at once, nothing stored", async () => {
    for (const scheduledAt of [new Date(Date.now() + 60 * 60_000), new Date(Date.now() - 1000)]) {
      const before = await snapshotTables(api, ...TABLES);
      await expect(
        api.caller(sender).scheduled.create(entry([unreadable.unverified.id], scheduledAt)),
      ).rejects.toMatchObject(refusal);
      expect(await snapshotTables(api, ...TABLES)).toEqual(before);
    }
  });

  for (const careful of [false, true]) {
    it(`due to a member who can no longer read (${careful ? "per entry" : "set-based"}): that entry fails with the message and charges nothing; the others are sent`, async () => {
      await dispatchDue(api.deps);
      const owner = await api.createUser({ points: 1000 });
      const lapsing = await api.createUser({ gender: "female" });
      const later = new Date(Date.now() + 60 * 60_000);
      const toLapsing = await api.caller(owner).scheduled.create(entry([lapsing.id], later));
      const toReader = await api.caller(owner).scheduled.create(entry([reader.id], later));
      await api.database.db.update(users).set({ verificationStatus: "pending" }).where(eq(users.id, lapsing.id));
      await api.database.db
        .update(scheduledMessages)
        .set({ scheduledAt: sql`now() - interval '1 minute'` })
        .where(inArray(scheduledMessages.id, [toLapsing.id, toReader.id]));
      expect(await dispatchDue(api.deps, undefined, { careful })).toEqual({ sent: 1, failed: 1 });
      const rows = await api.database.db
        .select()
        .from(scheduledMessages)
        .where(inArray(scheduledMessages.id, [toLapsing.id, toReader.id]));
      const byId = new Map(rows.map((r) => [r.id, r]));
      expect(byId.get(toLapsing.id)).toMatchObject({ status: "failed", lastError: MSG.recipientCannotRead });
      expect(byId.get(toReader.id)).toMatchObject({ status: "sent", lastError: null });
      // One message written (to the reader), one charge for it only.
      expect(await api.database.db.select().from(messages).where(eq(messages.toUserId, lapsing.id))).toHaveLength(0);
      const [sent] = await api.database.db.select().from(messages).where(eq(messages.fromUserId, owner.id));
      expect(sent?.toUserId).toBe(reader.id);
      const [cost] = await api.database.db
        .select({ price: pointCosts.pointCost })
        .from(pointCosts)
        .where(eq(pointCosts.actionName, "send_message"));
      expect(await points(owner.id)).toBe(1000 - (cost?.price ?? Number.NaN));
    });
  }
});

describe("the public profile", () => {
  it("says whether the member's age verification is approved (the 年齢確認済み badge), nothing more", async () => {
    await api.caller(sender).members.addFavorite({ id: reader.id });
    await api.caller(sender).members.addFavorite({ id: unreadable.pending.id });
    const favorites = await api.caller(sender).members.favorites();
    const byId = new Map(favorites.map((p) => [p.id, p]));
    expect(byId.get(reader.id)?.verified).toBe(true);
    expect(byId.get(unreadable.pending.id)?.verified).toBe(false);
    // The status itself (pending, rejected) is not shown.
    expect(byId.get(unreadable.pending.id)).not.toHaveProperty("verificationStatus");
  });
});
