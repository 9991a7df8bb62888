import { forgetReferenceList } from "@enmusubi/api";
import { boardEntries, boardPosts, pointCosts } from "@enmusubi/db";
import { MSG } from "@enmusubi/shared";
import { eq, sql } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type RestUser, snapshotTables, useTestServer } from "./helpers";

/**
 * The legacy board rows of spec §7 (/api/board*), our entry rows and the administrators' rows,
 * through HTTP. Every answer is also held to the published OpenAPI document by the helpers.
 */

const server = useTestServer();
let admin: RestUser;

const PUBLIC_KEYS = [
  "_id",
  "address",
  "age",
  "annual_income",
  "createdAt",
  "gender",
  "name",
  "occupation",
  "photoLink",
  "verified",
].sort();
const SECRET_KEYS = ["email", "points", "sendPoints", "role", "birthday", "userID", "password"];
const q = (params: Record<string, string>) => new URLSearchParams(params).toString();

function expectPublic(profile: Record<string, unknown>) {
  expect(Object.keys(profile).sort()).toEqual(PUBLIC_KEYS);
  for (const key of SECRET_KEYS) expect(profile).not.toHaveProperty(key);
}

async function setViewCost(pointCost: number) {
  await server.database.db.update(pointCosts).set({ pointCost }).where(eq(pointCosts.actionName, "message_board_view"));
  // Changed by hand in SQL: this process's copy of the point costs is dropped, as a restart would (reference/cache.ts).
  forgetReferenceList(server.database.db, "point_costs");
}

beforeAll(async () => {
  admin = await server.createUser({ role: "admin", name: "管理者" });
});

describe("gating over REST", () => {
  beforeEach(() => setViewCost(10));

  it("402 with the figures until the member enters; POST /api/board/enter charges once; both /api/board and /api/board/ answer", async () => {
    const member = await server.createUser({ points: 100 });
    const before = await snapshotTables(server, "board_entries", "point_ledger", "users");
    for (const url of ["/api/board", "/api/board/"]) {
      const res = await server.request({ method: "GET", url, as: member });
      expect(res.statusCode).toBe(402);
      expect(res.json()).toEqual({ success: false, required: 10, available: 100, message: MSG.boardEntryRequired });
    }
    expect(await snapshotTables(server, "board_entries", "point_ledger", "users")).toEqual(before);

    const access = await server.request({ method: "GET", url: "/api/board/access", as: member });
    expect(access.json()).toEqual({ open: false, openUntil: null, cost: 10 });

    const entered = await server.request({ method: "POST", url: "/api/board/enter", as: member, payload: {} });
    expect(entered.statusCode).toBe(201);
    expect(entered.json()).toMatchObject({ success: true, charged: 10, remainingPoints: 90 });
    const again = await server.request({ method: "POST", url: "/api/board/enter", as: member, payload: {} });
    expect(again.json()).toMatchObject({ charged: 0, remainingPoints: 90, openUntil: entered.json().openUntil });

    for (const url of ["/api/board", "/api/board/", "/api/board/?page=2&limit=10&search=食事"]) {
      const res = await server.request({ method: "GET", url, as: member });
      expect(res.statusCode, url).toBe(200);
    }
  });

  it("the legacy deduct-points then list: the credit opens the board, charged once", async () => {
    const member = await server.createUser({ points: 100 });
    const deducted = await server.request({
      method: "POST",
      url: "/api/users/deduct-points",
      as: member,
      payload: { actionName: "message_board_view" },
    });
    expect(deducted.json()).toMatchObject({ success: true, remainingPoints: 90 });
    const res = await server.request({ method: "GET", url: "/api/board/", as: member });
    expect(res.statusCode).toBe(200);
    const entered = await server.request({ method: "POST", url: "/api/board/enter", as: member, payload: {} });
    expect(entered.json()).toMatchObject({ charged: 0, remainingPoints: 90 });
  });

  it("PUT like / dislike / read by id without an entry: the list's 402, nothing written; after an entry 200; closed again: 402", async () => {
    const author = await server.createUser({ points: 1000 });
    const created = await server.request({
      method: "POST",
      url: "/api/board",
      as: author,
      payload: { title: "窓", content: "入室してから" },
    });
    const id = created.json().post._id as string;
    const member = await server.createUser({ points: 100 });
    const rows = ["like", "dislike", "read"].map((act) => `/api/board/${id}/${act}`);
    const tables = ["board_reactions", "board_reads", "board_entries", "point_ledger", "users"];
    const before = await snapshotTables(server, ...tables);
    for (const url of rows) {
      const res = await server.request({ method: "PUT", url, as: member, payload: {} });
      expect(res.statusCode, url).toBe(402);
      expect(res.json()).toEqual({ success: false, required: 10, available: 100, message: MSG.boardEntryRequired });
    }
    expect(await snapshotTables(server, ...tables)).toEqual(before);

    await server.request({ method: "POST", url: "/api/board/enter", as: member, payload: {} });
    for (const url of rows) {
      const res = await server.request({ method: "PUT", url, as: member, payload: {} });
      expect(res.statusCode, url).toBe(200);
    }
    await server.database.db
      .update(boardEntries)
      .set({ openUntil: sql`now() - interval '1 second'` })
      .where(eq(boardEntries.userId, member.id));
    for (const url of rows) {
      const res = await server.request({ method: "PUT", url, as: member, payload: {} });
      expect(res.statusCode, url).toBe(402);
    }
  });

  it("a short balance: 402 with the catalogue's message on enter", async () => {
    const member = await server.createUser({ points: 4 });
    const res = await server.request({ method: "POST", url: "/api/board/enter", as: member, payload: {} });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({
      success: false,
      required: 10,
      available: 4,
      message: "ポイントが不足しています。必要ポイント: 10pt 所持ポイント: 4pt",
    });
  });
});

describe("posts, reactions and reads in the legacy shapes", () => {
  let author: RestUser;
  let reader: RestUser;
  beforeAll(async () => {
    await setViewCost(0);
    author = await server.createUser({ points: 1000, gender: "female", name: "投稿花子" });
    reader = await server.createUser({ points: 1000, gender: "male", name: "読者太郎" });
  });

  it("POST /api/board posts (201, charged), my-posts lists it, GET /api/board/:id lists a member's posts", async () => {
    const res = await server.request({
      method: "POST",
      url: "/api/board",
      as: author,
      payload: { title: "東京で食事", content: "東京で食事しませんか" },
    });
    expect(res.statusCode).toBe(201);
    const { post, message } = res.json();
    expect(message).toBe(MSG.postCreated);
    expect(post).toMatchObject({
      title: "東京で食事",
      readerCount: 0,
      likes: [],
      dislikes: [],
      readBy: [],
      isMine: true,
    });
    expectPublic(post.userID);

    const mine = await server.request({ method: "GET", url: "/api/board/my-posts", as: author });
    expect(mine.statusCode).toBe(200);
    expect(mine.json().posts.map((p: { _id: string }) => p._id)).toContain(post._id);
    expect(mine.json().pagination).toMatchObject({ currentPage: 1, hasPrevPage: false });

    const theirs = await server.request({ method: "GET", url: `/api/board/${author.id}`, as: reader });
    expect(theirs.json().posts.map((p: { _id: string }) => p._id)).toEqual([post._id]);
  });

  it("search, like / dislike toggles with the new lists, idempotent read, delete", async () => {
    const created = await server.request({
      method: "POST",
      url: "/api/board",
      as: author,
      payload: { title: "週末の予定", content: "鰹のたたきを食べに行きませんか" },
    });
    const id = created.json().post._id as string;

    const found = await server.request({ method: "GET", url: `/api/board/?${q({ search: "鰹" })}`, as: reader });
    expect(found.json().posts.map((p: { _id: string }) => p._id)).toEqual([id]);
    const none = await server.request({ method: "GET", url: `/api/board/?${q({ search: "鰹節" })}`, as: reader });
    expect(none.json()).toMatchObject({ posts: [], pagination: { totalPosts: 0, hasNextPage: false } });

    const liked = await server.request({ method: "PUT", url: `/api/board/${id}/like`, as: reader, payload: {} });
    expect(liked.statusCode).toBe(200);
    expect(liked.json()).toMatchObject({ likeCount: 1, dislikeCount: 0, myReaction: "like", dislikes: [] });
    expectPublic(liked.json().likes[0]);
    expect(liked.json().likes[0]._id).toBe(reader.id);
    const disliked = await server.request({ method: "PUT", url: `/api/board/${id}/dislike`, as: reader, payload: {} });
    expect(disliked.json()).toMatchObject({ likeCount: 0, dislikeCount: 1, myReaction: "dislike", likes: [] });
    const undone = await server.request({ method: "PUT", url: `/api/board/${id}/dislike`, as: reader, payload: {} });
    expect(undone.json()).toMatchObject({ likeCount: 0, dislikeCount: 0, myReaction: null });

    const read = await server.request({ method: "PUT", url: `/api/board/${id}/read`, as: reader, payload: {} });
    expect(read.json()).toEqual({ success: true, alreadyRead: false, readerCount: 1 });
    const reread = await server.request({ method: "PUT", url: `/api/board/${id}/read`, as: reader, payload: {} });
    expect(reread.json()).toEqual({ success: true, alreadyRead: true, readerCount: 1 });

    const listed = await server.request({ method: "GET", url: `/api/board/?${q({ search: "鰹" })}`, as: reader });
    const post = listed.json().posts[0];
    expect(post.readBy.map((p: { _id: string }) => p._id)).toEqual([reader.id]);
    expect(post).toMatchObject({ readerCount: 1, isRead: true, isMine: false });
    expectPublic(post.userID);

    // Someone else's post: 404 and nothing changes.
    const before = await snapshotTables(server, "board_posts");
    const refused = await server.request({ method: "DELETE", url: `/api/board/${id}`, as: reader });
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual({ message: MSG.notFound });
    expect(await snapshotTables(server, "board_posts")).toEqual(before);
    const deleted = await server.request({ method: "DELETE", url: `/api/board/${id}`, as: author });
    expect(deleted.json()).toEqual({ success: true, message: MSG.postDeleted });
    const gone = await server.request({ method: "GET", url: `/api/board/?${q({ search: "鰹" })}`, as: reader });
    expect(gone.json().posts).toEqual([]);
  });

  it("bad input: 400 with the spec's message, nothing written", async () => {
    const before = await snapshotTables(server, "board_posts", "point_ledger");
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ title: " ", content: "本文" }, MSG.postTitleContentRequired],
      [{ title: "題名" }, MSG.postTitleContentRequired],
      [{ title: "あ".repeat(101), content: "本文" }, MSG.postTitleTooLong],
    ];
    for (const [payload, message] of cases) {
      const res = await server.request({ method: "POST", url: "/api/board", as: author, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message });
    }
    for (const [query, message] of [
      ["dateFrom=2025-13-01", MSG.boardDateInvalid],
      ["dateFrom=2025-03-02&dateTo=2025-03-01", MSG.boardDateRangeInvalid],
      ["limit=51", MSG.boardSearchBadRequest],
      ["limit=0", MSG.boardSearchBadRequest],
      ["dateFrom=0000-01-01", MSG.boardDateInvalid],
      ["dateTo=2023-02-29", MSG.boardDateInvalid],
      ["page=0", MSG.boardSearchBadRequest],
    ] as const) {
      const res = await server.request({ method: "GET", url: `/api/board/?${query}`, as: reader });
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toEqual({ message });
    }
    expect(await snapshotTables(server, "board_posts", "point_ledger")).toEqual(before);
  });
});

describe("GET /api/board lists the other gender by default (decision 0040)", () => {
  let man: RestUser;
  let otherMan: RestUser;
  let woman: RestUser;
  const tag = "鱒の会";
  const titles = (res: { json(): { posts: Array<{ title: string }> } }) =>
    res
      .json()
      .posts.map((p) => p.title)
      .sort();

  beforeAll(async () => {
    await setViewCost(0);
    man = await server.createUser({ points: 1000, gender: "male" });
    otherMan = await server.createUser({ points: 1000, gender: "male" });
    woman = await server.createUser({ points: 1000, gender: "female" });
    for (const [who, title] of [
      [man, "man"],
      [otherMan, "otherMan"],
      [woman, "woman"],
    ] as const) {
      const res = await server.request({
        method: "POST",
        url: "/api/board",
        as: who,
        payload: { title, content: tag },
      });
      expect(res.statusCode).toBe(201);
    }
    await server.request({
      method: "POST",
      url: "/api/admin/board",
      as: admin,
      payload: { title: "operator", content: tag },
    });
  });

  it("answers a man women's posts and the operator's; his own and other men's with excludeSameSex=false", async () => {
    const list = (query: Record<string, string>) =>
      server.request({ method: "GET", url: `/api/board?${q({ search: tag, ...query })}`, as: man });
    expect(titles(await list({}))).toEqual(["operator", "woman"]);
    expect(titles(await list({ excludeSameSex: "true" }))).toEqual(["operator", "woman"]);
    expect(titles(await list({ excludeSameSex: "false" }))).toEqual(["man", "operator", "otherMan", "woman"]);
    const asWoman = await server.request({ method: "GET", url: `/api/board/?${q({ search: tag })}`, as: woman });
    expect(titles(asWoman)).toEqual(["man", "operator", "otherMan"]);
  });

  it("a named member's posts (GET /api/board/{id}) whatever their gender; a bad value 400 and nothing written", async () => {
    const his = await server.request({ method: "GET", url: `/api/board/${otherMan.id}`, as: man });
    expect(titles(his)).toEqual(["otherMan"]);
    const before = await snapshotTables(server, "board_posts", "board_entries", "point_ledger");
    const bad = await server.request({ method: "GET", url: `/api/board?excludeSameSex=maybe`, as: man });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ message: MSG.boardSearchBadRequest });
    expect(await snapshotTables(server, "board_posts", "board_entries", "point_ledger")).toEqual(before);
  });

  it("documents the parameter with its default", async () => {
    const doc = (await server.request({ method: "GET", url: "/api/openapi.json" })).json();
    const parameter = doc.paths["/api/board"].get.parameters.find((p: { name: string }) => p.name === "excludeSameSex");
    expect(parameter).toMatchObject({ in: "query", required: false });
    expect(JSON.stringify(parameter.schema)).toContain('"default":true');
    expect(parameter.schema.description).toMatch(/the default/);
  });
});

describe("administrators' rows", () => {
  beforeAll(() => setViewCost(0));

  it("post as the operator, list with login IDs, tiles, delete any post", async () => {
    const member = await server.createUser({ points: 1000 });
    const own = await server.request({
      method: "POST",
      url: "/api/board",
      as: member,
      payload: { title: "会員の投稿", content: "管理者に消される" },
    });
    const memberPostId = own.json().post._id as string;

    const notice = await server.request({
      method: "POST",
      url: "/api/admin/board",
      as: admin,
      payload: { title: "お知らせ", content: "運営からのお知らせです" },
    });
    expect(notice.statusCode).toBe(201);
    expect(notice.json().post).toMatchObject({ byOperator: true, userID: { _id: "operator", name: "運営事務局" } });

    const seen = await server.request({ method: "GET", url: "/api/board/", as: member });
    const operatorPost = seen.json().posts.find((p: { _id: string }) => p._id === notice.json().post._id);
    expect(operatorPost).toMatchObject({ byOperator: true, userID: { _id: "operator", name: "運営事務局" } });

    const listed = await server.request({
      method: "GET",
      url: `/api/admin/board?${q({ userID: member.userID })}`,
      as: admin,
    });
    expect(listed.json().posts.map((p: { _id: string }) => p._id)).toEqual([memberPostId]);
    expect(listed.json().posts[0].userID.userID).toBe(member.userID);

    const stats = await server.request({ method: "GET", url: "/api/admin/board/stats", as: admin });
    expect(stats.json().totalPosts).toBeGreaterThanOrEqual(2);

    const deleted = await server.request({ method: "DELETE", url: `/api/admin/board/${memberPostId}`, as: admin });
    expect(deleted.json()).toEqual({ success: true, message: MSG.postDeleted });
    const [row] = await server.database.db.select().from(boardPosts).where(eq(boardPosts.id, memberPostId));
    expect(row?.deletedAt).not.toBeNull();

    const forbidden = await server.request({ method: "GET", url: "/api/admin/board/stats", as: member });
    expect(forbidden.statusCode).toBe(403);
    const memberRow = await server.request({ method: "GET", url: "/api/board/", as: admin });
    expect(memberRow.statusCode).toBe(403);
  });
});
