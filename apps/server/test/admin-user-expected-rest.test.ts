import { MSG } from "@enmusubi/shared";
import { beforeAll, describe, expect, it } from "vitest";
import { type RestUser, snapshotTables, useTestServer } from "./helpers";

/**
 * PUT /api/admin/users/{id} with `expectedPoints` / `expectedSendPoints` (decision 0016): the
 * balances the administrator saw, checked under the row lock as the tRPC edit checks them.
 */
const server = useTestServer();
let admin: RestUser;
const TABLES = ["users", "point_ledger", "point_lots", "admin_audit_log"];

beforeAll(async () => {
  admin = await server.createUser({ role: "admin" });
});

const put = (id: string, payload: Record<string, unknown>) =>
  server.request({ method: "PUT", url: `/api/admin/users/${id}`, as: admin, payload });

/** A member at 100 pt / 20 send points who then spends 15 pt: the administrator's 100 is stale. */
async function spentMember(): Promise<RestUser> {
  const target = await server.createUser({ points: 100, sendPoints: 20 });
  const spent = await server.request({
    method: "POST",
    url: "/api/users/deduct-points",
    as: target,
    payload: { actionName: "profile_view" },
  });
  expect(spent.json()).toMatchObject({ success: true, remainingPoints: 85 });
  return target;
}

describe("PUT /api/admin/users/{id} with expected figures", () => {
  it("a stale expectedPoints answers 409 with the current figures and changes nothing", async () => {
    const target = await spentMember();
    const before = await snapshotTables(server, ...TABLES);
    const refused = await put(target.id, { name: "古い", points: 300, expectedPoints: 100 });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ message: MSG.balanceChanged, points: 85, sendPoints: 20 });
    expect(await snapshotTables(server, ...TABLES)).toEqual(before);
  });

  it("a stale expectedSendPoints answers 409 too, whatever else the body holds", async () => {
    const target = await spentMember();
    const before = await snapshotTables(server, ...TABLES);
    const refused = await put(target.id, {
      name: "古い",
      points: 85,
      expectedPoints: "85",
      sendPoints: 5,
      expectedSendPoints: 19,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ message: MSG.balanceChanged, points: 85, sendPoints: 20 });
    expect(await snapshotTables(server, ...TABLES)).toEqual(before);
  });

  it("the current figures (digit strings too) apply the edit", async () => {
    const target = await spentMember();
    const applied = await put(target.id, {
      name: "新しい",
      points: "300",
      expectedPoints: "85",
      sendPoints: 5,
      expectedSendPoints: 20,
    });
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json()).toMatchObject({ name: "新しい", points: 300, sendPoints: 5 });
  });

  it("with If-Match, a current version and a stale expected figure still answer 409", async () => {
    const target = await spentMember();
    const read = await server.request({ method: "GET", url: `/api/admin/users/${target.id}`, as: admin });
    const before = await snapshotTables(server, ...TABLES);
    const refused = await server.request({
      method: "PUT",
      url: `/api/admin/users/${target.id}`,
      as: admin,
      headers: { "if-match": read.headers.etag as string },
      payload: { points: 300, expectedPoints: 100 },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ message: MSG.balanceChanged, points: 85, sendPoints: 20 });
    expect(await snapshotTables(server, ...TABLES)).toEqual(before);
  });

  it("a malformed expected figure answers 400 in Japanese and changes nothing", async () => {
    const target = await spentMember();
    const before = await snapshotTables(server, ...TABLES);
    for (const expectedPoints of [-1, "abc", 1.5]) {
      const refused = await put(target.id, { points: 300, expectedPoints });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe(MSG.balanceExpectedMissing);
    }
    expect(await snapshotTables(server, ...TABLES)).toEqual(before);
  });

  it("is documented: the body's fields and the 409 answer with its figures", async () => {
    const doc = (await server.request({ method: "GET", url: "/api/openapi.json" })).json();
    const operation = doc.paths["/api/admin/users/{id}"].put;
    const body = operation.requestBody.content["application/json"].schema.properties;
    expect(Object.keys(body)).toEqual(expect.arrayContaining(["expectedPoints", "expectedSendPoints"]));
    const conflict = operation.responses["409"].content["application/json"];
    expect(Object.values(conflict.examples)).toContainEqual({
      summary: MSG.balanceChanged,
      value: { message: MSG.balanceChanged, points: 1052, sendPoints: 20 },
    });
  });
});
