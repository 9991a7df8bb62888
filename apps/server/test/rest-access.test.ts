import { randomUUID } from "node:crypto";
import { createCaller, createContextInner, type Session } from "@enmusubi/api";
import { MSG } from "@enmusubi/shared";
import { TRPCError } from "@trpc/server";
import type { FastifyReply, FastifyRequest } from "fastify";
import { beforeAll, describe, expect, it } from "vitest";
import { BODY_LIMIT_BYTES } from "../src/app";
import { restRoutes } from "../src/rest";
import type { Access, RestRoute } from "../src/rest/adapter";
import { type RestUser, useTestServer } from "./helpers";

/**
 * A route's `access` must say what the procedure behind it enforces. The adapter refuses callers
 * by `access` before anything else, and the OpenAPI document derives 401/403 from it; here every
 * route is called as anonymous, member and administrator, once over HTTP (the adapter's answer)
 * and once straight through its handler with the adapter's check left out (the procedure's own
 * answer), and both must be what `access` declares.
 */

const server = useTestServer();
let admin: RestUser;
let member: RestUser;

beforeAll(async () => {
  admin = await server.createUser({ role: "admin" });
  member = await server.createUser();
});

type Who = "anonymous" | "member" | "admin";
type Outcome = "allowed" | 401 | 403;

/** What `access` promises each kind of caller. */
const EXPECTED: Record<Access, Record<Who, Outcome>> = {
  public: { anonymous: "allowed", member: "allowed", admin: "allowed" },
  signedIn: { anonymous: 401, member: "allowed", admin: "allowed" },
  member: { anonymous: 401, member: "allowed", admin: 403 },
  admin: { anonymous: 401, member: 403, admin: "allowed" },
};

const WHO: Who[] = ["anonymous", "member", "admin"];
const userOf = (who: Who) => (who === "admin" ? admin : who === "member" ? member : undefined);

/** Path parameters that name nothing (so no route changes a real row), in a valid form. */
const params = (path: string) =>
  Object.fromEntries(
    [...path.matchAll(/:(\w+)/g)].map(([, name]) => [name, name === "id" ? randomUUID() : "none_such"]),
  );
const urlOf = (r: RestRoute, p: Record<string, string>) =>
  r.path.replace(/:(\w+)/g, (_m, n: string) => encodeURIComponent(p[n] ?? ""));
const label = (r: RestRoute, who: Who) => `${r.method} ${r.path} as ${who} (${r.access})`;

/** How a refusal for the caller's role reads, whether from the adapter or the procedure. */
function refusal(status: number, message: unknown): Outcome {
  if (status === 401 && message === MSG.unauthorized) return 401;
  if (status === 403 && message === MSG.forbidden) return 403;
  return "allowed";
}

describe("every REST route's access", () => {
  it("declares one of the four kinds", () => {
    for (const r of restRoutes) expect(["public", "signedIn", "member", "admin"], r.path).toContain(r.access);
  });

  it("is what the adapter answers: 401/403 by role, with an empty request", async () => {
    const failures: string[] = [];
    for (const r of restRoutes) {
      for (const who of WHO) {
        const res = await server.request({
          method: r.method,
          url: urlOf(r, params(r.path)),
          ...(userOf(who) ? { as: userOf(who) } : {}),
          ...(r.method === "GET" || r.method === "DELETE" ? {} : { payload: {} }),
        });
        // A download (e.g. CSV) has no JSON body; a refusal always has one.
        const json = String(res.headers["content-type"]).includes("json");
        const outcome = refusal(res.statusCode, json ? res.json().message : undefined);
        if (outcome !== EXPECTED[r.access][who]) {
          failures.push(`${label(r, who)}: ${res.statusCode} ${res.body.slice(0, 80)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 60_000);

  it("is what the procedure behind it enforces, with the adapter's check left out", async () => {
    const failures: string[] = [];
    const reply = { header: () => reply, status: () => reply } as unknown as FastifyReply;
    for (const r of restRoutes) {
      for (const who of WHO) {
        const user = userOf(who);
        const session: Session | null = user ? user.session : null;
        const caller = createCaller(createContextInner(server.app.deps, session));
        const raw = { ...params(r.path) };
        const parsed = r.input?.safeParse(raw);
        // Invalid input goes to the handler as it is: the procedure checks roles before input.
        const input = parsed?.success ? parsed.data : raw;
        let outcome: Outcome = "allowed";
        const request = {} as FastifyRequest;
        // A route that reads its session with its answer (GET /api/auth/me): that read is what
        // refuses a caller without a valid token, and what its handler answers from.
        if (r.resolveSession && !(await r.resolveSession(server.app.deps, user && `Bearer ${user.token}`, request))) {
          outcome = 401;
          if (outcome !== EXPECTED[r.access][who])
            failures.push(`${label(r, who)}: its session's read refuses, access promises ${EXPECTED[r.access][who]}`);
          continue;
        }
        try {
          await r.handler(caller, input as never, request, reply);
        } catch (error) {
          if (!(error instanceof TRPCError)) {
            failures.push(`${label(r, who)}: the handler threw before any procedure answered: ${String(error)}`);
            continue;
          }
          outcome = refusal(error.code === "UNAUTHORIZED" ? 401 : error.code === "FORBIDDEN" ? 403 : 0, error.message);
        }
        if (outcome !== EXPECTED[r.access][who]) {
          failures.push(
            `${label(r, who)}: the procedure answers ${outcome}, access promises ${EXPECTED[r.access][who]}`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
  }, 60_000);
});

describe("access is settled before the request is read", () => {
  const guarded = restRoutes.filter((r) => r.access !== "public" && r.method !== "GET");

  it("an anonymous caller gets 401, never a field error, whatever the body holds", async () => {
    const failures: string[] = [];
    for (const r of guarded) {
      const url = urlOf(r, { id: "not-a-uuid", actionName: "BAD name!" });
      for (const [payload, type] of [
        [
          JSON.stringify({ name: 42, email: "broken", points: -1, photodatas: 5, pointCost: "lots" }),
          "application/json",
        ],
        ["{not json", "application/json"],
        ["[]", "application/json"],
        ["<xml/>", "application/xml"],
      ] as const) {
        const res = await server.request({ method: r.method, url, payload, headers: { "content-type": type } });
        if (res.statusCode !== 401 || res.json().message !== MSG.unauthorized) {
          failures.push(`${r.method} ${r.path} ${payload}: ${res.statusCode} ${res.body.slice(0, 80)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it("the wrong role gets 403 before any field error", async () => {
    const failures: string[] = [];
    for (const r of restRoutes.filter((x) => x.access === "admin" || x.access === "member")) {
      const url = urlOf(r, { id: "not-a-uuid", actionName: "BAD name!" });
      const res = await server.request({
        method: r.method,
        as: r.access === "admin" ? member : admin,
        ...(r.method === "GET" ? { url: `${url}?page=-1&limit=abc` } : { url, payload: { name: 42, pointCost: -1 } }),
      });
      if (res.statusCode !== 403 || res.json().message !== MSG.forbidden) {
        failures.push(`${r.method} ${r.path}: ${res.statusCode} ${res.body.slice(0, 80)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("an anonymous caller sending a body above the limit gets 401, not 413", async () => {
    const res = await server.request({
      method: "POST",
      url: "/api/admin/users",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ name: "x".repeat(BODY_LIMIT_BYTES + 1) }),
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe(MSG.unauthorized);
  });

  it("a public route ignores a token that is not valid", async () => {
    const res = await server.request({
      method: "GET",
      url: "/api/occupations",
      headers: { authorization: "Bearer not-a-token" },
    });
    expect(res.statusCode).toBe(200);
  });
});
