import { memberSearchGrams, users } from "@enmusubi/db";
import { LAST_ACTIVE_REFRESH_MINUTES, lastActiveBucket, MSG } from "@enmusubi/shared";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { resolveSession } from "../src/auth/session";
import { approveProfile } from "../src/testing";
import { snapshotTables, type TestUser, useTestApi } from "./helpers";

/** Decision 0029: 自己紹介, last activity, and a search that leads with members who can answer. */
const api = useTestApi();

let tagCounter = 0;
/** A word unique to one test, so its searches see only its own members. */
const newTag = () => `紹${++tagCounter}q${Math.random().toString(36).slice(2, 6)}`;

const setIntro = (user: TestUser, selfIntroduction: string) => api.caller(user).profile.update({ selfIntroduction });

/** The 自己紹介 changed and approved in the profile review (decision 0044): what other members then see. */
const setApprovedIntro = async (user: TestUser, selfIntroduction: string) => {
  await setIntro(user, selfIntroduction);
  await approveProfile(api.deps.db, user.id);
};

const setLastActive = (user: TestUser, ago: string) =>
  api.database.db
    .update(users)
    .set({ lastActiveAt: sql`now() - ${ago}::interval` })
    .where(eq(users.id, user.id));

const lastActiveOf = async (user: TestUser) =>
  (await api.database.db.select({ at: users.lastActiveAt }).from(users).where(eq(users.id, user.id)))[0]?.at as Date;

describe("自己紹介 on the own profile", () => {
  it("is saved by profile.update with its line breaks, answered by profile.me, and cleared by an empty text", async () => {
    const me = await api.createUser();
    expect((await api.caller(me).profile.me()).selfIntroduction).toBe("");
    const text = "はじめまして。\n週末はカフェ巡りをしています。\n\nよろしくお願いします。";
    const { user } = await setIntro(me, `  ${text}  `);
    expect(user.selfIntroduction).toBe(text);
    expect((await api.caller(me).profile.me()).selfIntroduction).toBe(text);
    // Another field alone leaves it as it is.
    await api.caller(me).profile.update({ name: "新しい名前" });
    expect((await api.caller(me).profile.me()).selfIntroduction).toBe(text);
    await setIntro(me, "");
    expect((await api.caller(me).profile.me()).selfIntroduction).toBe("");
  });

  it("takes 1,000 characters and refuses 1,001 with the catalogue's message, changing nothing", async () => {
    const me = await api.createUser();
    await setIntro(me, "あ".repeat(1000));
    const before = await snapshotTables(api, "users", "member_search_grams", "profile_reviews");
    await expect(setIntro(me, "い".repeat(1001))).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: MSG.selfIntroductionTooLong,
    });
    await expect(
      api.caller(me).profile.update({ name: "変えない", selfIntroduction: "う".repeat(1001) }),
    ).rejects.toMatchObject({ message: MSG.selfIntroductionTooLong });
    await expect(setIntro(me, "NUL\u0000")).rejects.toMatchObject({ code: "BAD_REQUEST", message: MSG.textInvalid });
    expect(await snapshotTables(api, "users", "member_search_grams", "profile_reviews")).toEqual(before);
  });
});

describe("the paid detail and nothing else shows 自己紹介 and last activity", () => {
  it("viewProfile answers selfIntroduction and a bucket; search, favourites and footprints do not", async () => {
    const tag = newTag();
    const viewer = await api.createUser({ gender: "male" });
    const target = await api.createUser({ gender: "female", name: `${tag}花子` });
    await setApprovedIntro(target, "猫が好きです。\n映画も。");
    await setLastActive(target, "2 days");
    const { profile } = await api.caller(viewer).members.viewProfile({ id: target.id });
    expect(profile).toMatchObject({
      id: target.id,
      selfIntroduction: "猫が好きです。\n映画も。",
      lastActive: "3日以内",
    });
    expect(profile).not.toHaveProperty("lastActiveAt");
    // The public shape plus the two: no time of activity.
    expect(Object.keys(profile).sort()).toEqual(
      [
        "age",
        "annualIncome",
        "createdAt",
        "gender",
        "id",
        "lastActive",
        "name",
        "occupation",
        "photoLink",
        "prefecture",
        "selfIntroduction",
        "verified",
      ].sort(),
    );

    const found = await api.caller(viewer).members.search({ keyword: tag });
    expect(found.profiles.map((p) => p.id)).toEqual([target.id]);
    await api.caller(viewer).members.addFavorite({ id: target.id });
    const favourites = await api.caller(viewer).members.favorites();
    const footprints = await api.caller(target).members.footprints();
    for (const shown of [found.profiles[0], favourites[0], footprints[0]?.viewer]) {
      expect(shown).toBeDefined();
      expect(shown).not.toHaveProperty("selfIntroduction");
      expect(shown).not.toHaveProperty("lastActive");
      expect(shown).not.toHaveProperty("lastActiveAt");
    }
  });

  it("one's own detail includes them too (free)", async () => {
    const me = await api.createUser();
    await setApprovedIntro(me, "自分の紹介");
    const { profile, charged } = await api.caller(me).members.viewProfile({ id: me.id });
    expect(charged).toBe(false);
    expect(profile).toMatchObject({ selfIntroduction: "自分の紹介", lastActive: "24時間以内" });
  });
});

describe("last-activity buckets", () => {
  const now = new Date("2026-11-26T12:00:00Z");
  const ago = (ms: number) => new Date(now.getTime() - ms);
  const H = 3_600_000;
  it("each bound belongs to its bucket; a moment later is the next", () => {
    expect(lastActiveBucket(now, now)).toBe("24時間以内");
    expect(lastActiveBucket(new Date(now.getTime() + 60_000), now)).toBe("24時間以内");
    expect(lastActiveBucket(ago(24 * H), now)).toBe("24時間以内");
    expect(lastActiveBucket(ago(24 * H + 1), now)).toBe("3日以内");
    expect(lastActiveBucket(ago(72 * H), now)).toBe("3日以内");
    expect(lastActiveBucket(ago(72 * H + 1), now)).toBe("1週間以内");
    expect(lastActiveBucket(ago(7 * 24 * H), now)).toBe("1週間以内");
    expect(lastActiveBucket(ago(7 * 24 * H + 1), now)).toBe("1ヶ月以内");
    expect(lastActiveBucket(ago(30 * 24 * H), now)).toBe("1ヶ月以内");
    expect(lastActiveBucket(ago(30 * 24 * H + 1), now)).toBe("1ヶ月以上");
    expect(lastActiveBucket(ago(400 * 24 * H), now)).toBe("1ヶ月以上");
  });
});

describe("recording activity", () => {
  it("sign-in records it", async () => {
    const me = await api.createUser();
    await setLastActive(me, "40 days");
    await api.caller(null).auth.login({ userID: me.userID, password: me.password });
    expect(Date.now() - (await lastActiveOf(me)).getTime()).toBeLessThan(60_000);
  });

  it(`an authenticated request records it at most once per ${LAST_ACTIVE_REFRESH_MINUTES} minutes`, async () => {
    const me = await api.createUser();
    const token = await api.deps.tokens.sign({ sub: me.id, role: "user", tv: 0 });
    // Recorded 2 minutes ago: the request leaves it (no write).
    await setLastActive(me, "2 minutes");
    const recent = await lastActiveOf(me);
    expect(await resolveSession(api.deps, `Bearer ${token}`)).toMatchObject({ id: me.id });
    expect((await lastActiveOf(me)).getTime()).toBe(recent.getTime());
    // Older than the interval: the request records now.
    await setLastActive(me, `${LAST_ACTIVE_REFRESH_MINUTES + 1} minutes`);
    await resolveSession(api.deps, `Bearer ${token}`);
    const touched = await lastActiveOf(me);
    expect(Date.now() - touched.getTime()).toBeLessThan(60_000);
    // … and the next request within the interval writes nothing again.
    await resolveSession(api.deps, `Bearer ${token}`);
    expect((await lastActiveOf(me)).getTime()).toBe(touched.getTime());
  });

  it("a refused token records nothing", async () => {
    const me = await api.createUser();
    await setLastActive(me, "10 days");
    const before = await lastActiveOf(me);
    const stale = await api.deps.tokens.sign({ sub: me.id, role: "user", tv: 99 });
    expect(await resolveSession(api.deps, `Bearer ${stale}`)).toBeNull();
    expect((await lastActiveOf(me)).getTime()).toBe(before.getTime());
  });
});

describe("search leads with members who can answer", () => {
  it("lists only members who can read: not unverified, pending, rejected or suspended", async () => {
    const tag = newTag();
    const me = await api.createUser({ gender: "male" });
    const verified = await api.createUser({ gender: "female", name: `${tag}確認済` });
    for (const verificationStatus of ["unverified", "pending", "rejected"] as const) {
      await api.createUser({ gender: "female", name: `${tag}${verificationStatus}`, verificationStatus });
    }
    const suspended = await api.createUser({ gender: "female", name: `${tag}停止` });
    await api.database.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, suspended.id));
    for (const order of ["active", "newest"] as const) {
      const result = await api.caller(me).members.search({ keyword: tag, order });
      expect(result.profiles.map((p) => p.id)).toEqual([verified.id]);
      expect(result.total).toBe(1);
    }
  });

  it("orders by last activity by default, by registration with order=newest", async () => {
    const tag = newTag();
    const me = await api.createUser({ gender: "male" });
    const day = (n: number) => new Date(Date.UTC(2025, 0, n));
    const oldActive = await api.createUser({ gender: "female", name: `${tag}1`, createdAt: day(1) });
    const newQuiet = await api.createUser({ gender: "female", name: `${tag}2`, createdAt: day(3) });
    const midMid = await api.createUser({ gender: "female", name: `${tag}3`, createdAt: day(2) });
    await setLastActive(oldActive, "1 hour");
    await setLastActive(newQuiet, "20 days");
    await setLastActive(midMid, "2 days");
    const ids = async (order?: "active" | "newest") =>
      (await api.caller(me).members.search({ keyword: tag, ...(order ? { order } : {}) })).profiles.map((p) => p.id);
    expect(await ids()).toEqual([oldActive.id, midMid.id, newQuiet.id]);
    expect(await ids("active")).toEqual([oldActive.id, midMid.id, newQuiet.id]);
    expect(await ids("newest")).toEqual([newQuiet.id, midMid.id, oldActive.id]);
  });

  it("refuses an unknown order with a Japanese message", async () => {
    const me = await api.createUser();
    await expect(api.caller(me).members.search({ order: "random" as "active" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: MSG.searchOrderInvalid,
    });
  });
});

describe("the keyword searches the name and the 自己紹介", () => {
  it("finds a word of the 自己紹介, hiragana and katakana alike, full and half width, every word of several", async () => {
    const tag = newTag();
    const me = await api.createUser({ gender: "male" });
    const cafe = await api.createUser({ gender: "female", name: `${tag}珈琲` });
    await setApprovedIntro(cafe, "週末は渋谷でカフェ巡り。\nランチも好き。");
    const other = await api.createUser({ gender: "female", name: `${tag}映画` });
    await setApprovedIntro(other, "映画と音楽が好きです。");
    const search = async (keyword: string) =>
      (await api.caller(me).members.search({ keyword, excludeSameSex: true })).profiles.map((p) => p.id);
    expect(await search(`${tag} カフェ`)).toEqual([cafe.id]);
    expect(await search(`${tag} かふぇ`)).toEqual([cafe.id]);
    expect(await search(`${tag}　ｶﾌｪ`)).toEqual([cafe.id]);
    expect(await search(`渋谷 ランチ ${tag}`)).toEqual([cafe.id]);
    expect(await search(`${tag} 渋谷 映画`)).toEqual([]);
    // A word of the name and a word of the 自己紹介.
    expect(await search(`${tag}映画 音楽`)).toEqual([other.id]);
    expect((await search(tag)).sort()).toEqual([cafe.id, other.id].sort());
    // One character.
    expect(await search(`${tag} 楽`)).toEqual([other.id]);
  });

  it("follows edits and deletions: a changed 自己紹介 is found by its new words only, a deleted member not at all", async () => {
    const tag = newTag();
    const admin = await api.createUser({ role: "admin" });
    const me = await api.createUser({ gender: "male" });
    const her = await api.createUser({ gender: "female", name: `${tag}花` });
    await setApprovedIntro(her, "登山が趣味です");
    const search = async (keyword: string) =>
      (await api.caller(me).members.search({ keyword })).profiles.map((p) => p.id);
    expect(await search(`${tag} 登山`)).toEqual([her.id]);
    await setApprovedIntro(her, "釣りが趣味です");
    expect(await search(`${tag} 登山`)).toEqual([]);
    expect(await search(`${tag} 釣り`)).toEqual([her.id]);
    // Activity alone does not rewrite the grams.
    const grams = async () =>
      (
        await api.database.db
          .select({ n: sql<number>`count(*)::int` })
          .from(memberSearchGrams)
          .where(eq(memberSearchGrams.userId, her.id))
      )[0]?.n;
    const held = await grams();
    expect(held).toBeGreaterThan(0);
    await setLastActive(her, "1 minute");
    expect(await grams()).toBe(held);
    await api.caller(admin).adminUsers.delete({ id: her.id });
    expect(await search(`${tag} 釣り`)).toEqual([]);
    expect(await grams()).toBe(0);
  });

  it("a keyword no member holds answers an empty page", async () => {
    const me = await api.createUser();
    const result = await api.caller(me).members.search({ keyword: "存在しない語彙鵺鵺" });
    expect(result).toMatchObject({ profiles: [], total: 0, totalCapped: false, totalPages: 1 });
  });
});
