import {
  messages,
  pointCosts,
  pointLedger,
  pointLots,
  pointLotUsages,
  scheduledMessages,
  userBlocks,
  users,
} from "@enmusubi/db";
import { insufficientPoints, MSG } from "@enmusubi/shared";
import { and, asc, eq, inArray, like, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { changeBalance } from "../src/points/ledger";
import { prepayAction } from "../src/points/prepaid";
import { dispatchBatch, dispatchDue } from "../src/scheduled/dispatch";
import { type TestUser, useTestApi } from "./helpers";

const api = useTestApi();
let admin: TestUser;
let bob: TestUser;
let price: number;

beforeAll(async () => {
  admin = await api.createUser({ role: "admin" });
  bob = await api.createUser({ gender: "female" });
  const [row] = await api.database.db.select().from(pointCosts).where(eq(pointCosts.actionName, "send_message"));
  price = row?.pointCost ?? Number.NaN;
});

/** A due entry from `owner` to bob, inserted directly (as if its time had come). */
async function due(owner: TestUser, content: string) {
  const [row] = await api.database.db
    .insert(scheduledMessages)
    .values({
      type: "direct",
      ownerId: owner.id,
      recipients: [bob.id],
      content,
      scheduledAt: sql`now() - interval '1 minute'`,
      source: "user:favorite",
      needsPointDeduction: true,
    })
    .returning({ id: scheduledMessages.id });
  return row?.id as string;
}

const points = async (id: string) =>
  (await api.database.db.select({ p: users.points }).from(users).where(eq(users.id, id)))[0]?.p;

describe("batched dispatch", () => {
  it("one transaction sends, fails and marks a whole batch; each row once, each charge once", async () => {
    await dispatchDue(api.deps);
    const rich = await Promise.all([1, 2, 3].map(() => api.createUser({ points: 1000 })));
    const poor = await api.createUser({ points: 0 });
    const leaving = await api.createUser({ points: 1000 });
    const ids = [
      await due(rich[0] as TestUser, "バッチ 1"),
      await due(poor, "バッチ 貧"),
      await due(rich[1] as TestUser, "バッチ 2"),
      await due(leaving, "バッチ 退会"),
      await due(rich[2] as TestUser, "バッチ 3"),
    ];
    await api.caller(admin).adminUsers.delete({ id: leaving.id });
    expect(await dispatchBatch(api.deps, undefined, 10)).toEqual({ sent: 3, failed: 2 });
    expect(await dispatchBatch(api.deps, undefined, 10)).toBeNull();
    const rows = await api.database.db.select().from(scheduledMessages).where(inArray(scheduledMessages.id, ids));
    const byContent = new Map(rows.map((r) => [r.content, r]));
    for (const n of [1, 2, 3]) {
      const row = byContent.get(`バッチ ${n}`);
      expect(row).toMatchObject({ status: "sent", attempts: 1, lastError: null });
      expect(row?.sentAt).toBeInstanceOf(Date);
      expect(row?.messageIds).toHaveLength(1);
      const [message] = await api.database.db
        .select()
        .from(messages)
        .where(eq(messages.id, row?.messageIds?.[0] as string));
      expect(message).toMatchObject({ body: `バッチ ${n}`, toUserId: bob.id });
    }
    expect(byContent.get("バッチ 貧")).toMatchObject({
      status: "failed",
      attempts: 1,
      lastError: insufficientPoints(price, 0),
      messageIds: null,
    });
    expect(byContent.get("バッチ 退会")).toMatchObject({
      status: "failed",
      attempts: 1,
      lastError: MSG.scheduledSenderGone,
    });
    for (const member of rich) expect(await points(member.id)).toBe(1000 - price);
    expect(await points(poor.id)).toBe(0);
    expect(await api.database.db.select().from(messages).where(like(messages.body, "バッチ%"))).toHaveLength(3);
  });

  it("dispatchDue goes batch after batch until nothing is due", async () => {
    await dispatchDue(api.deps);
    const sender = await api.createUser({ points: 7 * price });
    for (let i = 0; i < 7; i++) await due(sender, `連続 ${i}`);
    expect(await dispatchDue(api.deps, undefined, { batch: 2 })).toEqual({ sent: 7, failed: 0 });
    expect(await points(sender.id)).toBe(0);
    expect(await api.database.db.select().from(messages).where(like(messages.body, "連続%"))).toHaveLength(7);
  });

  /**
   * The set-based path (a member's plain sends, `sendManyAsMembers`) and the per-entry path through
   * the owner's procedures (`careful`) must give the same outcome for every rule: the same world is
   * built twice and dispatched once each way.
   */
  it("sends set-based exactly as through the procedures: standing, recipients, blocks, points, credits, lots", async () => {
    const db = api.database.db;
    const carol = await api.createUser({ gender: "female" });
    async function world() {
      await dispatchDue(api.deps);
      const member = (fields: Parameters<typeof api.createUser>[0] = {}) => api.createUser({ points: 1000, ...fields });
      const gone = await api.createUser({ gender: "female" });
      const senders = {
        rich: await member(),
        toAdmin: await member({ points: 0 }),
        batch: await member(),
        unverified: await member({ verificationStatus: "pending" }),
        suspended: await member(),
        blocked: await member(),
        recipientGone: await member(),
        short: await member({ points: price - 1 }),
        twice: await member({ points: price + Math.floor(price / 2) }),
        prepaid: await member(),
        lots: await member({ points: 0 }),
      };
      await db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, senders.suspended.id));
      await db.insert(userBlocks).values({ blockerId: bob.id, blockedId: senders.blocked.id });
      await prepayAction(db, { userId: senders.prepaid.id, actionName: "send_message" });
      // Three lots: the one made last expires first, and is spent first.
      for (const [delta, paidYen] of [
        [price, 100],
        [price, undefined],
        [price, 100],
      ] as const) {
        await db.transaction((tx) =>
          changeBalance(tx, { userId: senders.lots.id, delta, kind: paidYen ? "purchase" : "initial", paidYen }),
        );
      }
      const [late, , soon] = await db
        .select({ id: pointLots.id })
        .from(pointLots)
        .where(eq(pointLots.userId, senders.lots.id))
        .orderBy(asc(pointLots.createdAt), asc(pointLots.id));
      await db
        .update(pointLots)
        .set({ expiresAt: sql`now() + interval '5 days'` })
        .where(eq(pointLots.id, soon?.id as string));
      await db
        .update(pointLots)
        .set({ expiresAt: sql`now() + interval '9 days'` })
        .where(eq(pointLots.id, late?.id as string));
      const to = (sender: TestUser, recipients: string[], n = 1) =>
        Array.from({ length: n }, () => ({ sender, recipients }));
      const entries = [
        ...to(senders.rich, [bob.id]),
        ...to(senders.toAdmin, [admin.id]),
        ...to(senders.batch, [bob.id, carol.id, admin.id]),
        ...to(senders.unverified, [bob.id]),
        ...to(senders.suspended, [bob.id]),
        ...to(senders.blocked, [bob.id]),
        ...to(senders.recipientGone, [gone.id]),
        ...to(senders.short, [bob.id]),
        ...to(senders.twice, [bob.id], 2),
        ...to(senders.prepaid, [carol.id]),
        ...to(senders.lots, [carol.id], 2),
      ];
      for (const [n, e] of entries.entries()) {
        await db.insert(scheduledMessages).values({
          type: e.recipients.length > 1 ? "batch" : "direct",
          ownerId: e.sender.id,
          recipients: e.recipients,
          content: `同値 ${String(n).padStart(2, "0")}`,
          // Distinct times: the claim order (scheduled_at, id) is the order of the entries.
          scheduledAt: sql`now() - make_interval(secs => ${600 - n})`,
          source: "user:sent",
          needsPointDeduction: true,
        });
      }
      await api.caller(admin).adminUsers.delete({ id: gone.id });
      return senders;
    }
    async function outcome(senders: Awaited<ReturnType<typeof world>>) {
      const result: Record<string, unknown> = {};
      for (const [label, sender] of Object.entries(senders)) {
        const rows = await db
          .select({
            status: scheduledMessages.status,
            lastError: scheduledMessages.lastError,
            sent: scheduledMessages.messageIds,
          })
          .from(scheduledMessages)
          .where(eq(scheduledMessages.ownerId, sender.id))
          .orderBy(asc(scheduledMessages.content));
        const sent = await db
          .select({ to: messages.toUserId })
          .from(messages)
          .where(eq(messages.fromUserId, sender.id));
        const ledger = await db
          .select({
            kind: pointLedger.kind,
            delta: pointLedger.delta,
            after: pointLedger.balanceAfter,
            quantity: pointLedger.quantity,
          })
          .from(pointLedger)
          .where(and(eq(pointLedger.userId, sender.id), eq(pointLedger.account, "points")))
          .orderBy(asc(pointLedger.createdAt), asc(pointLedger.balanceAfter));
        const lots = await db
          .select({ remaining: pointLots.remaining })
          .from(pointLots)
          .where(eq(pointLots.userId, sender.id))
          .orderBy(asc(pointLots.createdAt), asc(pointLots.id));
        const [usages] = await db
          .select({ n: sql<number>`count(*)::int` })
          .from(pointLotUsages)
          .innerJoin(pointLots, eq(pointLots.id, pointLotUsages.lotId))
          .where(eq(pointLots.userId, sender.id));
        const balance = await points(sender.id);
        const ledgerSum = ledger.reduce((sum, l) => sum + l.delta, 0);
        const lotSum = lots.reduce((sum, l) => sum + l.remaining, 0);
        expect({ label, ledgerSum, lotSum }).toEqual({ label, ledgerSum: balance, lotSum: balance });
        result[label] = {
          entries: rows.map((r) => ({ status: r.status, lastError: r.lastError, messages: r.sent?.length ?? 0 })),
          messages: sent.length,
          balance,
          ledger,
          lots: lots.map((l) => l.remaining),
          usages: usages?.n,
        };
      }
      return result;
    }
    const procedures = await world();
    expect(await dispatchDue(api.deps, undefined, { careful: true })).toEqual({ sent: 7, failed: 6 });
    const expected = await outcome(procedures);
    const setBased = await world();
    expect(await dispatchDue(api.deps)).toEqual({ sent: 7, failed: 6 });
    expect(await outcome(setBased)).toEqual(expected);
    // And what that outcome is, for the rules the comparison alone would not pin down.
    expect(expected).toMatchObject({
      rich: { balance: 1000 - price, messages: 1 },
      toAdmin: { balance: 0, messages: 1, ledger: [] },
      batch: { balance: 1000 - 2 * price, messages: 3 },
      unverified: { entries: [{ status: "failed", lastError: MSG.verificationRequired }], balance: 1000 },
      suspended: { entries: [{ status: "failed", lastError: MSG.accountSuspended }], balance: 1000 },
      blocked: { entries: [{ status: "failed", lastError: MSG.blockedEitherWay }], balance: 1000 },
      recipientGone: { entries: [{ status: "failed", lastError: MSG.recipientUnavailable }], balance: 1000 },
      short: { entries: [{ status: "failed", lastError: insufficientPoints(price, price - 1) }], messages: 0 },
      twice: {
        entries: [
          { status: "sent", lastError: null, messages: 1 },
          { status: "failed", lastError: insufficientPoints(price, Math.floor(price / 2)), messages: 0 },
        ],
        balance: Math.floor(price / 2),
      },
      prepaid: { balance: 1000 - price, messages: 1 },
      lots: { balance: price, messages: 2, lots: [0, price, 0] },
    });
  });
});
