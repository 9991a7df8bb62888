import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { adminAuditLog, rowsOf } from "@enmusubi/db";
import { openTestDatabase } from "@enmusubi/db/testing";
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { buildApp } from "../src/app";
import { loadConfig } from "../src/config";
import { testPasswords, useTestServer, writeTestWebDist } from "./helpers";
import { parseExposition } from "./prometheus";

/** Operations: /metrics, request ids, /readyz (decision 0035). */

const TOKEN = "metrics-token-for-the-tests-0123";
const PROXY = "10.0.0.1";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("GET /metrics", () => {
  const server = useTestServer({ env: { METRICS_TOKEN: TOKEN } });

  const scrape = (authorization?: string) =>
    server.app.inject({ method: "GET", url: "/metrics", headers: authorization ? { authorization } : {} });

  it("is refused without the token, or with another one", async () => {
    for (const authorization of [undefined, "Bearer wrong-token-wrong-token-00", `Basic ${TOKEN}`]) {
      const answer = await scrape(authorization);
      expect(answer.statusCode).toBe(401);
      expect(answer.body).not.toContain("enmusubi_");
    }
  });

  it("counts requests by route pattern and status, times procedures, reads the queues and the process", async () => {
    const member = await server.createUser({ name: "計測" });
    for (const id of ["00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002"]) {
      await server.app.inject({
        method: "GET",
        url: `/api/board/${id}`,
        headers: { authorization: `Bearer ${member.token}` },
      });
    }
    expect((await server.app.inject({ method: "GET", url: "/trpc/reference.occupations.list" })).statusCode).toBe(200);
    await server.app.inject({ method: "GET", url: "/no/such/page/secret-123" });

    const answer = await scrape(`Bearer ${TOKEN}`);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
    const families = parseExposition(answer.body);

    const requests = families.get("enmusubi_http_requests_total");
    expect(requests?.type).toBe("counter");
    const routes = requests?.samples.map((s) => s.labels.route) ?? [];
    // The pattern, never the URL: the two ids are one series, the unknown path no series of its own.
    expect(routes).toContain("/api/board/:id");
    expect(routes.some((r) => r?.includes("00000000") || r?.includes("secret-123"))).toBe(false);
    const byId = requests?.samples.filter((s) => s.labels.route === "/api/board/:id") ?? [];
    expect(byId.reduce((n, s) => n + s.value, 0)).toBe(2);
    expect(byId.every((s) => s.labels.method === "GET" && /^\d{3}$/.test(s.labels.status ?? ""))).toBe(true);
    expect(requests?.samples.some((s) => s.labels.route === "(unmatched)" && s.labels.status === "404")).toBe(true);

    const latency = families.get("enmusubi_http_request_duration_seconds");
    expect(latency?.type).toBe("histogram");
    expect(latency?.samples.some((s) => s.name.endsWith("_bucket") && s.labels.le === "+Inf")).toBe(true);

    const procedures = families.get("enmusubi_trpc_procedure_duration_seconds");
    expect(procedures?.type).toBe("histogram");
    const count = procedures?.samples.find(
      (s) => s.name.endsWith("_count") && s.labels.path === "reference.occupations.list",
    );
    expect(count).toMatchObject({ labels: { type: "query", ok: "true" } });
    expect(count?.value).toBeGreaterThanOrEqual(1);

    expect(families.get("enmusubi_mail_outbox_pending")?.samples[0]?.value).toBeGreaterThanOrEqual(0);
    const scheduled = families.get("enmusubi_scheduled_messages")?.samples.map((s) => s.labels.state);
    expect(scheduled?.sort()).toEqual(["due", "failed", "pending"]);
    expect(families.get("enmusubi_sse_connections")?.samples[0]?.value).toBe(0);
    expect(families.has("enmusubi_job_queue_jobs")).toBe(true);
    if (server.database.kind === "postgres") {
      expect(families.get("enmusubi_db_pool_max")?.samples[0]?.value).toBe(server.database.poolMax);
      expect(families.get("enmusubi_db_connections")?.samples.length).toBeGreaterThan(0);
    }
    for (const name of [
      "process_cpu_user_seconds_total",
      "process_resident_memory_bytes",
      "nodejs_eventloop_lag_seconds",
    ])
      expect(families.has(name), name).toBe(true);
  });
});

describe("GET /metrics without METRICS_TOKEN", () => {
  const server = useTestServer();
  it("does not exist", async () => {
    const answer = await server.app.inject({ method: "GET", url: "/metrics", headers: { authorization: "Bearer x" } });
    expect(answer.statusCode).toBe(404);
  });
});

describe("request ids", () => {
  const server = useTestServer({ env: { TRUST_PROXY: PROXY } });

  const get = (remoteAddress: string, id?: string) =>
    server.app.inject({
      method: "GET",
      url: "/healthz",
      remoteAddress,
      headers: id === undefined ? {} : { "x-request-id": id },
    });

  it("are generated, and returned in the response", async () => {
    const a = await get("203.0.113.1");
    const b = await get("203.0.113.1");
    expect(a.headers["x-request-id"]).toMatch(UUID);
    expect(b.headers["x-request-id"]).toMatch(UUID);
    expect(a.headers["x-request-id"]).not.toBe(b.headers["x-request-id"]);
  });

  it("are taken from X-Request-Id only from a trusted proxy, and only when well formed", async () => {
    expect((await get(PROXY, "lb-1234.abc")).headers["x-request-id"]).toBe("lb-1234.abc");
    expect((await get("203.0.113.1", "lb-1234.abc")).headers["x-request-id"]).toMatch(UUID);
    for (const bad of ["", "with space", "x".repeat(129), "évil", "a\u0000b"])
      expect((await get(PROXY, bad)).headers["x-request-id"]).toMatch(UUID);
  });

  it("are written on the audit rows the request writes (REST and tRPC)", async () => {
    const admin = await server.createUser({ role: "admin" });
    const created = await server.app.inject({
      method: "POST",
      url: "/api/occupations",
      remoteAddress: PROXY,
      headers: { authorization: `Bearer ${admin.token}`, "x-request-id": "audit-probe-1" },
      payload: { occupaionName: "監査テスト職" },
    });
    expect(created.statusCode, created.body).toBe(201);
    const rows = await server.database.db
      .select()
      .from(adminAuditLog)
      .where(eq(adminAuditLog.requestId, "audit-probe-1"));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ adminId: admin.id });

    const trpc = await server.app.inject({
      method: "POST",
      url: "/trpc/reference.occupations.create",
      headers: { authorization: `Bearer ${admin.token}`, "content-type": "application/json" },
      payload: { json: { name: "監査テスト職2" } },
    });
    expect(trpc.statusCode, trpc.body).toBe(200);
    const id = trpc.headers["x-request-id"] as string;
    expect(id).toMatch(UUID);
    const [row] = await server.database.db.select().from(adminAuditLog).where(eq(adminAuditLog.requestId, id));
    expect(row).toMatchObject({ adminId: admin.id, targetType: expect.any(String) });
  });
});

describe("request ids in the log, /readyz, draining", () => {
  const lines: string[] = [];
  let app: FastifyInstance;
  let database: Awaited<ReturnType<typeof openTestDatabase>>;

  beforeAll(async () => {
    database = await openTestDatabase(inject("dbTemplate"));
    const dataDir = mkdtempSync(path.join(tmpdir(), "enmusubi-ops-test-"));
    const config = {
      ...loadConfig({
        NODE_ENV: "development",
        DATA_DIR: dataDir,
        JWT_SECRET: "ops-test-secret-ops-test-secret-ops-test-0123",
        LOG_LEVEL: "debug",
        TRUST_PROXY: PROXY,
      }),
      webDist: writeTestWebDist(dataDir),
      jobs: false,
    };
    app = await buildApp(config, {
      database,
      passwords: testPasswords,
      logger: { stream: { write: (line: string) => void lines.push(line) } },
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it("every log line of a request carries its id", async () => {
    lines.length = 0;
    const answer = await app.inject({
      method: "GET",
      url: "/api/no-such-route",
      remoteAddress: PROXY,
      headers: { "x-request-id": "log-probe-7" },
    });
    expect(answer.headers["x-request-id"]).toBe("log-probe-7");
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const ofRequest = entries.filter((e) => e.req !== undefined || e.res !== undefined);
    expect(ofRequest.length).toBeGreaterThanOrEqual(2); // incoming and completed, at debug
    expect(ofRequest.every((e) => e.reqId === "log-probe-7")).toBe(true);
  });

  it("/readyz answers 200 when migrated, 503 while a migration is missing", async () => {
    expect((await app.inject({ method: "GET", url: "/readyz" })).json()).toEqual({ status: "ready" });
    const newest = "(select max(created_at) from drizzle.__drizzle_migrations)";
    const [removed] = await rowsOf<{ id: number; hash: string; created_at: string }>(
      database.db,
      sql.raw(
        `select id, hash, created_at::text as created_at from drizzle.__drizzle_migrations where created_at = ${newest}`,
      ),
    );
    if (!removed) throw new Error("no migration recorded");
    await database.db.execute(`delete from drizzle.__drizzle_migrations where created_at = ${newest}`);
    try {
      const answer = await app.inject({ method: "GET", url: "/readyz" });
      expect({ status: answer.statusCode, body: answer.json() }).toEqual({
        status: 503,
        body: { status: "not ready", reason: "migrations pending" },
      });
    } finally {
      await database.db.execute(
        `insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${Number(removed.id)}, '${removed.hash}', ${removed.created_at})`,
      );
    }
    expect((await app.inject({ method: "GET", url: "/readyz" })).statusCode).toBe(200);
    // Liveness does not look at migrations.
    expect((await app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
  });

  it("/readyz answers 503 once the server drains (main.ts on SIGTERM, before app.close)", async () => {
    expect((await app.inject({ method: "GET", url: "/readyz" })).statusCode).toBe(200);
    app.startDraining();
    const answer = await app.inject({ method: "GET", url: "/readyz" });
    expect(answer.statusCode).toBe(503);
    expect(answer.headers.connection).toBe("close");
    expect((await app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(503);
  });
});
