import type { ApiDeps } from "@enmusubi/api";
import { MSG } from "@enmusubi/shared";
import { Validator } from "@seriousme/openapi-schema-validator";
import { TRPCError } from "@trpc/server";
import Fastify from "fastify";
import type { Operation } from "openapi-backend";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { restRoutes } from "../src/rest";
import { errorStatuses, type RestRoute, registerRoutes, route } from "../src/rest/adapter";
import { buildOpenApiDocument } from "../src/rest/openapi";
import { checkedInject, createContractChecker, publishedDocument } from "./contract";
import { type RestUser, useTestServer } from "./helpers";

/**
 * The contract between the REST layer and its published OpenAPI document: the document is valid
 * OpenAPI 3.1, every status of every route is documented with an example that itself conforms,
 * and the checker every REST test goes through (helpers.ts) catches answers that drift.
 */

const server = useTestServer();
let admin: RestUser;
let document: Record<string, unknown>;

beforeAll(async () => {
  admin = await server.createUser({ role: "admin" });
  document = await publishedDocument(server.app);
});

type Responses = Record<
  string,
  { content?: Record<string, { example?: unknown; examples?: Record<string, { value: unknown }> }> }
>;

interface OperationDoc {
  responses: Record<string, { headers?: Record<string, unknown> }>;
  requestBody?: { content: Record<string, { schema: { properties: Record<string, Record<string, unknown>> } }> };
}

/** One operation of the published document. */
function documented(path: string, method: string): OperationDoc {
  const paths = document.paths as Record<string, Record<string, OperationDoc>>;
  return paths[path]?.[method] ?? { responses: {} };
}

function operations(doc: Record<string, unknown>) {
  const out: Array<{ method: string; path: string; op: { operationId: string; responses: Responses } }> = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
    for (const [method, op] of Object.entries(item)) out.push({ method, path, op: op as never });
  }
  return out;
}

describe("the published document", () => {
  it("is valid OpenAPI 3.1", async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(validator.version).toBe("3.1");
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("has one operation per REST route, and every status each can answer with an example that conforms", async () => {
    expect(operations(document)).toHaveLength(restRoutes.length);
    const failures: string[] = [];
    for (const { method, path, op } of operations(document)) {
      const operation = server.contract.operation({ method, url: path.replace(/\{\w+\}/g, "x") });
      expect(operation?.operationId, `${method} ${path}`).toBe(op.operationId);
      for (const [status, response] of Object.entries(op.responses)) {
        // JSON, or the one media type of a download (e.g. text/csv).
        const media = response.content?.["application/json"] ?? Object.values(response.content ?? {})[0];
        const examples = [
          ...(media?.example === undefined ? [] : [media.example]),
          ...Object.values(media?.examples ?? {}).map((e) => e.value),
        ];
        if (examples.length === 0) failures.push(`${method} ${path} ${status}: no example`);
        for (const example of examples) {
          for (const problem of server.contract.bodyProblems(operation as Operation, Number(status), example)) {
            failures.push(`${method} ${path} ${status}: example ${JSON.stringify(example)} ${problem}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it("documents each route's statuses: 401/403 from its access, 400/413/415 for bodies, 404/409/429 declared, 500/503", () => {
    const statuses = (path: string, method: string) => Object.keys(documented(path, method).responses);
    // 403: a suspended account, once its password matched.
    expect(statuses("/api/auth/login", "post")).toEqual([
      "200",
      "400",
      "401",
      "403",
      "413",
      "415",
      "429",
      "500",
      "503",
    ]);
    expect(statuses("/api/occupations", "get")).toEqual(["200", "500", "503"]);
    expect(statuses("/api/auth/me", "get")).toEqual(["200", "401", "500", "503"]);
    expect(statuses("/api/admin/users/{id}", "delete")).toEqual([
      "200",
      "400",
      "401",
      "403",
      "404",
      "413",
      "415",
      "500",
      "503",
    ]);
    expect(statuses("/api/users/deduct-points", "post")).toContain("402");
    expect(statuses("/api/photo-data/photo-data", "post")).toEqual(expect.arrayContaining(["413", "429"]));
  });

  it("lists 404 for every operation whose path has a parameter (the thing it names may not exist)", () => {
    const missing = operations(document)
      .filter(({ path, op }) => path.includes("{") && !("404" in op.responses))
      .map(({ method, path }) => `${method} ${path}`);
    expect(missing).toEqual([]);
    // The rule lives in errorStatuses, so a new route with a parameter gets it without declaring it.
    const undeclared = route({
      method: "GET",
      path: "/api/thing/:id",
      summary: "A route with a parameter and no declared errors",
      access: "public",
      response: z.object({}),
      example: {},
      handler: async () => ({}),
    });
    expect(errorStatuses(undeclared).get(404)).toEqual([MSG.notFound]);
  });

  it("documents the X-Total-Count header of the admin user list and the point-cost limit", () => {
    expect(documented("/api/admin/users", "get").responses["200"]?.headers?.["X-Total-Count"]).toMatchObject({
      required: true,
      schema: { type: "integer", minimum: 0 },
    });
    for (const [path, method] of [
      ["/api/point-costs/{actionName}", "put"],
      ["/api/point-costs", "post"],
    ] as const) {
      const pointCost = documented(path, method).requestBody?.content["application/json"]?.schema.properties.pointCost;
      expect(pointCost).toMatchObject({ type: "integer", minimum: 0, maximum: 500 });
      expect(String(pointCost?.description)).toContain("maxCost");
    }
  });

  it("is what the /api/docs reference page shows", async () => {
    const page = await server.request({ method: "GET", url: "/api/docs/", headers: { accept: "text/html" } });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toContain("text/html");
    const shown = await server.request({ method: "GET", url: "/api/docs/json" });
    expect(shown.json()).toEqual(document);
  });
});

describe("the contract checker catches answers that drift from the document", () => {
  it("refuses the answers the validating proxy found: an undocumented status, body, content type or header", async () => {
    const contract = server.contract;
    const json = { "content-type": "application/json; charset=utf-8" };
    const login = { method: "POST", url: "/api/auth/login" };
    const ok = (body: unknown, headers: Record<string, string> = json, statusCode = 200) => ({
      statusCode,
      headers,
      body: JSON.stringify(body),
    });
    expect(contract.problems(login, ok({ token: "t", role: "user" }))).toEqual([]);
    // A status the operation does not list (the old document's login had no 401; no route has 418).
    expect(contract.problems(login, ok({ message: "x" }, json, 418))?.join()).toMatch(/status 418 is not documented/);
    // A body of the wrong shape: wrong type, a field left out, a field the document does not name.
    expect(contract.problems(login, ok({ token: 42, role: "user" }))?.join()).toMatch(/\/token must be string/);
    expect(contract.problems(login, ok({ role: "user" }))?.join()).toMatch(/required property 'token'/);
    expect(contract.problems(login, ok({ token: "t", role: "user", passwordHash: "x" }))?.join()).toMatch(
      /additional properties/,
    );
    expect(contract.problems(login, ok({ token: "t", role: "root" }))?.join()).toMatch(/\/role must be equal to one/);
    // An error answer without its message, or with figures only 402 carries.
    expect(contract.problems(login, ok({ error: "x" }, json, 401))?.join()).toMatch(/required property 'message'/);
    expect(contract.problems(login, ok({ message: "x", required: 5 }, json, 401))?.join()).toMatch(/additional/);
    // Not JSON, or a content type the document does not list.
    expect(contract.problems(login, { statusCode: 200, headers: json, body: "{token" })).toEqual([
      "the body is not JSON",
    ]);
    expect(contract.problems(login, ok({ token: "t", role: "user" }, { "content-type": "text/html" }))?.join()).toMatch(
      /content type "text\/html" is not documented/,
    );
    // The admin user list without its X-Total-Count, or with one that is not a count.
    const list = { method: "GET", url: "/api/admin/users?page=2" };
    expect(contract.problems(list, ok([], { ...json, "x-total-count": "3", "x-total-estimated": "false" }))).toEqual(
      [],
    );
    expect(contract.problems(list, ok([], json))?.join()).toMatch(/header .*x-total-count/);
    expect(contract.problems(list, ok([], { ...json, "x-total-count": "many" }))?.join()).toMatch(/must be integer/);
    // Paths outside the REST layer are not its business; an /api path it does not list may only be a 404.
    expect(contract.problems({ method: "GET", url: "/healthz" }, ok({ status: "ok" }))).toBeNull();
    expect(contract.problems({ method: "GET", url: "/api/nope" }, ok({ message: MSG.notFound }, json, 404))).toEqual(
      [],
    );
    expect(contract.problems({ method: "GET", url: "/api/undocumented?x=1" }, ok({ a: 1 }))?.join()).toMatch(
      /has no such operation/,
    );
    expect(() => contract.assert(login, ok({ token: 42, role: "user" }))).toThrow(
      /does not match \/api\/openapi\.json/,
    );
  });

  it("fails a request through the test helper when a route's answer drifts from its document", async () => {
    // A route table with one route that answers what it does not document, served by the real
    // adapter and documented by the real generator, is held to its document by the same helper.
    const drifting: RestRoute[] = [
      route({
        method: "GET",
        path: "/api/drift/:mode",
        summary: "Answers what its document says only in mode ok",
        access: "public",
        input: z.object({ mode: z.enum(["ok", "type", "extra", "conflict", "header"]) }),
        response: z.object({ count: z.number().int() }),
        example: { count: 1 },
        headers: { "X-Total-Count": { description: "total", schema: z.number().int() } },
        handler: async (_caller, { mode }, _request, reply) => {
          if (mode !== "header") reply.header("x-total-count", "1");
          if (mode === "type") return { count: "one" } as never;
          if (mode === "extra") return { count: 1, secret: "x" } as never;
          if (mode === "conflict") throw new TRPCError({ code: "CONFLICT", message: "重複しています。" });
          return { count: 1 };
        },
      }),
    ];
    const app = Fastify();
    // No statement runs: the handle is only given to the request's context (context.ts).
    app.decorate("deps", { db: {} } as ApiDeps);
    registerRoutes(app, drifting);
    const doc = buildOpenApiDocument(drifting, { version: "test", serverUrl: "http://localhost" });
    app.get("/api/openapi.json", async () => doc);
    const contract = await createContractChecker(await publishedDocument(app));
    expect(errorStatuses(drifting[0] as RestRoute).has(409)).toBe(false);

    expect((await checkedInject(app, contract, { method: "GET", url: "/api/drift/ok" })).json()).toEqual({ count: 1 });
    await expect(checkedInject(app, contract, { method: "GET", url: "/api/drift/type" })).rejects.toThrow(
      /\/count must be integer/,
    );
    await expect(checkedInject(app, contract, { method: "GET", url: "/api/drift/extra" })).rejects.toThrow(
      /must NOT have additional properties/,
    );
    // A procedure that starts refusing with a status the route does not declare (here 409).
    await expect(checkedInject(app, contract, { method: "GET", url: "/api/drift/conflict" })).rejects.toThrow(
      /status 409 is not documented/,
    );
    await expect(checkedInject(app, contract, { method: "GET", url: "/api/drift/header" })).rejects.toThrow(
      /x-total-count/,
    );
    // An unknown mode is a 400 the document lists (the route has input), with its { message } shape.
    const bad = await checkedInject(app, contract, { method: "GET", url: "/api/drift/nope" });
    expect(bad.statusCode).toBe(400);
    await app.close();
  });

  it("holds real answers of the running server to the document (a wrong password answers a documented 401)", async () => {
    const res = await server.request({
      method: "POST",
      url: "/api/auth/login",
      payload: { userID: admin.userID, password: "wrong-password" },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: MSG.loginFailed });
    // The same answer against a document that leaves 401 out, as the old one did, is refused.
    const withoutUnauthorized = structuredClone(document) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    delete withoutUnauthorized.paths["/api/auth/login"]?.post?.responses["401"];
    const stale = await createContractChecker(withoutUnauthorized);
    expect(() => stale.assert({ method: "POST", url: "/api/auth/login" }, res)).toThrow(/status 401 is not documented/);
  });
});
