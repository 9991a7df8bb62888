import { beforeAll, describe, expect, it } from "vitest";
import { restRoutes } from "../src/rest";
import { type RestUser, useTestServer } from "./helpers";

const server = useTestServer();
let admin: RestUser;
let member: RestUser;

beforeAll(async () => {
  admin = await server.createUser({ role: "admin" });
  member = await server.createUser();
});

/** Shapes a careless or hostile client sends: wrong types, nesting, huge and odd strings. */
const BODIES: unknown[] = [
  {},
  [],
  "text",
  42,
  null,
  { a: { b: { c: [1, 2, 3] } } },
  {
    userID: 1,
    password: ["x"],
    email: { $ne: null },
    gender: "other",
    points: "-1",
    sendPoints: 2 ** 60,
    name: "x".repeat(10_000),
    photoLink: { photodatas: 5 },
    photodatas: "data:image/png;base64,%%%",
    occupaionName: ["a"],
    annualIncomeRange: {},
    pointCost: "1.5",
    actionName: "../../etc",
    quantity: -3,
    birthday: "2000-02-30",
    occupation: { _id: "' or 1=1 --" },
  },
];
const IDS = ["x", "00000000-0000-4000-8000-000000000000", "%00", "' or 1=1 --"];

describe("no bad input produces a 500", () => {
  it("every REST route answers < 500 with a Japanese message for garbage, as admin, member and anonymous", async () => {
    const failures: string[] = [];
    for (const route of restRoutes) {
      for (const id of route.path.includes(":") ? IDS : [""]) {
        const url = route.path.replace(/:(\w+)/g, encodeURIComponent(id));
        for (const as of [admin, member, undefined]) {
          const payloads = route.method === "GET" || route.method === "DELETE" ? [undefined] : BODIES;
          for (const payload of payloads) {
            const res = await server.request({
              method: route.method,
              url: route.method === "GET" ? `${url}?page=-1&limit=abc&search=%27&field=nope` : url,
              ...(as ? { as } : {}),
              ...(payload === undefined
                ? {}
                : { payload: JSON.stringify(payload), headers: { "content-type": "application/json" } }),
            });
            const message = String(res.headers["content-type"]).includes("json") ? res.json()?.message : undefined;
            if (res.statusCode >= 500 || (res.statusCode >= 400 && !/[ぁ-んァ-ヶ一-龠]/.test(String(message)))) {
              failures.push(
                `${route.method} ${url} ${JSON.stringify(payload)?.slice(0, 60)} → ${res.statusCode} ${message}`,
              );
            }
          }
        }
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it("a JSON body that is not an object is refused with 400", async () => {
    for (const payload of ["[]", '"text"', "42", "null"]) {
      const res = await server.request({
        method: "PUT",
        url: "/api/auth/profile",
        as: member,
        payload,
        headers: { "content-type": "application/json" },
      });
      expect(res.statusCode, payload).toBe(400);
    }
  });
});
