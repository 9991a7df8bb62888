import { creditPurchasedPoints } from "@enmusubi/api/testing";
import { MSG } from "@enmusubi/shared";
import { sql } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { type RestUser, snapshotTables, useTestServer } from "./helpers";

const server = useTestServer();
let admin: RestUser;
let member: RestUser;

beforeAll(async () => {
  admin = await server.createUser({ role: "admin" });
  member = await server.createUser();
});

const LEGACY_USER_KEYS = [
  "_id",
  "address",
  "annual_income",
  "birthday",
  "createdAt",
  "email",
  "gender",
  "name",
  "occupation",
  "photoLink",
  "photoUrl",
  "points",
  "role",
  "sendPoints",
  "userID",
];

describe("admin user rows", () => {
  it("GET /api/admin/users answers an array of legacy users with the total in X-Total-Count", async () => {
    const res = await server.request({ method: "GET", url: "/api/admin/users?limit=1000", as: admin });
    expect(res.statusCode).toBe(200);
    const list = res.json();
    expect(Array.isArray(list)).toBe(true);
    expect(Object.keys(list[0]).sort()).toEqual(LEGACY_USER_KEYS);
    expect(Number(res.headers["x-total-count"])).toBe(list.length);
    // A handful of users is counted exactly (an estimate starts above 10,000 matches).
    expect(res.headers["x-total-estimated"]).toBe("false");
    const one = await server.request({ method: "GET", url: `/api/admin/users?search=${member.userID}`, as: admin });
    expect(one.json().map((u: { userID: string }) => u.userID)).toEqual([member.userID]);
    const bad = await server.request({ method: "GET", url: "/api/admin/users?page=abc", as: admin });
    expect(bad.statusCode).toBe(400);
  });

  it("refuses members (403) and anonymous callers (401)", async () => {
    expect((await server.request({ method: "GET", url: "/api/admin/users", as: member })).statusCode).toBe(403);
    expect((await server.request({ method: "GET", url: "/api/admin/users" })).statusCode).toBe(401);
    const del = await server.request({ method: "DELETE", url: `/api/admin/users/${admin.id}`, as: member });
    expect(del.statusCode).toBe(403);
    expect(del.json().message).toBe(MSG.forbidden);
  });

  it("POST creates with the legacy payload; PUT updates; DELETE removes", async () => {
    const creds = (await server.request({ method: "GET", url: "/api/auth/uniuqeGenerate", as: admin })).json();
    const created = await server.request({
      method: "POST",
      url: "/api/admin/users",
      as: admin,
      payload: {
        ...creds,
        name: "レスト",
        points: 100,
        sendPoints: 20,
        email: "rest-user@example.jp",
        gender: "female",
        photoLink: null,
        role: "user",
      },
    });
    expect(created.statusCode).toBe(201);
    const user = created.json();
    expect(user).toMatchObject({ userID: creds.userID, name: "レスト", gender: "female", points: 100, sendPoints: 20 });

    const updated = await server.request({
      method: "PUT",
      url: `/api/admin/users/${user._id}`,
      as: admin,
      payload: { name: "更新", email: "rest-user@example.jp", points: "300", sendPoints: 0, password: "abcdef" },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ name: "更新", points: 300, sendPoints: 0 });
    const login = await server.request({
      method: "POST",
      url: "/api/auth/login",
      payload: { userID: creds.userID, password: "abcdef" },
    });
    expect(login.statusCode).toBe(200);

    const deleted = await server.request({ method: "DELETE", url: `/api/admin/users/${user._id}`, as: admin });
    expect(deleted.statusCode).toBe(200);
    const again = await server.request({ method: "DELETE", url: `/api/admin/users/${user._id}`, as: admin });
    expect(again.statusCode).toBe(404);
  });

  it("bad payloads give 400 in Japanese and change nothing", async () => {
    const before = await snapshotTables(server, "users", "point_ledger", "admin_audit_log");
    const cases = [
      { name: "x", email: `${member.userID}@example.jp`, points: -5, sendPoints: 0 },
      { name: "x", email: `${member.userID}@example.jp`, points: "lots", sendPoints: 0 },
      { name: "", email: `${member.userID}@example.jp`, points: 1, sendPoints: 0 },
      { name: "x", email: "broken", points: 1, sendPoints: 0 },
      { name: "x", email: `${member.userID}@example.jp`, points: 1, sendPoints: 0, password: "123" },
    ];
    for (const payload of cases) {
      const res = await server.request({ method: "PUT", url: `/api/admin/users/${member.id}`, as: admin, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toMatch(/[ぁ-んァ-ン一-龥]/);
    }
    const adminDelete = await server.request({ method: "DELETE", url: `/api/admin/users/${admin.id}`, as: admin });
    expect(adminDelete.statusCode).toBe(403);
    const notUuid = await server.request({ method: "DELETE", url: "/api/admin/users/123", as: admin });
    expect(notUuid.statusCode).toBe(400);
    expect(await snapshotTables(server, "users", "point_ledger", "admin_audit_log")).toEqual(before);
  });
  it("a taken userID or email answers 409, an unknown id 404, and nothing changes", async () => {
    const before = await snapshotTables(server, "users", "point_ledger", "admin_audit_log");
    const creds = (await server.request({ method: "GET", url: "/api/auth/uniuqeGenerate", as: admin })).json();
    const takenEmail = await server.request({
      method: "POST",
      url: "/api/admin/users",
      as: admin,
      payload: { ...creds, name: "重複", email: `${member.userID}@example.jp` },
    });
    expect(takenEmail.statusCode).toBe(409);
    expect(takenEmail.json()).toEqual({ message: MSG.emailTaken });
    const takenId = await server.request({
      method: "POST",
      url: "/api/admin/users",
      as: admin,
      payload: { ...creds, userID: member.userID, name: "重複", email: "fresh-409@example.jp" },
    });
    expect(takenId.statusCode).toBe(409);
    expect(takenId.json()).toEqual({ message: MSG.userIdTaken });
    const unknown = await server.request({
      method: "PUT",
      url: "/api/admin/users/00000000-0000-4000-8000-000000000000",
      as: admin,
      payload: { name: "誰か", email: "nobody-404@example.jp", points: 1, sendPoints: 0 },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: MSG.notFound });
    expect(await snapshotTables(server, "users", "point_ledger", "admin_audit_log")).toEqual(before);
  });
});

describe("photoLink as { photodatas } (the add-user camera capture)", () => {
  const capture = async (color: string) =>
    `data:image/jpeg;base64,${(
      await sharp({ create: { width: 64, height: 48, channels: 3, background: color } })
        .jpeg()
        .withExif({ IFD0: { Make: "Cam" } })
        .toBuffer()
    ).toString("base64")}`;

  it("POST stores the image and creates the user with its link; PUT replaces it", async () => {
    const creds = (await server.request({ method: "GET", url: "/api/auth/uniuqeGenerate", as: admin })).json();
    const created = await server.request({
      method: "POST",
      url: "/api/admin/users",
      as: admin,
      payload: {
        ...creds,
        name: "カメラ",
        email: "camera-rest@example.jp",
        points: 100,
        sendPoints: 20,
        gender: "male",
        role: "user",
        photoLink: { photodatas: await capture("#f00") },
      },
    });
    expect(created.statusCode).toBe(201);
    const first = created.json().photoLink;
    expect(first).toMatch(/^\/uploads\/photos\/[0-9a-f]{32}\.jpg$/);
    // Administrators see the full-size image free, signed (decision 0028).
    const file = await server.request({ method: "GET", url: created.json().photoUrl });
    expect((await sharp(file.rawPayload).metadata()).exif).toBeUndefined();

    const updated = await server.request({
      method: "PUT",
      url: `/api/admin/users/${created.json()._id}`,
      as: admin,
      payload: {
        name: "カメラ",
        email: "camera-rest@example.jp",
        points: 100,
        sendPoints: 20,
        photoLink: { photodatas: await capture("#00f") },
      },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().photoLink).not.toBe(first);
    expect((await server.request({ method: "GET", url: created.json().photoUrl })).statusCode).toBe(404);
  });

  it("an image that is not one gives 400 and creates nobody", async () => {
    const before = await snapshotTables(server, "users");
    const creds = (await server.request({ method: "GET", url: "/api/auth/uniuqeGenerate", as: admin })).json();
    const res = await server.request({
      method: "POST",
      url: "/api/admin/users",
      as: admin,
      payload: {
        ...creds,
        name: "x",
        email: "bad-photo@example.jp",
        photoLink: { photodatas: "data:image/png;base64,aGVsbG8=" },
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: MSG.imageOnly });
    expect(await snapshotTables(server, "users")).toEqual(before);
  });
});

describe("POST /api/users/deduct-points", () => {
  it("answers success, required, available, remainingPoints", async () => {
    const buyer = await server.createUser({ points: 100 });
    const res = await server.request({
      method: "POST",
      url: "/api/users/deduct-points",
      as: buyer,
      payload: { actionName: "send_message", quantity: 2 },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, required: 96, available: 100, remainingPoints: 4 });
  });

  it("answers 402 with the spec's message and figures when points are short", async () => {
    const poor = await server.createUser({ points: 5 });
    const res = await server.request({
      method: "POST",
      url: "/api/users/deduct-points",
      as: poor,
      payload: { actionName: "message_board_view" },
    });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({
      success: false,
      required: 10,
      available: 5,
      message: "ポイントが不足しています。必要ポイント: 10pt 所持ポイント: 5pt",
    });
  });
});

describe("OpenAPI", () => {
  it("documents the fields of bodies that accept digit strings (preprocessed schemas)", async () => {
    const doc = (await server.request({ method: "GET", url: "/api/openapi.json" })).json();
    const body = doc.paths["/api/admin/users"].post.requestBody.content["application/json"].schema;
    expect(Object.keys(body.properties)).toEqual(
      expect.arrayContaining(["userID", "password", "name", "email", "points"]),
    );
    const put = doc.paths["/api/point-costs/{actionName}"].put.requestBody.content["application/json"].schema;
    expect(Object.keys(put.properties)).toEqual(expect.arrayContaining(["pointCost", "displayName", "description"]));
    const profile = doc.paths["/api/auth/profile"].put.requestBody.content["application/json"].schema;
    expect(Object.keys(profile.properties)).toEqual(expect.arrayContaining(["name", "occupation", "photoLink"]));
  });
});

describe("an administrator's edit never loses points (decision 0016)", () => {
  const balances = async (id: string) => {
    const result = await server.database.db.execute(
      sql`select points, send_points as "sendPoints" from users where id = ${id}`,
    );
    return (Array.isArray(result) ? [...result] : (result as { rows: unknown[] }).rows)[0];
  };
  const adminAdjusts = async (id: string) => {
    const result = await server.database.db.execute(
      sql`select delta from point_ledger where user_id = ${id} and kind = 'admin_adjust'`,
    );
    return Array.isArray(result) ? [...result] : (result as { rows: unknown[] }).rows;
  };
  /** The edit screen's own call: tRPC over HTTP, superjson. */
  const screenUpdate = (input: Record<string, unknown>) =>
    server.app.inject({
      method: "POST",
      url: "/trpc/adminUsers.update",
      headers: { authorization: `Bearer ${admin.token}`, "content-type": "application/json" },
      payload: JSON.stringify({ json: input }),
    });

  it("the issue's repro: list at 100 pt → the member gets 1,000 pt and sends a message → a rename keeps 1,052 pt", async () => {
    const target = await server.createUser({ points: 100 });
    const listed = await server.request({ method: "GET", url: `/api/admin/users?search=${target.userID}`, as: admin });
    const shown = listed.json()[0];
    expect(shown.points).toBe(100);
    await creditPurchasedPoints(server.database.db, target.id, 1000, 2000);
    const sentMessage = await server.request({
      method: "POST",
      url: "/api/messages/recipientId",
      as: target,
      payload: { userId: member.id, content: "こんにちは" },
    });
    expect(sentMessage.statusCode, sentMessage.body).toBe(201);
    expect(await balances(target.id)).toMatchObject({ points: 1052 });

    // The screen sends what the administrator changed: the name.
    const renamed = await screenUpdate({ id: target.id, name: "改名" });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(await balances(target.id)).toMatchObject({ points: 1052 });
    // A stale balance from the list is refused with the current figures.
    const stale = await screenUpdate({ id: target.id, points: 100, expectedPoints: shown.points });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.json).toMatchObject({
      message: MSG.balanceChanged,
      data: { details: { points: 1052, sendPoints: shown.sendPoints } },
    });
    // A legacy REST body without points renames without touching a balance either.
    const legacyRename = await server.request({
      method: "PUT",
      url: `/api/admin/users/${target.id}`,
      as: admin,
      payload: { name: "改名2", email: `${target.userID}@example.jp` },
    });
    expect(legacyRename.statusCode, legacyRename.body).toBe(200);
    expect(legacyRename.json()).toMatchObject({ name: "改名2", points: 1052 });
    expect(await balances(target.id)).toMatchObject({ points: 1052 });
    expect(await adminAdjusts(target.id)).toEqual([]);
  });

  it("GET /api/admin/users/{id} and PUT carry an ETag; a stale If-Match is refused with 412 and the current figures", async () => {
    const target = await server.createUser({ points: 100 });
    const read = await server.request({ method: "GET", url: `/api/admin/users/${target.id}`, as: admin });
    expect(read.statusCode).toBe(200);
    expect(Object.keys(read.json()).sort()).toEqual(LEGACY_USER_KEYS);
    const etag = read.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);

    // The member spends meanwhile.
    await server.request({
      method: "POST",
      url: "/api/users/deduct-points",
      as: target,
      payload: { actionName: "profile_view" },
    });
    const before = await snapshotTables(server, "users", "point_ledger", "admin_audit_log");
    const refused = await server.request({
      method: "PUT",
      url: `/api/admin/users/${target.id}`,
      as: admin,
      headers: { "if-match": etag },
      payload: { name: "古い", email: `${target.userID}@example.jp`, points: 100, sendPoints: 20 },
    });
    expect(refused.statusCode).toBe(412);
    expect(refused.json()).toEqual({ message: MSG.userChangedSince, points: 85, sendPoints: 20 });
    const current = refused.headers.etag as string;
    expect(current).toMatch(/^"[\w-]+"$/);
    expect(current).not.toBe(etag);
    // A weak tag never matches (If-Match compares strongly).
    const weak = await server.request({
      method: "PUT",
      url: `/api/admin/users/${target.id}`,
      as: admin,
      headers: { "if-match": `W/${current}` },
      payload: { name: "弱い" },
    });
    expect(weak.statusCode).toBe(412);
    expect(await snapshotTables(server, "users", "point_ledger", "admin_audit_log")).toEqual(before);

    const applied = await server.request({
      method: "PUT",
      url: `/api/admin/users/${target.id}`,
      as: admin,
      headers: { "if-match": `"nope", ${current}` },
      payload: { name: "新しい", points: 300 },
    });
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json()).toMatchObject({ name: "新しい", points: 300, sendPoints: 20 });
    expect(applied.headers.etag).not.toBe(current);
    const again = await server.request({ method: "GET", url: `/api/admin/users/${target.id}`, as: admin });
    expect(again.headers.etag).toBe(applied.headers.etag);
    expect(await adminAdjusts(target.id)).toEqual([{ delta: 215 }]);
  });

  it("a legacy body without If-Match keeps its meaning: its points set the balance, booked in the ledger", async () => {
    const target = await server.createUser({ points: 100 });
    await server.request({
      method: "POST",
      url: "/api/users/deduct-points",
      as: target,
      payload: { actionName: "profile_view" },
    });
    const res = await server.request({
      method: "PUT",
      url: `/api/admin/users/${target.id}`,
      as: admin,
      payload: { name: "レガシー", email: `${target.userID}@example.jp`, points: 500, sendPoints: "7" },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(res.json()).toMatchObject({ points: 500, sendPoints: 7 });
    expect(await adminAdjusts(target.id)).toEqual(expect.arrayContaining([{ delta: 415 }, { delta: -13 }]));
    const star = await server.request({
      method: "PUT",
      url: `/api/admin/users/${target.id}`,
      as: admin,
      headers: { "if-match": "*" },
      payload: { points: 10 },
    });
    expect(star.statusCode).toBe(200);
    expect(star.json().points).toBe(10);
    const unknown = await server.request({
      method: "GET",
      url: "/api/admin/users/00000000-0000-4000-8000-000000000000",
      as: admin,
    });
    expect(unknown.statusCode).toBe(404);
  });
});
