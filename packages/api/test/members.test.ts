import { annualIncomes, favorites, occupations } from "@enmusubi/db";
import { onPostgres } from "@enmusubi/db/testing";
import { yearsBefore } from "@enmusubi/shared";
import { TRPCError } from "@trpc/server";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { searchMembers } from "../src/members/search";
import { snapshotTables, type TestUser, useTestApi } from "./helpers";

const api = useTestApi();

const PUBLIC_KEYS = [
  "age",
  "annualIncome",
  "createdAt",
  "gender",
  "id",
  "name",
  "occupation",
  "photoLink",
  "prefecture",
  "verified",
].sort();
const SECRET_KEYS = ["email", "points", "sendPoints", "role", "birthday", "userID", "userId", "passwordHash"];

function expectPublic(profile: object, extra: string[] = []) {
  expect(Object.keys(profile).sort()).toEqual([...PUBLIC_KEYS, ...extra].sort());
  for (const key of SECRET_KEYS) expect(profile).not.toHaveProperty(key);
}

const japanese = /[\u3040-\u30ff\u4e00-\u9fff]/;

let admin: TestUser;
let occupationIds: string[];
let incomeIds: string[];

beforeAll(async () => {
  admin = await api.createUser({ role: "admin" });
  occupationIds = (await api.database.db.select({ id: occupations.id }).from(occupations)).map((r) => r.id);
  incomeIds = (await api.database.db.select({ id: annualIncomes.id }).from(annualIncomes)).map((r) => r.id);
  expect(occupationIds.length).toBeGreaterThan(1);
  expect(incomeIds.length).toBeGreaterThan(1);
});

let tagCounter = 0;
/** A name tag unique to one test, so its search sees only its own members. */
const newTag = () => `探${++tagCounter}x${Math.random().toString(36).slice(2, 6)}`;

const day = (n: number) => new Date(Date.UTC(2025, 0, 1) + n * 86_400_000);

describe("members.search", () => {
  it("finds live members of the other gender, newest registered first, never the searcher, administrators or deleted members", async () => {
    const tag = newTag();
    const me = await api.createUser({ gender: "male", name: `${tag}自分` });
    const older = await api.createUser({ gender: "female", name: `${tag}花子`, createdAt: day(1) });
    const newer = await api.createUser({ gender: "female", name: `${tag}桜`, createdAt: day(2) });
    const man = await api.createUser({ gender: "male", name: `${tag}太郎`, createdAt: day(3) });
    await api.createUser({ gender: "female", name: `${tag}管理`, role: "admin" });
    const gone = await api.createUser({ gender: "female", name: `${tag}退会` });
    await api.caller(admin).adminUsers.delete({ id: gone.id });

    const result = await api.caller(me).members.search({ keyword: tag, order: "newest" });
    expect(result.profiles.map((p) => p.id)).toEqual([newer.id, older.id]);
    expect(result).toMatchObject({ total: 2, page: 1, limit: 20, totalPages: 1 });

    const both = await api.caller(me).members.search({ keyword: tag, excludeSameSex: false, order: "newest" });
    expect(both.profiles.map((p) => p.id)).toEqual([man.id, newer.id, older.id]);

    const asWoman = await api.caller(newer).members.search({ keyword: tag, order: "newest" });
    expect(asWoman.profiles.map((p) => p.id)).toEqual([me.id, man.id]);
  });

  it("answers the public shape only, with isFavorite", async () => {
    const tag = newTag();
    const me = await api.createUser({ gender: "male" });
    const she = await api.createUser({
      gender: "female",
      name: `${tag}公開`,
      birthday: "1995-04-01",
      address: "東京都",
      photoLink: "/uploads/photos/0123456789abcdef0123456789abcdef.jpg",
      occupationId: occupationIds[0],
      annualIncomeId: incomeIds[0],
    });
    const { profiles } = await api.caller(me).members.search({ keyword: tag });
    expect(profiles).toHaveLength(1);
    const [p] = profiles;
    expectPublic(p as object, ["isFavorite"]);
    expect(p).toMatchObject({ id: she.id, gender: "female", prefecture: "東京都", isFavorite: false });
    expect(p?.age).toBeGreaterThanOrEqual(30);
    expect(p?.occupation?.id).toBe(occupationIds[0]);
    expect(p?.annualIncome?.id).toBe(incomeIds[0]);

    await api.caller(me).members.addFavorite({ id: she.id });
    const again = await api.caller(me).members.search({ keyword: tag });
    expect(again.profiles[0]?.isFavorite).toBe(true);
  });

  it("filters by occupation, income, prefecture, photo and keyword (LIKE characters are literal)", async () => {
    const tag = newTag();
    const me = await api.createUser({ gender: "female" });
    const [o1, o2] = occupationIds as [string, string];
    const [i1, i2] = incomeIds as [string, string];
    const a = await api.createUser({
      name: `${tag}A%`,
      occupationId: o1,
      annualIncomeId: i1,
      address: "大阪府",
      photoLink: "/uploads/photos/a.jpg",
    });
    const b = await api.createUser({ name: `${tag}B_`, occupationId: o2, annualIncomeId: i1, address: "東京都" });
    const c = await api.createUser({ name: `${tag}C`, occupationId: o1, annualIncomeId: i2, photoLink: "" });
    const ids = async (input: Parameters<ReturnType<typeof api.caller>["members"]["search"]>[0]) =>
      (await api.caller(me).members.search({ keyword: tag, ...input })).profiles.map((p) => p.id).sort();

    expect(await ids({ occupationId: o1 })).toEqual([a.id, c.id].sort());
    expect(await ids({ annualIncomeId: i1 })).toEqual([a.id, b.id].sort());
    expect(await ids({ occupationId: o1, annualIncomeId: i1 })).toEqual([a.id]);
    expect(await ids({ prefecture: "東京都" })).toEqual([b.id]);
    expect(await ids({ hasPhoto: true })).toEqual([a.id]);
    expect(await ids({ hasPhoto: false })).toEqual([b.id, c.id].sort());
    expect(await ids({ keyword: `${tag}A%` })).toEqual([a.id]);
    expect(await ids({ keyword: `${tag}_` })).toEqual([]);
    expect(await ids({ keyword: `${tag}b_` })).toEqual([b.id]);
    // A blank keyword is no keyword.
    const blank = await api.caller(me).members.search({ keyword: "   " });
    expect(blank.total).toBe((await api.caller(me).members.search({})).total);
    expect(blank.total).toBeGreaterThanOrEqual(3);
  });

  it("filters by age from the birthday, at the birthday boundaries", async () => {
    const tag = newTag();
    const me = await api.createUser({ gender: "male" });
    const today = new Date(Date.UTC(2030, 5, 15, 12));
    const born = (years: number, shiftDays = 0) => {
      const d = new Date(`${yearsBefore(today, years)}T00:00:00Z`);
      d.setUTCDate(d.getUTCDate() + shiftDays);
      return d.toISOString().slice(0, 10);
    };
    // 25 today; 25 tomorrow (24 today); 30 until tomorrow (30 today; 31 tomorrow); no birthday.
    const turns25 = await api.createUser({ gender: "female", name: `${tag}1`, birthday: born(25) });
    const is24 = await api.createUser({ gender: "female", name: `${tag}2`, birthday: born(25, 1) });
    const is30 = await api.createUser({ gender: "female", name: `${tag}3`, birthday: born(31, 1) });
    await api.createUser({ gender: "female", name: `${tag}4`, birthday: null });
    const search = async (ageMin?: number, ageMax?: number) => {
      const result = await searchMembers(
        api.database.db,
        me.id,
        { keyword: tag, excludeSameSex: true, order: "newest", page: 1, limit: 20, ageMin, ageMax },
        today,
      );
      return result.profiles.map((p) => [p.id, p.age]);
    };
    expect(await search(25)).toEqual([
      [is30.id, 30],
      [turns25.id, 25],
    ]);
    expect(await search(undefined, 24)).toEqual([[is24.id, 24]]);
    expect(await search(24, 30)).toHaveLength(3);
    expect(await search(25, 29)).toEqual([[turns25.id, 25]]);
    expect(await search(31)).toEqual([]);
    expect(await search(undefined, 30)).toHaveLength(3);
  });

  it("29 February: a year later is 28 February", () => {
    expect(yearsBefore(new Date(Date.UTC(2024, 1, 29)), 18)).toBe("2006-02-28");
    expect(yearsBefore(new Date(Date.UTC(2024, 1, 29)), 20)).toBe("2004-02-29");
  });

  it("pages in the database: total, totalPages and the page's rows", async () => {
    const tag = newTag();
    const me = await api.createUser({ gender: "male" });
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      made.push((await api.createUser({ gender: "female", name: `${tag}${i}`, createdAt: day(10 + i) })).id);
    }
    const newestFirst = [...made].reverse();
    const page2 = await api.caller(me).members.search({ keyword: tag, page: 2, limit: 2, order: "newest" });
    expect(page2).toMatchObject({ total: 5, page: 2, limit: 2, totalPages: 3 });
    expect(page2.profiles.map((p) => p.id)).toEqual(newestFirst.slice(2, 4));
    const past = await api.caller(me).members.search({ keyword: tag, page: 9, limit: 2 });
    expect(past.profiles).toEqual([]);
    expect(past.total).toBe(5);
  });

  it("refuses bad input with a Japanese message", async () => {
    const me = await api.createUser();
    for (const input of [
      { ageMin: 17 },
      { ageMax: 121 },
      { ageMin: 30, ageMax: 20 },
      { ageMin: 20.5 },
      { prefecture: "東京" },
      { keyword: "あ".repeat(51) },
      { keyword: "a\u0000b" },
      { limit: 101 },
      { page: 0 },
      { occupationId: "x" },
      { excludeSameSex: "no" },
    ]) {
      const error = await api
        .caller(me)
        .members.search(input as never)
        .catch((e: unknown) => e);
      expect(error, JSON.stringify(input)).toBeInstanceOf(TRPCError);
      expect((error as TRPCError).code).toBe("BAD_REQUEST");
      expect((error as TRPCError).message).toMatch(japanese);
    }
  });
});

describe("favourites", () => {
  it("add is idempotent, list holds live public profiles most recently added first, remove is idempotent", async () => {
    const me = await api.createUser({ gender: "male" });
    const first = await api.createUser({ gender: "female" });
    const second = await api.createUser({ gender: "female" });
    const gone = await api.createUser({ gender: "female" });
    expect(await api.caller(me).members.addFavorite({ id: first.id })).toEqual({ success: true });
    expect(await api.caller(me).members.addFavorite({ id: first.id })).toEqual({ success: true });
    await api.caller(me).members.addFavorite({ id: second.id });
    await api.caller(me).members.addFavorite({ id: gone.id });
    // A minute passes between the first and the others.
    await api.database.db
      .update(favorites)
      .set({ createdAt: sql`now() - interval '1 minute'` })
      .where(and(eq(favorites.userId, me.id), eq(favorites.favoriteUserId, first.id)));
    await api.caller(admin).adminUsers.delete({ id: gone.id });

    const rows = await api.database.db.select().from(favorites).where(eq(favorites.userId, me.id));
    expect(rows.map((r) => r.favoriteUserId).sort()).toEqual([first.id, second.id].sort());

    const list = await api.caller(me).members.favorites();
    expect(list.map((p) => p.id)).toEqual([second.id, first.id]);
    for (const p of list) expectPublic(p);

    expect(await api.caller(me).members.removeFavorite({ id: first.id })).toEqual({ success: true });
    expect(await api.caller(me).members.removeFavorite({ id: first.id })).toEqual({ success: true });
    expect((await api.caller(me).members.favorites()).map((p) => p.id)).toEqual([second.id]);
    // Someone else's favourites are their own.
    expect(await api.caller(first).members.favorites()).toEqual([]);
  });

  it("refuses oneself, administrators, deleted and unknown members with a Japanese message, and changes nothing", async () => {
    const me = await api.createUser();
    const gone = await api.createUser();
    await api.caller(admin).adminUsers.delete({ id: gone.id });
    const before = await snapshotTables(api, "favorites");
    const cases: Array<[string, string]> = [
      [me.id, "BAD_REQUEST"],
      [admin.id, "NOT_FOUND"],
      [gone.id, "NOT_FOUND"],
      ["00000000-0000-4000-8000-000000000000", "NOT_FOUND"],
      ["not-a-uuid", "BAD_REQUEST"],
    ];
    for (const [id, code] of cases) {
      const error = await api
        .caller(me)
        .members.addFavorite({ id })
        .catch((e: unknown) => e);
      expect(error, id).toBeInstanceOf(TRPCError);
      expect((error as TRPCError).code, id).toBe(code);
      expect((error as TRPCError).message).toMatch(japanese);
    }
    const bad = await api
      .caller(me)
      .members.removeFavorite({ id: "x" })
      .catch((e: unknown) => e);
    expect((bad as TRPCError).code).toBe("BAD_REQUEST");
    expect(await snapshotTables(api, "favorites")).toEqual(before);
  });

  it("a removed favourite shows isFavorite false again; the favourite of another member is not mine", async () => {
    const tag = newTag();
    const me = await api.createUser({ gender: "male" });
    const other = await api.createUser({ gender: "male" });
    const she = await api.createUser({ gender: "female", name: tag });
    await api.caller(other).members.addFavorite({ id: she.id });
    expect((await api.caller(me).members.search({ keyword: tag })).profiles[0]?.isFavorite).toBe(false);
    await api.caller(me).members.addFavorite({ id: she.id });
    await api.caller(me).members.removeFavorite({ id: she.id });
    expect((await api.caller(me).members.search({ keyword: tag })).profiles[0]?.isFavorite).toBe(false);
    const theirs = await api.database.db
      .select()
      .from(favorites)
      .where(and(eq(favorites.userId, other.id), eq(favorites.favoriteUserId, she.id)));
    expect(theirs).toHaveLength(1);
  });
});

describe("roles", () => {
  it("administrators get FORBIDDEN and anonymous callers UNAUTHORIZED on every discovery procedure", async () => {
    const target = await api.createUser();
    for (const [user, code] of [
      [admin, "FORBIDDEN"],
      [null, "UNAUTHORIZED"],
    ] as const) {
      const c = api.caller(user).members;
      for (const call of [
        () => c.search({}),
        () => c.favorites(),
        () => c.addFavorite({ id: target.id }),
        () => c.removeFavorite({ id: target.id }),
        () => c.footprints(),
      ]) {
        await expect(call()).rejects.toMatchObject({ code });
      }
    }
    const rows = await api.database.db.select().from(favorites).where(eq(favorites.favoriteUserId, target.id));
    expect(rows).toEqual([]);
  });
});

// On PostgreSQL the adds really interleave; on PGlite they run one after another.
describe.runIf(onPostgres)("favourites under concurrency (PostgreSQL)", () => {
  it("50 concurrent adds of one favourite make one row, all succeed", async () => {
    const me = await api.createUser();
    const she = await api.createUser({ gender: "female" });
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () => api.caller(me).members.addFavorite({ id: she.id })),
    );
    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    const rows = await api.database.db.select().from(favorites).where(eq(favorites.userId, me.id));
    expect(rows).toHaveLength(1);
  });
});
