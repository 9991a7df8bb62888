import { boardPosts, pointCosts, users } from "@enmusubi/db";
import { MSG } from "@enmusubi/shared";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { AUDIENCE, nextChunk } from "../src/board/listing";
import { visibleTo } from "../src/board/model";
import { forgetReferenceList } from "../src/reference/cache";
import { type TestUser, useTestApi } from "./helpers";

/**
 * The board lists the other gender's posts by default, as the profile search does (decision 0040):
 * a man sees women's posts and the operator's, his own and other men's only with
 * excludeSameSex: false. The same on each of the walk's paths: the live posts, a keyword's gram, a poster.
 */
const api = useTestApi();
let taro: TestUser;
let jiro: TestUser;
let hanako: TestUser;
let yoko: TestUser;
let admin: TestUser;

const titles = (page: { posts: Array<{ title: string }> }) => page.posts.map((p) => p.title).sort();

beforeAll(async () => {
  await api.database.db.update(pointCosts).set({ pointCost: 0 }).where(eq(pointCosts.actionName, "message_board_view"));
  forgetReferenceList(api.database.db, "point_costs");
  taro = await api.createUser({ name: "太郎", points: 1000 });
  jiro = await api.createUser({ name: "次郎", points: 1000 });
  hanako = await api.createUser({ name: "花子", gender: "female", points: 1000 });
  yoko = await api.createUser({ name: "洋子", gender: "female", points: 1000 });
  admin = await api.createUser({ role: "admin" });
  await api.caller(taro).board.create({ title: "taro", content: "性別の話 太郎" });
  await api.caller(jiro).board.create({ title: "jiro", content: "性別の話 次郎" });
  await api.caller(hanako).board.create({ title: "hanako", content: "性別の話 花子" });
  await api.caller(admin).adminBoard.create({ title: "operator", content: "性別の話 運営" });
  // A post written straight into the table (any writer): its author's gender comes from the trigger.
  await api.database.db.insert(boardPosts).values({ authorId: yoko.id, title: "yoko", content: "性別の話 洋子" });
});

describe("the board's other-gender default (decision 0040)", () => {
  it("shows a man women's posts and the operator's by default, not his own nor other men's", async () => {
    const board = api.caller(taro).board;
    expect(titles(await board.list({}))).toEqual(["hanako", "operator", "yoko"]);
    expect(titles(await board.list({ keyword: "性別" }))).toEqual(["hanako", "operator", "yoko"]);
    expect(titles(await board.list({ posterUserID: jiro.id }))).toEqual([]);
    expect(titles(await board.list({ posterUserID: hanako.id }))).toEqual(["hanako"]);
    expect(titles(await board.list({ posterUserID: "次郎" }))).toEqual([]);
    expect((await board.list({})).pagination.totalPosts).toBe(3);
  });

  it("shows a man his own and other men's posts with excludeSameSex: false", async () => {
    const board = api.caller(taro).board;
    const all = ["hanako", "jiro", "operator", "taro", "yoko"];
    expect(titles(await board.list({ excludeSameSex: false }))).toEqual(all);
    expect(titles(await board.list({ keyword: "性別", excludeSameSex: false }))).toEqual(all);
    expect(titles(await board.list({ posterUserID: jiro.id, excludeSameSex: false }))).toEqual(["jiro"]);
    expect(titles(await board.list({ posterUserID: "次郎", excludeSameSex: false }))).toEqual(["jiro"]);
  });

  it("shows a woman men's posts and the operator's by default", async () => {
    const board = api.caller(yoko).board;
    expect(titles(await board.list({}))).toEqual(["jiro", "operator", "taro"]);
    expect(titles(await board.list({ keyword: "性別の話" }))).toEqual(["jiro", "operator", "taro"]);
    expect(titles(await board.list({ excludeSameSex: false }))).toEqual(["hanako", "jiro", "operator", "taro", "yoko"]);
  });

  it("keeps my own posts in my list, whatever the default", async () => {
    expect(titles(await api.caller(taro).board.myPosts())).toEqual(["taro"]);
  });

  it("leaves the administrators' list whole", async () => {
    const page = await api.caller(admin).adminBoard.list({ page: 1 });
    expect(titles(page)).toEqual(["hanako", "jiro", "operator", "taro", "yoko"]);
  });

  it("follows an author's gender when it changes (a correction by hand in SQL)", async () => {
    await api.database.db.update(users).set({ gender: "female" }).where(eq(users.id, jiro.id));
    expect(titles(await api.caller(taro).board.list({}))).toEqual(["hanako", "jiro", "operator", "yoko"]);
    await api.database.db.update(users).set({ gender: "male" }).where(eq(users.id, jiro.id));
    expect(titles(await api.caller(taro).board.list({}))).toEqual(["hanako", "operator", "yoko"]);
  });

  it("reads the viewer's partial index newest first, with no sort (EXPLAIN; the plan at scale is the bench's)", async () => {
    // On tables this small a sequential scan is cheaper, so only the other ways are switched off:
    // what this proves is that the walk's own statement matches the index's predicate.
    for (const [gender, index] of [
      ["male", "board_posts_live_not_male_created_idx"],
      ["female", "board_posts_live_not_female_created_idx"],
    ] as const) {
      const plan = await api.database.db.transaction(async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`);
        await tx.execute(sql`set local enable_bitmapscan = off`);
        await tx.execute(sql`set local enable_sort = off`);
        const scope = { where: visibleTo(taro.id), audience: AUDIENCE[gender] };
        const chunk = nextChunk(tx, undefined, scope, scope.where, undefined, 1001, true);
        const result = (await tx.execute(sql`explain ${chunk}`)) as unknown;
        const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<
          Record<string, string>
        >;
        return rows.map((r) => Object.values(r)[0]).join("\n");
      });
      expect(plan).toMatch(new RegExp(`Index Scan Backward using ${index} on board_posts`));
      expect(plan).not.toMatch(/Sort/);
    }
  });

  it("refuses an excludeSameSex that is not a boolean, in Japanese", async () => {
    await expect(api.caller(taro).board.list({ excludeSameSex: "no" as never })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: MSG.boardSearchBadRequest,
    });
  });
});
