import { annualIncomes, favorites, occupations, users } from "@enmusubi/db";
import { onPostgres } from "@enmusubi/db/testing";
import { MSG } from "@enmusubi/shared";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { type RestUser, snapshotTables, useTestServer } from "./helpers";

const server = useTestServer();
let admin: RestUser;

beforeAll(async () => {
  admin = await server.createUser({ role: "admin" });
});

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
const SECRET_KEYS = ["email", "points", "sendPoints", "role", "birthday", "userID", "userId", "password"];

function expectPublic(profile: Record<string, unknown>, extra: string[] = []) {
  expect(Object.keys(profile).sort()).toEqual([...PUBLIC_KEYS, ...extra].sort());
  for (const key of SECRET_KEYS) expect(profile).not.toHaveProperty(key);
}

const japanese = /[\u3040-\u30ff\u4e00-\u9fff]/;
let tagCounter = 0;
const newTag = () => `探R${++tagCounter}x${Math.random().toString(36).slice(2, 6)}`;
const q = (params: Record<string, string>) => new URLSearchParams(params).toString();

describe("GET /api/users/search", () => {
  it("legacy query names and public rows: other gender by default, filters, paging", async () => {
    const tag = newTag();
    const [occ] = await server.database.db.select().from(occupations).limit(1);
    const [inc] = await server.database.db.select().from(annualIncomes).limit(1);
    const me = await server.createUser({ gender: "male", name: `${tag}自分` });
    const she = await server.createUser({
      gender: "female",
      name: `${tag}花子`,
      birthday: "1990-01-01",
      address: "東京都",
      photoLink: "/uploads/photos/0123456789abcdef0123456789abcdef.jpg",
      occupationId: occ?.id,
      annualIncomeId: inc?.id,
      createdAt: new Date("2025-03-01T00:00:00Z"),
    });
    const other = await server.createUser({ gender: "female", name: `${tag}桜`, createdAt: new Date("2025-02-01") });
    const man = await server.createUser({ gender: "male", name: `${tag}太郎` });
    await server.createUser({ gender: "female", name: `${tag}管理`, role: "admin" });

    const res = await server.request({
      method: "GET",
      url: `/api/users/search?${q({ keyword: tag, order: "newest" })}`,
      as: me,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ total: 2, page: 1, limit: 20, totalPages: 1 });
    expect(body.profiles.map((p: { _id: string }) => p._id)).toEqual([she.id, other.id]);
    // An empty search is page 1 of 1, as in every list (lists/pages.ts), never 0 pages.
    const empty = await server.request({
      method: "GET",
      url: `/api/users/search?${q({ keyword: `${tag}無` })}`,
      as: me,
    });
    expect(empty.json()).toMatchObject({ profiles: [], total: 0, page: 1, totalPages: 1 });
    for (const p of body.profiles) expectPublic(p, ["isFavorite"]);
    expect(body.profiles[0]).toMatchObject({
      address: "東京都",
      occupation: { _id: occ?.id, occupaionName: occ?.name },
      annual_income: { _id: inc?.id, annualIncome: inc?.label },
      isFavorite: false,
    });

    const filtered = await server.request({
      method: "GET",
      url: `/api/users/search?${q({ keyword: tag, occupation: occ?.id ?? "", annual_income: inc?.id ?? "", ageMin: "30", ageMax: "60", prefecture: "東京都", hasPhoto: "true" })}`,
      as: me,
    });
    expect(filtered.json().profiles.map((p: { _id: string }) => p._id)).toEqual([she.id]);

    const both = await server.request({
      method: "GET",
      url: `/api/users/search?${q({ keyword: tag, excludeSameSex: "false", limit: "1", page: "1", order: "newest" })}`,
      as: me,
    });
    expect(both.json()).toMatchObject({ total: 3, limit: 1, totalPages: 3 });
    expect(both.json().profiles.map((p: { _id: string }) => p._id)).toEqual([man.id]);
  });

  it("bad input: 400 with a Japanese message", async () => {
    const me = await server.createUser();
    const cases: Array<Record<string, string>> = [
      { ageMin: "17" },
      { ageMin: "40", ageMax: "30" },
      { ageMin: "abc" },
      { prefecture: "東京" },
      { keyword: "あ".repeat(51) },
      { limit: "101" },
      { page: "0" },
      { excludeSameSex: "maybe" },
      { occupation: "x" },
      { order: "random" },
    ];
    for (const params of cases) {
      const res = await server.request({ method: "GET", url: `/api/users/search?${q(params)}`, as: me });
      expect(res.statusCode, JSON.stringify(params)).toBe(400);
      expect(res.json().message).toMatch(japanese);
    }
    const range = await server.request({ method: "GET", url: `/api/users/search?ageMin=40&ageMax=30`, as: me });
    expect(range.json().message).toBe(MSG.ageRangeInvalid);
    const order = await server.request({ method: "GET", url: "/api/users/search?order=random", as: me });
    expect(order.json().message).toBe(MSG.searchOrderInvalid);
  });

  it("lists only members who can read, most recently active first (order=newest: registration), and finds a word of the 自己紹介", async () => {
    const tag = newTag();
    const me = await server.createUser({ gender: "male" });
    const older = await server.createUser({ gender: "female", name: `${tag}古`, createdAt: new Date("2025-01-01") });
    const newer = await server.createUser({ gender: "female", name: `${tag}新`, createdAt: new Date("2025-02-01") });
    await server.createUser({ gender: "female", name: `${tag}未確認`, verificationStatus: "unverified" });
    await server.database.db
      .update(users)
      .set({ lastActiveAt: sql`now() - interval '3 days'` })
      .where(eq(users.id, newer.id));
    const ids = async (params: Record<string, string>) => {
      const res = await server.request({ method: "GET", url: `/api/users/search?${q(params)}`, as: me });
      expect(res.statusCode).toBe(200);
      return res.json().profiles.map((p: { _id: string }) => p._id);
    };
    expect(await ids({ keyword: tag })).toEqual([older.id, newer.id]);
    expect(await ids({ keyword: tag, order: "active" })).toEqual([older.id, newer.id]);
    expect(await ids({ keyword: tag, order: "newest" })).toEqual([newer.id, older.id]);

    const put = await server.request({
      method: "PUT",
      url: "/api/auth/profile",
      as: newer,
      payload: { selfIntroduction: "週末はカフェ巡り。" },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json().message).toBe(MSG.profileUpdatedPendingReview);
    // Found by its words once approved in the profile review (decision 0044), not before.
    expect(await ids({ keyword: `${tag} かふぇ` })).toEqual([]);
    await server.approveProfile(newer);
    expect(await ids({ keyword: `${tag} かふぇ` })).toEqual([newer.id]);
    const rows = await server.request({ method: "GET", url: `/api/users/search?${q({ keyword: tag })}`, as: me });
    for (const p of rows.json().profiles) expectPublic(p, ["isFavorite"]);
  });
});

describe("favourites", () => {
  it("favorite is idempotent; favorites lists public rows; unfavorite is idempotent", async () => {
    const me = await server.createUser({ gender: "male" });
    const she = await server.createUser({ gender: "female", birthday: "1992-05-05" });
    for (let i = 0; i < 2; i++) {
      const res = await server.request({
        method: "POST",
        url: "/api/users/favorite",
        as: me,
        payload: { favoriteUserId: she.id },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, message: MSG.favoriteAdded });
    }
    const rows = await server.database.db.select().from(favorites).where(eq(favorites.userId, me.id));
    expect(rows).toHaveLength(1);

    const list = await server.request({ method: "GET", url: "/api/users/favorites", as: me });
    expect(list.statusCode).toBe(200);
    expect(list.json().map((p: { _id: string }) => p._id)).toEqual([she.id]);
    for (const p of list.json()) expectPublic(p);

    for (let i = 0; i < 2; i++) {
      const res = await server.request({
        method: "POST",
        url: "/api/users/unfavorite",
        as: me,
        payload: { favoriteUserId: she.id },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, message: MSG.favoriteRemoved });
    }
    expect((await server.request({ method: "GET", url: "/api/users/favorites", as: me })).json()).toEqual([]);
  });

  it("each public row says whether the member's age verification is approved (the 年齢確認済み badge)", async () => {
    const me = await server.createUser({ gender: "male" });
    const verified = await server.createUser({ gender: "female" });
    const waiting = await server.createUser({ gender: "female", verificationStatus: "pending" });
    for (const she of [verified, waiting]) {
      const res = await server.request({
        method: "POST",
        url: "/api/users/favorite",
        as: me,
        payload: { favoriteUserId: she.id },
      });
      expect(res.statusCode).toBe(200);
    }
    const list = await server.request({ method: "GET", url: "/api/users/favorites", as: me });
    const byId = new Map(list.json().map((p: { _id: string; verified: boolean }) => [p._id, p.verified]));
    expect(byId.get(verified.id)).toBe(true);
    expect(byId.get(waiting.id)).toBe(false);
  });

  it("refuses oneself (400), administrators, deleted and unknown members (404), bad bodies (400); nothing changes", async () => {
    const me = await server.createUser();
    const gone = await server.createUser();
    expect((await server.request({ method: "DELETE", url: `/api/admin/users/${gone.id}`, as: admin })).statusCode).toBe(
      200,
    );
    const before = await snapshotTables(server, "favorites");
    const cases: Array<[unknown, number]> = [
      [{ favoriteUserId: me.id }, 400],
      [{ favoriteUserId: admin.id }, 404],
      [{ favoriteUserId: gone.id }, 404],
      [{ favoriteUserId: "00000000-0000-4000-8000-000000000000" }, 404],
      [{ favoriteUserId: "x" }, 400],
      [{}, 400],
      [{ favoriteUserId: 5 }, 400],
    ];
    for (const [payload, status] of cases) {
      const res = await server.request({
        method: "POST",
        url: "/api/users/favorite",
        as: me,
        payload: payload as object,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json().message).toMatch(japanese);
    }
    const self = await server.request({
      method: "POST",
      url: "/api/users/favorite",
      as: me,
      payload: { favoriteUserId: me.id },
    });
    expect(self.json().message).toBe(MSG.favoriteSelf);
    const badRemove = await server.request({ method: "POST", url: "/api/users/unfavorite", as: me, payload: {} });
    expect(badRemove.statusCode).toBe(400);
    expect(await snapshotTables(server, "favorites")).toEqual(before);
  });
});

describe("profile view and footprints", () => {
  it("POST /api/users/:id/profile-view answers the public profile and charges; the viewed member sees the footprint", async () => {
    const viewer = await server.createUser({ gender: "male", points: 100 });
    const viewed = await server.createUser({ gender: "female", birthday: "1990-01-01" });
    const res = await server.request({ method: "POST", url: `/api/users/${viewed.id}/profile-view`, as: viewer });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    // The detail: the public profile, 自己紹介 and the last-activity bucket (never a time).
    expectPublic(body.profile, ["selfIntroduction", "lastActive"]);
    expect(body.profile).toMatchObject({ _id: viewed.id, selfIntroduction: "", lastActive: "24時間以内" });
    expect(body.charged).toBe(true);
    expect(body.remainingPoints).toBeLessThanOrEqual(100);
    const again = await server.request({ method: "POST", url: `/api/users/${viewed.id}/profile-view`, as: viewer });
    expect(again.json()).toMatchObject({ charged: false, remainingPoints: body.remainingPoints });

    const prints = await server.request({ method: "GET", url: "/api/users/footprints", as: viewed });
    expect(prints.statusCode).toBe(200);
    expect(prints.json().map((f: { viewer: { _id: string } }) => f.viewer._id)).toEqual([viewer.id]);
    for (const f of prints.json()) expectPublic(f.viewer);
  });

  it("402 with required/available when points are short; 404 for an administrator or unknown id", async () => {
    const poor = await server.createUser({ points: 0 });
    const viewed = await server.createUser();
    const res = await server.request({ method: "POST", url: `/api/users/${viewed.id}/profile-view`, as: poor });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({ required: expect.any(Number), available: 0 });
    expect(res.json().message).toMatch(japanese);
    const rich = await server.createUser({ points: 100 });
    for (const id of [admin.id, "00000000-0000-4000-8000-000000000000"]) {
      const r = await server.request({ method: "POST", url: `/api/users/${id}/profile-view`, as: rich });
      expect(r.statusCode).toBe(404);
      expect(r.json().message).toBe(MSG.notFound);
    }
    const bad = await server.request({ method: "POST", url: "/api/users/nope/profile-view", as: rich });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(MSG.notFound);
  });
});

describe("view price (decision 0026)", () => {
  it("GET /api/users/:id/view-price quotes what the view then takes: the price, then free within 24 h; same 404 as the view", async () => {
    const viewer = await server.createUser({ points: 100 });
    const viewed = await server.createUser();
    const url = `/api/users/${viewed.id}/view-price`;
    const before = await snapshotTables(server, "users", "point_ledger", "profile_views", "footprints");
    const first = await server.request({ method: "GET", url, as: viewer });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ cost: expect.any(Number), free: false, freeUntil: null, reason: null });
    expect(await snapshotTables(server, "users", "point_ledger", "profile_views", "footprints")).toEqual(before);
    const view = await server.request({ method: "POST", url: `/api/users/${viewed.id}/profile-view`, as: viewer });
    expect(100 - view.json().remainingPoints).toBe(first.json().cost);

    const again = await server.request({ method: "GET", url, as: viewer });
    expect(again.json()).toMatchObject({ cost: 0, free: true, reason: "recentView" });
    expect(Date.parse(again.json().freeUntil)).toBeGreaterThan(Date.now());
    const review = await server.request({ method: "POST", url: `/api/users/${viewed.id}/profile-view`, as: viewer });
    expect(review.json()).toMatchObject({ charged: false, remainingPoints: view.json().remainingPoints });

    for (const id of [admin.id, "00000000-0000-4000-8000-000000000000"]) {
      const r = await server.request({ method: "GET", url: `/api/users/${id}/view-price`, as: viewer });
      expect(r.statusCode).toBe(404);
      expect(r.json().message).toBe(MSG.notFound);
    }
    const bad = await server.request({ method: "GET", url: "/api/users/nope/view-price", as: viewer });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(MSG.notFound);
  });
});

describe("roles", () => {
  it("administrators get 403 and anonymous callers 401 on every discovery row", async () => {
    const target = await server.createUser();
    const rows: Array<{ method: "GET" | "POST"; url: string; payload?: object }> = [
      { method: "GET", url: "/api/users/search" },
      { method: "GET", url: "/api/users/favorites" },
      { method: "POST", url: "/api/users/favorite", payload: { favoriteUserId: target.id } },
      { method: "POST", url: "/api/users/unfavorite", payload: { favoriteUserId: target.id } },
      { method: "POST", url: `/api/users/${target.id}/profile-view` },
      { method: "GET", url: `/api/users/${target.id}/view-price` },
      { method: "GET", url: "/api/users/footprints" },
    ];
    for (const row of rows) {
      const asAdmin = await server.request({ ...row, as: admin });
      expect(asAdmin.statusCode, row.url).toBe(403);
      expect(asAdmin.json().message).toBe(MSG.forbidden);
      const anonymous = await server.request(row);
      expect(anonymous.statusCode, row.url).toBe(401);
      expect(anonymous.json().message).toBe(MSG.unauthorized);
    }
    expect(await server.database.db.select().from(favorites).where(eq(favorites.favoriteUserId, target.id))).toEqual(
      [],
    );
  });
});

// On PostgreSQL the requests really interleave; on PGlite they run one after another.
describe.runIf(onPostgres)("favourites under concurrency (PostgreSQL)", () => {
  it("50 concurrent POST /api/users/favorite make one row", async () => {
    const me = await server.createUser();
    const she = await server.createUser({ gender: "female" });
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        server.request({ method: "POST", url: "/api/users/favorite", as: me, payload: { favoriteUserId: she.id } }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(50).fill(200));
    const rows = await server.database.db.select().from(favorites).where(eq(favorites.userId, me.id));
    expect(rows).toHaveLength(1);
  });
});
