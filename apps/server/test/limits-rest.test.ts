import { boardPosts, pointCosts } from "@enmusubi/db";
import { insufficientPoints, MSG } from "@enmusubi/shared";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { type RestUser, snapshotTables, useTestServer } from "./helpers";

/**
 * Reports and scheduled entries through HTTP with the server's own (database) limiter: every
 * answer is held to the OpenAPI document, refusals are Japanese and write nothing.
 */
const server = useTestServer({ limits: true });
let author: RestUser;
let bob: RestUser;
let price: number;

beforeAll(async () => {
  author = await server.createUser({ gender: "female" });
  bob = await server.createUser({ gender: "female" });
  const [row] = await server.database.db.select().from(pointCosts).where(eq(pointCosts.actionName, "send_message"));
  price = row?.pointCost ?? Number.NaN;
});

describe("POST /api/reports", () => {
  it("a burst of 15: 10 are taken (201), the rest answer 429 in Japanese and store nothing", async () => {
    const member = await server.createUser();
    const posts = await server.database.db
      .insert(boardPosts)
      .values(Array.from({ length: 15 }, (_, i) => ({ authorId: author.id, title: `投稿${i}`, content: "本文" })))
      .returning({ id: boardPosts.id });
    const codes: number[] = [];
    for (const post of posts.slice(0, 10)) {
      const res = await server.request({
        method: "POST",
        url: "/api/reports",
        as: member,
        payload: { targetType: "board_post", targetId: post.id, reason: "business" },
      });
      codes.push(res.statusCode);
    }
    expect(codes).toEqual(Array(10).fill(201));
    const before = await snapshotTables(server, "reports");
    for (const post of posts.slice(10)) {
      const res = await server.request({
        method: "POST",
        url: "/api/reports",
        as: member,
        payload: { targetType: "board_post", targetId: post.id, reason: "business" },
      });
      expect(res.statusCode).toBe(429);
      expect(res.json()).toEqual({ message: MSG.reportTooMany });
    }
    expect(await snapshotTables(server, "reports")).toEqual(before);
  });
});

describe("POST /api/scheduled-messages", () => {
  const schedule = (as: RestUser, content: string) =>
    server.request({
      method: "POST",
      url: "/api/scheduled-messages",
      as,
      payload: {
        type: "direct",
        recipients: [bob.id],
        content,
        scheduledAt: new Date(Date.now() + 3600_000).toISOString(),
        source: "user:favorite",
      },
    });

  it("a member holding 100 pt: what 100 pt pays for is scheduled, the next answers 402 with the figures", async () => {
    const member = await server.createUser({ points: 100 });
    const affordable = Math.floor(100 / price);
    for (let i = 0; i < affordable; i++) expect((await schedule(member, `予約${i}`)).statusCode).toBe(201);
    const before = await snapshotTables(server, "scheduled_messages", "point_ledger", "users");
    const refused = await schedule(member, "払えない予約");
    expect(refused.statusCode).toBe(402);
    expect(refused.json()).toEqual({
      success: false,
      message: insufficientPoints((affordable + 1) * price, 100),
      required: (affordable + 1) * price,
      available: 100,
    });
    expect(await snapshotTables(server, "scheduled_messages", "point_ledger", "users")).toEqual(before);
  });

  it("the 31st waiting entry answers 409 in Japanese and stores nothing", async () => {
    const member = await server.createUser({ points: 100_000 });
    for (let i = 0; i < 30; i++) expect((await schedule(member, `予約${i}`)).statusCode).toBe(201);
    const before = await snapshotTables(server, "scheduled_messages");
    const refused = await schedule(member, "31件目");
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ message: MSG.scheduledPendingLimit });
    expect(await snapshotTables(server, "scheduled_messages")).toEqual(before);
  });
});

describe("POST /api/account/email (decision 0038)", () => {
  const ask = (as: RestUser, newEmail: string) =>
    server.request({
      method: "POST",
      url: "/api/account/email",
      as,
      payload: { newEmail, currentPassword: as.password },
    });

  it("5 requests an hour per member, then 429 in Japanese; nothing is stored or mailed", async () => {
    const member = await server.createUser();
    for (let i = 0; i < 5; i++) expect((await ask(member, `limit-member-${i}@example.jp`)).statusCode).toBe(201);
    const before = await snapshotTables(server, "email_changes", "mail_outbox");
    const refused = await ask(member, "limit-member-5@example.jp");
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ message: MSG.tooManyRequests });
    expect(await snapshotTables(server, "email_changes", "mail_outbox")).toEqual(before);
  });

  it("3 requests an hour per new address, whoever asks", async () => {
    const askers = [await server.createUser(), await server.createUser(), await server.createUser()];
    for (const asker of askers) expect((await ask(asker, "Wanted@Example.jp")).statusCode).toBe(201);
    const fourth = await server.createUser();
    expect((await ask(fourth, "wanted@example.jp")).statusCode).toBe(429);
  });
});
