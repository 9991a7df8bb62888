import { messages, screeningHolds } from "@enmusubi/db";
import { MSG, SCREENING_MASK } from "@enmusubi/shared";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { type RestUser, snapshotTables, useTestServer } from "./helpers";

/**
 * Screening over HTTP (decision 0042): the member rows answer what tRPC answers (masked, held as
 * status held, refused in Japanese), and the administrators' rows edit the rules and decide held
 * items. Every answer is held to the OpenAPI document by the test server (contract.ts).
 */

const server = useTestServer();
let admin: RestUser;
let from: RestUser;
let to: RestUser;
const M = SCREENING_MASK;
const db = () => server.database.db;

beforeAll(async () => {
  admin = await server.createUser({ role: "admin" });
  from = await server.createUser({ points: 1000 });
  to = await server.createUser({ points: 1000 });
});

const send = (body: string) =>
  server.request({
    method: "POST",
    url: "/api/messages/recipientId",
    as: from,
    payload: { userId: to.id, content: body },
  });

describe("members' rows", () => {
  it("a message is delivered masked; a held one answers status held with the 確認中 message and shows in the thread", async () => {
    const masked = await send("ＬＩＮＥ: taro_88 で話そう");
    expect(masked.statusCode).toBe(201);
    expect(masked.json()).toMatchObject({ status: "sent", sent: 1, message: MSG.messageSent });
    const [row] = await db().select({ body: messages.body }).from(messages).where(eq(messages.fromUserId, from.id));
    expect(row?.body).toBe(`${M} で話そう`);
    const held = await send("パパ活しませんか");
    expect(held.statusCode).toBe(201);
    expect(held.json()).toMatchObject({ status: "held", sent: 0, messageIds: [], message: MSG.messageHeldForReview });
    const thread = await server.request({ method: "GET", url: `/api/messages/with/${to.id}`, as: from });
    expect(thread.statusCode).toBe(200);
    expect(thread.json().held).toEqual([expect.objectContaining({ status: "held", body: "パパ活しませんか" })]);
  });

  it("a board post is held with its status, and a refused name changes nothing", async () => {
    const post = await server.request({
      method: "POST",
      url: "/api/board",
      as: from,
      payload: { title: "割り切りで", content: "会える人" },
    });
    expect(post.statusCode).toBe(201);
    expect(post.json()).toMatchObject({ message: MSG.postHeldForReview, post: { status: "held", isMine: true } });
    const mine = await server.request({ method: "GET", url: "/api/board/my-posts", as: from });
    expect(mine.json().posts[0]).toMatchObject({ status: "held", title: "割り切りで" });
    const before = await snapshotTables(server, "users");
    const named = await server.request({
      method: "PUT",
      url: "/api/auth/profile",
      as: from,
      payload: { name: "らいんID:abc123" },
    });
    expect(named.statusCode).toBe(400);
    expect(named.json().message).toBe(MSG.screeningNameRefused);
    expect(await snapshotTables(server, "users")).toEqual(before);
  });
});

describe("administrators' rows", () => {
  it("add, change and delete a rule; members may not", async () => {
    const forbidden = await server.request({ method: "GET", url: "/api/admin/screening/rules", as: from });
    expect(forbidden.statusCode).toBe(403);
    const bad = await server.request({
      method: "POST",
      url: "/api/admin/screening/rules",
      as: admin,
      payload: { kind: "pattern", pattern: "(unclosed", category: "contact", action: "mask" },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(MSG.screeningPatternInvalid);
    const created = await server.request({
      method: "POST",
      url: "/api/admin/screening/rules",
      as: admin,
      payload: { kind: "word", pattern: "秘密結社", category: "other", action: "refuse", note: "試験" },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().rule._id as string;
    const refused = await send("秘 密 結 社 に入ろう");
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(MSG.screeningRefusedOther);
    const changed = await server.request({
      method: "PUT",
      url: `/api/admin/screening/rules/${id}`,
      as: admin,
      payload: { kind: "word", pattern: "秘密結社", category: "other", action: "mask" },
    });
    expect(changed.json().rule).toMatchObject({ action: "mask" });
    expect((await send("秘密結社に入ろう")).json()).toMatchObject({ status: "sent" });
    const list = await server.request({ method: "GET", url: "/api/admin/screening/rules?keyword=秘密", as: admin });
    expect(list.json().rules).toEqual([expect.objectContaining({ _id: id })]);
    const deleted = await server.request({ method: "DELETE", url: `/api/admin/screening/rules/${id}`, as: admin });
    expect(deleted.statusCode).toBe(200);
  });

  it("list held items, release one, reject another with a refund; a second decision is 409", async () => {
    await send("援交しよう");
    await send("円光しよう");
    const queue = await server.request({ method: "GET", url: "/api/admin/screening/held", as: admin });
    expect(queue.statusCode).toBe(200);
    const items = (queue.json().items as Array<{ _id: string; body: string; author: { _id: string } }>).filter(
      (i) => i.author._id === from.id,
    );
    const first = items.find((i) => i.body === "援交しよう")?._id as string;
    const second = items.find((i) => i.body === "円光しよう")?._id as string;
    const released = await server.request({
      method: "POST",
      url: `/api/admin/screening/held/${first}/release`,
      as: admin,
    });
    expect(released.json()).toEqual({ success: true, message: MSG.screeningReleased });
    const again = await server.request({
      method: "POST",
      url: `/api/admin/screening/held/${first}/release`,
      as: admin,
    });
    expect(again.statusCode).toBe(409);
    const noReason = await server.request({
      method: "POST",
      url: `/api/admin/screening/held/${second}/reject`,
      as: admin,
      payload: {},
    });
    expect(noReason.statusCode).toBe(400);
    const rejected = await server.request({
      method: "POST",
      url: `/api/admin/screening/held/${second}/reject`,
      as: admin,
      payload: { reason: "援助交際の勧誘" },
    });
    expect(rejected.json()).toMatchObject({ success: true, refunded: expect.any(Number) });
    const holds = await db()
      .select({ status: screeningHolds.status })
      .from(screeningHolds)
      .where(eq(screeningHolds.id, second));
    expect(holds).toEqual([{ status: "rejected" }]);
  });
});
