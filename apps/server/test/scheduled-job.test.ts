import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createCaller, createContextInner, unlimited } from "@enmusubi/api";
import { createTestAccount } from "@enmusubi/api/testing";
import { type Database, messages, scheduledMessages } from "@enmusubi/db";
import { openTestDatabase } from "@enmusubi/db/testing";
import { SCHEDULER_POLL_MS } from "@enmusubi/shared";
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { buildApp } from "../src/app";
import { loadConfig } from "../src/config";
import { testPasswords } from "./helpers";

/** The whole server with its jobs on: a due scheduled message is sent by the 5 s loop, with no client open. */

let app: FastifyInstance;
let database: Database;

beforeAll(async () => {
  database = await openTestDatabase(inject("dbTemplate"));
  const config = {
    ...loadConfig({
      NODE_ENV: "test",
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "enmusubi-job-test-")),
      JWT_SECRET: "server-test-secret-server-test-secret-0123",
      LOG_LEVEL: "silent",
    }),
    jobs: true,
  };
  app = await buildApp(config, { database, logger: false, passwords: testPasswords, limiter: unlimited });
  await app.ready();
}, 60_000);

afterAll(async () => {
  await app?.close();
  await database?.close();
});

describe("the scheduled-message job", () => {
  it("sends a due entry within one poll", { timeout: 30_000 }, async () => {
    const sender = await createTestAccount(database.db, testPasswords, { points: 500 });
    const recipient = await createTestAccount(database.db, testPasswords, { gender: "female" });
    const caller = createCaller(createContextInner(app.deps, sender.session));
    const entry = await caller.scheduled.create({
      type: "direct",
      recipientIds: [recipient.id],
      content: "ジョブが送る予約",
      scheduledAt: new Date(Date.now() + 3600_000),
      source: "user:favorite",
    });
    await database.db
      .update(scheduledMessages)
      .set({ scheduledAt: sql`now() - interval '1 second'` })
      .where(eq(scheduledMessages.id, entry.id));
    const deadline = Date.now() + 3 * SCHEDULER_POLL_MS;
    let status = "pending";
    while (status === "pending" && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const [row] = await database.db.select().from(scheduledMessages).where(eq(scheduledMessages.id, entry.id));
      status = row?.status ?? "missing";
    }
    expect(status).toBe("sent");
    const sent = await database.db.select().from(messages).where(eq(messages.body, "ジョブが送る予約"));
    expect(sent).toHaveLength(1);
  });
});
