import { boardPostGrams, boardPosts, pointCosts } from "@enmusubi/db";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { forgetReferenceList } from "../src/reference/cache";
import { type TestUser, useTestApi } from "./helpers";

/**
 * Board search as members type it: several words separated by spaces must all occur,
 * in any order, in the title or the content; hiragana and katakana match each other, as full and
 * half width already do (migration 0027, search/grams.ts).
 */
const api = useTestApi();
let searcher: TestUser;
const ids: Record<string, string> = {};
const titles = (posts: Array<{ id: string }>) =>
  posts.map((p) => Object.entries(ids).find(([, id]) => id === p.id)?.[0] ?? "other");
const search = (keyword: string) =>
  api
    .caller(searcher)
    .board.list({ keyword })
    .then((r) => titles(r.posts));

async function insertPost(author: TestUser, title: string, content: string, createdAt: Date) {
  const [post] = await api.database.db
    .insert(boardPosts)
    .values({ authorId: author.id, title, content, createdAt })
    .returning({ id: boardPosts.id });
  return post?.id as string;
}

beforeAll(async () => {
  await api.database.db.update(pointCosts).set({ pointCost: 0 }).where(eq(pointCosts.actionName, "message_board_view"));
  forgetReferenceList(api.database.db, "point_costs");
  searcher = await api.createUser({ gender: "male" });
  const author = await api.createUser({ gender: "female", name: "鵺野" });
  // Rare characters (鵺, 鶚, 鵯) keep these posts apart from other tests' posts.
  ids.both = await insertPost(author, "鵺の渋谷", "渋谷でランチしませんか", new Date("2025-04-01T03:00:00Z"));
  ids.split = await insertPost(author, "鵺の渋谷", "週末は新宿で鵺ランチ", new Date("2025-04-02T03:00:00Z"));
  ids.one = await insertPost(author, "鵺の会", "渋谷で飲み", new Date("2025-04-03T03:00:00Z"));
  ids.cafe = await insertPost(author, "鶚カフェ", "ｶﾌｪ巡り", new Date("2025-04-04T03:00:00Z"));
  ids.hira = await insertPost(author, "鵯", "らんちにいきましょう", new Date("2025-04-05T03:00:00Z"));
});

describe("board search words", () => {
  it("finds a post holding every word, wherever each is (title or content), in any order", async () => {
    expect(await search("渋谷 ランチ")).toEqual(["split", "both"]);
    expect(await search("ランチ 渋谷")).toEqual(["split", "both"]);
    expect(await search("鵺　渋谷　ランチ")).toEqual(["split", "both"]); // full-width spaces
    expect(await search("渋谷 飲み")).toEqual(["one"]);
    expect(await search("渋谷 鶚")).toEqual([]);
    expect(await search("  渋谷   渋谷 ")).toEqual(["one", "split", "both"]);
  });

  it("matches hiragana and katakana either way, full and half width alike", async () => {
    expect(await search("鶚かふぇ")).toEqual(["cafe"]);
    expect(await search("かふぇ巡り")).toEqual(["cafe"]);
    expect(await search("ランチニ")).toEqual(["hira"]);
    expect(await search("らんち 渋谷")).toEqual(["split", "both"]);
  });

  it("keeps the gram index in step: a post's grams hold the folded text, and an edit re-folds it", async () => {
    const grams = await api.database.db
      .select({ gram: boardPostGrams.gram })
      .from(boardPostGrams)
      .where(eq(boardPostGrams.postId, ids.hira as string));
    expect(grams.map((g) => g.gram)).toEqual(expect.arrayContaining(["ラ", "ラン"]));
    expect(grams.map((g) => g.gram)).not.toContain("ら");
    await api.database.db
      .update(boardPosts)
      .set({ content: "ごはんにいきましょう" })
      .where(eq(boardPosts.id, ids.hira as string));
    expect(await search("ゴハン")).toEqual(["hira"]);
    expect(await search("ランチニ")).toEqual([]);
    const [row] = await api.database.db
      .select({ text: boardPosts.searchText })
      .from(boardPosts)
      .where(eq(boardPosts.id, ids.hira as string));
    expect(row?.text).toBe(`鵯${String.fromCharCode(31)}ゴハンニイキマショウ`);
  });
});
