import { scheduledMessages, users } from "@enmusubi/db";
import { MSG, type VerificationStatus } from "@enmusubi/shared";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { resolveSession } from "../src/auth/session";
import { appRouter } from "../src/root";
import { snapshotTables, type TestUser, useTestApi } from "./helpers";

/**
 * The gating matrix of 出会い系サイト規制法 art. 11 (decision 0006): each of the four acts (send a
 * message, read another member's message, read the board, post on the board) × each standing
 * (unverified, pending, rejected, verified, suspended). Only a verified member may; the others get
 * FORBIDDEN with the message pointing to /user/verification, except a suspended account, whose
 * token is refused outright (UNAUTHORIZED).
 */

const api = useTestApi();
const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { meta?: Record<string, unknown> } }>;

type Standing = VerificationStatus | "suspended";
const STANDINGS: Standing[] = ["unverified", "pending", "rejected", "verified", "suspended"];

let admin: TestUser;
let peer: TestUser;
const subjects = {} as Record<Standing, TestUser>;
/** A message from `peer` (a verified member) and one from the administrator, to each subject. */
const fromPeer = {} as Record<Standing, string>;
const fromAdmin = {} as Record<Standing, string>;

beforeAll(async () => {
  admin = await api.createUser({ role: "admin", name: "運営" });
  peer = await api.createUser({ name: "送り手", gender: "female", points: 10_000 });
  for (const standing of STANDINGS) {
    // Verified while the messages are written (nobody may write to a member who cannot read,
    // decision 0025), then set to the standing under test.
    subjects[standing] = await api.createUser({ name: `会員-${standing}`, points: 10_000 });
    const member = await api.caller(peer).messages.send({ recipientIds: [subjects[standing].id], body: "こんにちは" });
    fromPeer[standing] = member.messageIds[0] as string;
    const staff = await api
      .caller(admin)
      .adminMessages.send({ recipientIds: [subjects[standing].id], body: "運営より" });
    fromAdmin[standing] = staff.messageIds[0] as string;
    if (standing !== "suspended" && standing !== "verified")
      await api.database.db
        .update(users)
        .set({ verificationStatus: standing })
        .where(eq(users.id, subjects[standing].id));
  }
  await api.database.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, subjects.suspended.id));
  // Active now, as members making requests are: a never-active member's first request records its
  // activity (decision 0038), a write of the session read, not of the act the snapshots compare.
  await api.database.db.update(users).set({ lastActiveAt: sql`now()` });
});

/** The caller a request with this member's token gets: a suspended account's token resolves to nobody. */
async function callerFor(standing: Standing) {
  const user = subjects[standing];
  const token = await api.deps.tokens.sign({ sub: user.id, role: "user", tv: 0 });
  const session = await resolveSession(api.deps, `Bearer ${token}`);
  return api.caller(session ? { ...user, session } : null);
}

type Act = (standing: Standing) => Promise<unknown>;
const ACTS: Array<[string, Act]> = [
  [
    "send a message",
    async (s) => (await callerFor(s)).messages.send({ recipientIds: [peer.id], body: "はじめまして" }),
  ],
  ["read another member's message", async (s) => (await callerFor(s)).messages.get({ id: fromPeer[s] })],
  [
    "read the board",
    async (s) => {
      // Reading costs an entry when message_board_view is above 0 (board.enter, refused first when not verified).
      const caller = await callerFor(s);
      await caller.board.enter();
      return caller.board.list({});
    },
  ],
  [
    "post on the board",
    async (s) => (await callerFor(s)).board.create({ title: "はじめまして", content: "よろしくお願いします" }),
  ],
];

describe("the four acts × standing", () => {
  for (const [act, run] of ACTS) {
    for (const standing of STANDINGS) {
      const outcome =
        standing === "verified" ? "allowed" : standing === "suspended" ? "UNAUTHORIZED" : "FORBIDDEN (verify first)";
      it(`${act} — ${standing}: ${outcome}`, async () => {
        if (standing === "verified") {
          await expect(run(standing)).resolves.toBeDefined();
          return;
        }
        const before = await snapshotTables(api, "messages", "point_ledger", "users");
        const expected =
          standing === "suspended"
            ? { code: "UNAUTHORIZED", message: MSG.unauthorized }
            : { code: "FORBIDDEN", message: MSG.verificationRequired };
        await expect(run(standing)).rejects.toMatchObject(expected);
        // Refused before anything is charged or written.
        expect(await snapshotTables(api, "messages", "point_ledger", "users")).toEqual(before);
      });
    }
  }
});

describe("receiving while not verified", () => {
  for (const standing of ["unverified", "pending", "rejected"] as const) {
    it(`${standing}: members' messages are listed locked, administrators' stay readable`, async () => {
      const caller = await callerFor(standing);
      const inbox = await caller.messages.list({ box: "inbox" });
      const member = inbox.messages.find((m) => m.id === fromPeer[standing]);
      const staff = inbox.messages.find((m) => m.id === fromAdmin[standing]);
      expect(member).toMatchObject({ locked: true, body: MSG.lockedMessageNotice, from: { id: peer.id } });
      expect(staff).toMatchObject({ locked: false, body: "運営より" });
      // The unread count still counts the locked one, so the member knows something waits.
      expect((await caller.messages.unreadCount()).count).toBe(2);
      await expect(caller.messages.get({ id: fromAdmin[standing] })).resolves.toMatchObject({ body: "運営より" });
      await expect(caller.messages.markRead({ id: fromAdmin[standing] })).resolves.toEqual({ success: true });
      const before = await snapshotTables(api, "messages");
      await expect(caller.messages.markRead({ id: fromPeer[standing] })).rejects.toMatchObject({
        code: "FORBIDDEN",
        message: MSG.verificationRequired,
      });
      expect(await snapshotTables(api, "messages")).toEqual(before);
      // Someone else's message stays NOT_FOUND (the gate does not reveal it exists).
      await expect(caller.messages.markRead({ id: fromPeer.verified })).rejects.toMatchObject({ code: "NOT_FOUND" });
    });
  }

  it("verified: the same messages are open", async () => {
    const caller = await callerFor("verified");
    const inbox = await caller.messages.list({ box: "inbox" });
    // Open to a verified member: not locked, but sealed until opened (unread_mail_view, decision 0027).
    expect(inbox.messages.find((m) => m.id === fromPeer.verified)).toMatchObject({
      locked: false,
      sealed: true,
      preview: "こん…",
    });
  });

  it("approval opens them at once (the standing is read on every call)", async () => {
    // A message waiting for a pending member: written before the standing changed, since nobody may
    // write to a member who cannot read (decision 0025).
    const member = await api.createUser();
    const { messageIds } = await api.caller(peer).messages.send({ recipientIds: [member.id], body: "待っています" });
    await api.database.db.update(users).set({ verificationStatus: "pending" }).where(eq(users.id, member.id));
    const id = messageIds[0] as string;
    await expect(api.caller(member).messages.get({ id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await api.database.db.update(users).set({ verificationStatus: "verified" }).where(eq(users.id, member.id));
    await expect(api.caller(member).messages.get({ id })).resolves.toMatchObject({
      sealed: true,
      preview: "待って…",
    });
    await expect(api.caller(member).messages.open({ id })).resolves.toMatchObject({
      message: { body: "待っています" },
    });
  });

  it("a member's own sent messages stay readable whatever the standing (sent as them by an administrator)", async () => {
    const member = await api.createUser({ verificationStatus: "unverified" });
    const { messageId } = await api
      .caller(admin)
      .adminMessages.sendAsUser({ fromUserId: member.id, toUserId: peer.id, body: "代理送信" });
    const sent = await api.caller(member).messages.list({ box: "sent" });
    expect(sent.messages.find((m) => m.id === messageId)).toMatchObject({ locked: false, body: "代理送信" });
  });
});

describe("scheduled messages of a member who is not verified", () => {
  it("are refused when scheduled, and fail at send time with the Japanese message", async () => {
    const member = await api.createUser({ verificationStatus: "unverified", points: 1000 });
    const later = new Date(Date.now() + 60 * 60_000);
    for (const scheduledAt of [later, new Date(Date.now() - 1000)]) {
      await expect(
        api.caller(member).scheduled.create({
          type: "direct",
          recipientIds: [peer.id],
          content: "予約",
          scheduledAt,
          source: "user:sent",
        }),
      ).rejects.toMatchObject({ code: "FORBIDDEN", message: MSG.verificationRequired });
    }
    // Scheduled while verified, then no longer verified when it is due: it fails, nothing is charged.
    const verified = await api.createUser({ points: 1000 });
    const entry = await api.caller(verified).scheduled.create({
      type: "direct",
      recipientIds: [peer.id],
      content: "予約",
      scheduledAt: later,
      source: "user:sent",
    });
    await api.database.db.update(users).set({ verificationStatus: "rejected" }).where(eq(users.id, verified.id));
    // The hour passes: the entry is due.
    await api.database.db
      .update(scheduledMessages)
      .set({ scheduledAt: sql`now() - interval '1 second'` })
      .where(eq(scheduledMessages.id, entry.id));
    const { dispatchDue } = await import("../src/scheduled/dispatch");
    await dispatchDue(api.deps);
    const [row] = await api.caller(verified).scheduled.list({});
    expect(row).toMatchObject({ id: entry.id, status: "failed", lastError: MSG.verificationRequired });
    const [balance] = await api.database.db
      .select({ points: users.points })
      .from(users)
      .where(eq(users.id, verified.id));
    expect(balance?.points).toBe(1000);
  });
});

describe("procedures that require verification", () => {
  it("carry meta.requiresVerification, and only they", () => {
    const gated = Object.entries(procedures)
      .filter(([, p]) => p._def.meta?.requiresVerification)
      .map(([name]) => name)
      .sort();
    const expected = ["messages.send", "board.enter", "board.list", "board.create", "board.read", "board.react"];
    expect(gated).toEqual(expect.arrayContaining(expected));
    // Nothing for administrators, and nothing a member needs to get verified, is gated.
    for (const name of gated) {
      expect(name.startsWith("admin")).toBe(false);
      expect(name.startsWith("verification.")).toBe(false);
      expect(name.startsWith("auth.")).toBe(false);
    }
    expect(procedures["messages.send"]?._def.meta).toMatchObject({
      requiresVerification: true,
      paidAction: "send_message",
    });
  });
});
