import { MSG, OFFERED_ACTIONS, POINT_COST_ABSOLUTE_MAX, pointCostAboveCap } from "@enmusubi/shared";
import { beforeAll, describe, expect, it } from "vitest";
import { type RestUser, snapshotTables, useTestServer } from "./helpers";

const server = useTestServer();
let admin: RestUser;
let member: RestUser;

beforeAll(async () => {
  admin = await server.createUser({ role: "admin" });
  member = await server.createUser();
});

const TABLES = ["occupations", "annual_incomes", "point_costs", "admin_audit_log"];

describe("occupation and annual-income rows", () => {
  it("lists without a token in the legacy shapes", async () => {
    const occupations = await server.request({ method: "GET", url: "/api/occupations" });
    expect(occupations.statusCode).toBe(200);
    expect(occupations.json()[0]).toEqual({ _id: expect.any(String), occupaionName: "会社員" });
    const incomes = await server.request({ method: "GET", url: "/api/annual-incomes" });
    expect(Object.keys(incomes.json()[0]).sort()).toEqual(["_id", "annualIncome"]);
  });

  it("adds with occupaionName / annualIncomeRange and deletes by id", async () => {
    const added = await server.request({
      method: "POST",
      url: "/api/occupations",
      as: admin,
      payload: { occupaionName: "料理人" },
    });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({ occupaionName: "料理人" });
    const income = await server.request({
      method: "POST",
      url: "/api/annual-incomes",
      as: admin,
      payload: { annualIncomeRange: "2000万円以上" },
    });
    expect(income.json()).toMatchObject({ annualIncome: "2000万円以上" });

    const del = await server.request({ method: "DELETE", url: `/api/occupations/${added.json()._id}`, as: admin });
    expect(del.json()).toEqual({ message: MSG.occupationDeleted });
    const delIncome = await server.request({
      method: "DELETE",
      url: `/api/annual-incomes/${income.json()._id}`,
      as: admin,
    });
    expect(delIncome.statusCode).toBe(200);
    const again = await server.request({ method: "DELETE", url: `/api/occupations/${added.json()._id}`, as: admin });
    expect(again.statusCode).toBe(404);
  });

  it("bad input and wrong roles give Japanese errors and change nothing", async () => {
    const before = await snapshotTables(server, ...TABLES);
    const empty = await server.request({
      method: "POST",
      url: "/api/occupations",
      as: admin,
      payload: { occupaionName: "" },
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({ message: MSG.occupationRequired });
    const missing = await server.request({ method: "POST", url: "/api/annual-incomes", as: admin, payload: {} });
    expect(missing.json()).toEqual({ message: MSG.annualIncomeRequired });
    const wrongType = await server.request({
      method: "POST",
      url: "/api/occupations",
      as: admin,
      payload: { occupaionName: 42 },
    });
    expect(wrongType.statusCode).toBe(400);
    const badId = await server.request({ method: "DELETE", url: "/api/annual-incomes/xyz", as: admin });
    expect(badId.statusCode).toBe(400);
    const byMember = await server.request({
      method: "POST",
      url: "/api/occupations",
      as: member,
      payload: { occupaionName: "x" },
    });
    expect(byMember.statusCode).toBe(403);
    const anonymous = await server.request({
      method: "POST",
      url: "/api/annual-incomes",
      payload: { annualIncomeRange: "x" },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(await snapshotTables(server, ...TABLES)).toEqual(before);
  });
  it("a name already listed answers 409 with the catalogue message and adds nothing", async () => {
    const before = await snapshotTables(server, ...TABLES);
    const occupation = await server.request({
      method: "POST",
      url: "/api/occupations",
      as: admin,
      payload: { occupaionName: "会社員" },
    });
    expect(occupation.statusCode).toBe(409);
    expect(occupation.json()).toEqual({ message: MSG.occupationTaken });
    const income = (await server.request({ method: "GET", url: "/api/annual-incomes" })).json()[0].annualIncome;
    const again = await server.request({
      method: "POST",
      url: "/api/annual-incomes",
      as: admin,
      payload: { annualIncomeRange: income },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: MSG.annualIncomeTaken });
    const action = await server.request({
      method: "POST",
      url: "/api/point-costs",
      as: admin,
      payload: { actionName: "profile_view", displayName: "重複" },
    });
    expect(action.statusCode).toBe(409);
    expect(action.json()).toEqual({ message: MSG.actionNameTaken });
    expect(await snapshotTables(server, ...TABLES)).toEqual(before);
  });
});

describe("point-cost rows", () => {
  it("GET lists the prices the service charges without a token, and the twelve legal rows to an administrator", async () => {
    const res = await server.request({ method: "GET", url: "/api/point-costs" });
    expect(res.json().map((r: { actionName: string }) => r.actionName)).toEqual([...OFFERED_ACTIONS]);
    expect(res.json()[0]).toMatchObject({ actionName: "message_board_view", displayName: "掲示板閲覧", pointCost: 10 });
    const all = await server.request({ method: "GET", url: "/api/point-costs", as: admin });
    expect(all.json()).toHaveLength(12);
    expect(all.json().find((r: { actionName: string }) => r.actionName === "movie_play")).toMatchObject({
      offered: false,
    });
  });

  it("PUT edits (digit strings accepted) and refuses a cost above the legal fee with 400", async () => {
    const ok = await server.request({
      method: "PUT",
      url: "/api/point-costs/message_board_view",
      as: admin,
      payload: { pointCost: "8", displayName: "掲示板閲覧", description: "入室時" },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ pointCost: 8, description: "入室時" });
    const before = await snapshotTables(server, ...TABLES);
    const high = await server.request({
      method: "PUT",
      url: "/api/point-costs/message_board_view",
      as: admin,
      payload: { pointCost: 11 },
    });
    expect(high.statusCode).toBe(400);
    expect(high.json()).toEqual({ message: pointCostAboveCap(10) });
    const negative = await server.request({
      method: "PUT",
      url: "/api/point-costs/message_board_view",
      as: admin,
      payload: { pointCost: -5 },
    });
    expect(negative.json()).toEqual({ message: MSG.pointCostInvalid });
    const byMember = await server.request({
      method: "PUT",
      url: "/api/point-costs/message_board_view",
      as: member,
      payload: { pointCost: 0 },
    });
    expect(byMember.statusCode).toBe(403);
    expect(await snapshotTables(server, ...TABLES)).toEqual(before);
  });

  it("an unknown action answers 404; a new action costs at most 500", async () => {
    const unknown = await server.request({
      method: "PUT",
      url: "/api/point-costs/no_such_action",
      as: admin,
      payload: { pointCost: 1 },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: MSG.notFound });
    const gone = await server.request({ method: "DELETE", url: "/api/point-costs/no_such_action", as: admin });
    expect(gone.statusCode).toBe(404);
    const high = await server.request({
      method: "POST",
      url: "/api/point-costs",
      as: admin,
      payload: { actionName: "gift_send", displayName: "ギフト", pointCost: 501 },
    });
    expect(high.statusCode).toBe(400);
    expect(high.json()).toEqual({ message: pointCostAboveCap(POINT_COST_ABSOLUTE_MAX) });
  });

  it("POST adds with the default cost 5; DELETE removes it but not a legal row", async () => {
    const created = await server.request({
      method: "POST",
      url: "/api/point-costs",
      as: admin,
      payload: { actionName: "voice_call", displayName: "音声通話", description: "1分ごと" },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ actionName: "voice_call", pointCost: 5 });
    const del = await server.request({ method: "DELETE", url: "/api/point-costs/voice_call", as: admin });
    expect(del.json()).toEqual({ message: MSG.pointCostDeleted });
    const legal = await server.request({ method: "DELETE", url: "/api/point-costs/profile_view", as: admin });
    expect(legal.statusCode).toBe(400);
    expect(legal.json()).toEqual({ message: MSG.legalPointCostNotDeletable });
  });
});
