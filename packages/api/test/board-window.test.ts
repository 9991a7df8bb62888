import { boardEntries, pointCosts, users } from "@enmusubi/db";
import { MSG } from "@enmusubi/shared";
import { eq, sql } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { prepayAction } from "../src/points/prepaid";
import { forgetReferenceList } from "../src/reference/cache";
import { snapshotTables, type TestUser, useTestApi } from "./helpers";

/**
 * The board's entry window covers likes, dislikes and reads too. A member who never
 * entered (or whose window closed) cannot react to or read a post by its id: the list's refusal
 * (402, boardEntryRequired), nothing written.
 */
const api = useTestApi();
const TABLES = ["board_reactions", "board_reads", "board_entries", "point_ledger", "prepaid_actions", "users"];

async function setViewCost(pointCost: number) {
  await api.database.db.update(pointCosts).set({ pointCost }).where(eq(pointCosts.actionName, "message_board_view"));
  forgetReferenceList(api.database.db, "point_costs");
}

async function points(user: TestUser) {
  const [row] = await api.database.db.select({ points: users.points }).from(users).where(eq(users.id, user.id));
  return row?.points;
}

const refused = { code: "PAYMENT_REQUIRED", message: MSG.boardEntryRequired };

describe("the board window covers likes, dislikes and reads", () => {
  let author: TestUser;
  let postId: string;
  beforeAll(async () => {
    author = await api.createUser({ points: 1000 });
    postId = (await api.caller(author).board.create({ title: "窓の外", content: "いいねできる？" })).id;
  });
  beforeEach(async () => {
    await setViewCost(10);
  });

  const actions = (member: TestUser): Array<[string, () => Promise<unknown>]> => [
    ["like", () => api.caller(member).board.react({ id: postId, kind: "like" })],
    ["dislike", () => api.caller(member).board.react({ id: postId, kind: "dislike" })],
    ["read", () => api.caller(member).board.read({ id: postId })],
  ];

  it("a member who never entered cannot like, dislike or read by id: 402 as the list, nothing written", async () => {
    const member = await api.createUser({ points: 100 });
    const before = await snapshotTables(api, ...TABLES);
    await expect(api.caller(member).board.list({})).rejects.toMatchObject(refused);
    for (const [name, call] of actions(member)) {
      await expect(call(), name).rejects.toMatchObject({
        ...refused,
        cause: { details: { success: false, required: 10, available: 100 } },
      });
    }
    expect(await snapshotTables(api, ...TABLES)).toEqual(before);
    expect(await points(member)).toBe(100);
  });

  it("after an entry they can; once the window closes they cannot (nothing written), until they enter again", async () => {
    const member = await api.createUser({ points: 100 });
    await api.caller(member).board.enter();
    expect(await api.caller(member).board.react({ id: postId, kind: "like" })).toMatchObject({ myReaction: "like" });
    expect(await api.caller(member).board.react({ id: postId, kind: "dislike" })).toMatchObject({
      myReaction: "dislike",
    });
    expect(await api.caller(member).board.read({ id: postId })).toMatchObject({ alreadyRead: false });
    expect(await points(member)).toBe(90);

    await api.database.db
      .update(boardEntries)
      .set({ openUntil: sql`now() - interval '1 second'` })
      .where(eq(boardEntries.userId, member.id));
    const before = await snapshotTables(api, ...TABLES);
    for (const [name, call] of actions(member)) await expect(call(), name).rejects.toMatchObject(refused);
    expect(await snapshotTables(api, ...TABLES)).toEqual(before);

    await api.caller(member).board.enter();
    expect(await api.caller(member).board.read({ id: postId })).toMatchObject({ alreadyRead: true });
    expect(await points(member)).toBe(80);
  });

  it("is open without an entry when viewing is free", async () => {
    await setViewCost(0);
    const member = await api.createUser({ points: 0 });
    expect(await api.caller(member).board.react({ id: postId, kind: "like" })).toMatchObject({ myReaction: "like" });
    expect(await api.caller(member).board.read({ id: postId })).toMatchObject({ alreadyRead: false });
  });

  it("my own posts are not gated (as my own list is not)", async () => {
    const mine = (await api.caller(author).board.create({ title: "自分の投稿", content: "既読にする" })).id;
    const member = api.caller(author).board;
    expect(await member.read({ id: mine })).toMatchObject({ alreadyRead: false });
    expect(await member.react({ id: mine, kind: "like" })).toMatchObject({ myReaction: "like" });
    await expect(member.react({ id: postId, kind: "like" })).resolves.toBeDefined();
  });

  it("an unknown post is NOT_FOUND before the window is asked (a prepaid credit is not used for it)", async () => {
    const member = await api.createUser({ points: 100 });
    await prepayAction(api.database.db, { userId: member.id, actionName: "message_board_view" });
    const before = await snapshotTables(api, ...TABLES);
    const unknown = "00000000-0000-4000-8000-000000000000";
    await expect(api.caller(member).board.read({ id: unknown })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await snapshotTables(api, ...TABLES)).toEqual(before);
    // The legacy deduct-then-act: the credit opens the window, as it does for the list.
    expect(await api.caller(member).board.read({ id: postId })).toMatchObject({ alreadyRead: false });
    expect(await points(member)).toBe(90);
  });
});
