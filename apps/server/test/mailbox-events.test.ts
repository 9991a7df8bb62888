import {
  type ApiDeps,
  createCaller,
  createContextInner,
  createLinkSigner,
  createPasswordHasher,
  createPhotoUrlSigner,
  createRecordingSms,
  createTokenService,
  ScreeningRules,
  unlimited,
} from "@enmusubi/api";
import { createTestAccount } from "@enmusubi/api/testing";
import { createDatabase, type Database } from "@enmusubi/db";
import { onPostgres, openTestDatabase, testPostgresUrl } from "@enmusubi/db/testing";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createPostgresMailboxEvents } from "../src/mailbox-events";

const silent = { warn() {} } as never;

// Two connections stand for two worker processes (or two instances) on one PostgreSQL.
describe.runIf(onPostgres)("mailbox events across processes (PostgreSQL)", () => {
  let one: Database;
  let two: Database;
  beforeAll(async () => {
    const url = testPostgresUrl as string;
    one = await createDatabase({ url, max: 1 });
    two = await createDatabase({ url, max: 1 });
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
  });

  it("a change published by one process wakes the subscribers of another, and only the members named", async () => {
    const publisher = await createPostgresMailboxEvents(one, silent);
    const listener = await createPostgresMailboxEvents(two, silent);
    const controller = new AbortController();
    const woken: string[] = [];
    const watch = async (id: string) => {
      for await (const _ of listener.changes(id, controller.signal)) woken.push(id);
    };
    // Each subscriber listens from its call (and the process from its creation): nothing to wait for.
    const watching = Promise.allSettled([watch("member-a"), watch("member-b"), watch("last")]);
    publisher.publish(["member-a", "member-a"]);
    // A later change, through the same connection: once it is heard, every wake the first caused has happened.
    await one.sql?.notify("enmusubi_mailbox", JSON.stringify(["last"]));
    const deadline = Date.now() + 5_000;
    while (!woken.includes("last") && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    await watching;
    expect(woken).toEqual(["member-a", "last"]);
  });

  it("a burst of changes: the first is sent at once, the rest of the window in one NOTIFY per kind", async () => {
    const publisher = await createPostgresMailboxEvents(one, silent);
    const payloads: string[] = [];
    const listening = await two.sql?.listen("enmusubi_mailbox", (payload) => payloads.push(payload));
    publisher.publish(["burst-a"]);
    publisher.publish(["burst-b", "burst-a"]);
    publisher.publish(["burst-c"], "balance");
    publisher.publish(["burst-b"]);
    const deadline = Date.now() + 5_000;
    while (payloads.length < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    // The window has closed (its NOTIFYs are in); a last one through the same connection comes
    // after anything more the window would have sent.
    await one.sql?.notify("enmusubi_mailbox", JSON.stringify(["last"]));
    while (payloads.at(-1) !== '["last"]' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await listening?.unlisten();
    expect(payloads.map((p) => JSON.parse(p))).toEqual([
      ["burst-a"],
      ["burst-b", "burst-a"],
      { change: "balance", ids: ["burst-c"] },
      ["last"],
    ]);
  });

  it("says what changed: a balance change crosses processes as one, a mailbox change as before", async () => {
    const publisher = await createPostgresMailboxEvents(one, silent);
    const listener = await createPostgresMailboxEvents(two, silent);
    const controller = new AbortController();
    const heard: string[] = [];
    const watching = (async () => {
      for await (const change of listener.changes("member-c", controller.signal)) heard.push(change);
    })().catch(() => {});
    publisher.publish(["member-c"], "balance");
    publisher.publish(["member-c"]);
    // A process of the previous version publishes a mailbox change as a bare array of ids.
    await one.sql?.notify("enmusubi_mailbox", JSON.stringify(["member-c"]));
    const deadline = Date.now() + 5_000;
    while (heard.length < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    await watching;
    expect(heard).toEqual(["balance", "mailbox", "mailbox"]);
  });
});

// A suspension (or deletion) handled by one instance ends the member's live-count stream
// held open by another: both hear the member's mailbox channel, and the stream re-reads the account.
describe.runIf(onPostgres)("live counts end on every instance at suspension (PostgreSQL)", () => {
  let schema: Database;
  let other: Database;
  beforeAll(async () => {
    schema = await openTestDatabase(inject("dbTemplate"));
    other = await createDatabase({ url: schema.url as string, max: 2 });
  });
  afterAll(async () => {
    await other?.close();
    await schema?.close();
  });

  it("an administrator suspends or deletes on instance one; the stream opened on instance two ends", async () => {
    const passwords = createPasswordHasher({ memoryCost: 1024, timeCost: 1 });
    const deps = async (database: Database): Promise<ApiDeps> => ({
      db: database.db,
      tokens: createTokenService("mailbox-test-secret-mailbox-test-secret-0"),
      photoUrls: createPhotoUrlSigner("mailbox-test-secret-mailbox-test-secret-0"),
      links: createLinkSigner("mailbox-test-secret-mailbox-test-secret-0"),
      passwords,
      limiter: unlimited,
      uploadsDir: "/tmp/enmusubi-mailbox-test-uploads",
      publicUrl: "http://localhost:3000",
      mailbox: await createPostgresMailboxEvents(database, silent),
      onMailQueued: () => {},
      screening: new ScreeningRules(),
      sms: createRecordingSms(),
    });
    const one = await deps(schema);
    const two = await deps(other);
    const admin = await createTestAccount(schema.db, passwords, { role: "admin" });
    for (const act of ["suspend", "delete"] as const) {
      const member = await createTestAccount(schema.db, passwords, {});
      const stream = (await createCaller(
        createContextInner(two, member.session),
      ).messages.onUnreadCount()) as AsyncIterable<{ count: number }>;
      const iterator = stream[Symbol.asyncIterator]();
      expect(await iterator.next()).toMatchObject({ done: false, value: { count: 0 } });
      // The stream listens from before its first figures: the change cannot be missed.
      const next = iterator.next();
      const asAdmin = createCaller(createContextInner(one, admin.session));
      if (act === "suspend") await asAdmin.adminModeration.suspend({ userId: member.id, reason: "テスト" });
      else await asAdmin.adminUsers.delete({ id: member.id });
      const ended = await Promise.race([next, new Promise((resolve) => setTimeout(() => resolve("still open"), 5000))]);
      expect(ended, act).toMatchObject({ done: true });
    }
  });
});
