import { createDatabase, type Database } from "@enmusubi/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresMailboxEvents } from "../src/mailbox-events";

const silent = { warn() {} } as never;

// Two connections stand for two worker processes (or two instances) on one PostgreSQL.
describe.runIf(process.env.TEST_DATABASE_URL)("mailbox events across processes (PostgreSQL)", () => {
  let one: Database;
  let two: Database;
  beforeAll(async () => {
    const url = process.env.TEST_DATABASE_URL as string;
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
    const watching = Promise.allSettled([watch("member-a"), watch("member-b")]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    publisher.publish(["member-a", "member-a"]);
    const deadline = Date.now() + 5_000;
    while (woken.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort();
    await watching;
    expect(woken).toEqual(["member-a"]);
  });
});
