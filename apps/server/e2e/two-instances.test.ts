import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { createPasswordHasher } from "@enmusubi/api";
import { createTestAccount } from "@enmusubi/api/testing";
import { createDatabase, type Database, rowsOf } from "@enmusubi/db";
import { testPostgresUrl } from "@enmusubi/db/testing";
import { sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { poolMaxFor } from "../src/config";
import { PRODUCTION_PARTICULARS, PRODUCTION_TEST_SMS } from "../test/legal-env";
import { parseExposition } from "../test/prometheus";

/**
 * Two instances are one service (decision 0035): two copies of the built server
 * (`apps/server/dist/main.mjs`, `pnpm build`), each with WORKERS=2, on one PostgreSQL database
 * and one DATA_DIR. What one instance does, the other sees at once: live unread counts, prices,
 * the scheduled messages (sent once between them), the login limit, uploaded photos.
 * Needs TEST_DATABASE_URL (PostgreSQL; PGlite is one process) and the build: skipped with a
 * notice otherwise (a missing build with TEST_DATABASE_URL and E2E_REQUIRED=1, as in CI: a failure).
 */

const ROOT = path.resolve(import.meta.dirname, "../../..");
const MAIN = path.join(ROOT, "apps/server/dist/main.mjs");
const baseUrl = testPostgresUrl;
const missing = !baseUrl ? "TEST_DATABASE_URL is unset" : !existsSync(MAIN) ? `${MAIN} is missing (pnpm build)` : "";
if (missing) {
  // CI (.ci/run) sets both TEST_DATABASE_URL and E2E_REQUIRED: there a missing build is a failure.
  if (baseUrl && process.env.E2E_REQUIRED === "1") throw new Error(`E2E_REQUIRED=1 but ${missing}`);
  console.warn(`\n  ⚠ Two-instance test skipped: ${missing}.\n`);
}

const passwords = createPasswordHasher({ memoryCost: 1024, timeCost: 1 });
const JWT_SECRET = "two-instances-secret-two-instances-secret-0123";
const SCHEDULED = 1000;
const METRICS_TOKEN = "two-instances-metrics-token";

interface Instance {
  url: string;
  child: ChildProcess;
  output: string[];
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function start(databaseUrl: string, dataDir: string): Promise<Instance> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const output: string[] = [];
  const child = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      ...PRODUCTION_PARTICULARS,
      ...PRODUCTION_TEST_SMS,
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      JWT_SECRET,
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: url,
      WORKERS: "2",
      LOG_LEVEL: "warn",
      // The test's "clients" are told apart by X-Forwarded-For from the loopback proxy (the per-IP limits).
      TRUST_PROXY: "loopback",
      METRICS_TOKEN,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`instance exited ${child.exitCode}:\n${output.join("")}`);
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) return { url, child, output };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill("SIGKILL");
  throw new Error(`instance at ${url} not ready in 60 s:\n${output.join("")}`);
}

async function stop(instance: Instance | undefined) {
  if (!instance || instance.child.exitCode !== null) return;
  const exited = new Promise((resolve) => instance.child.once("exit", resolve));
  instance.child.kill("SIGTERM");
  await exited;
}

let client = 0;
/** JSON over HTTP as a client of its own (X-Forwarded-For: a per-IP limit per test client). */
async function call(
  instance: Instance,
  method: string,
  url: string,
  { token, body, ip }: { token?: string; body?: unknown; ip?: string } = {},
): Promise<{ status: number; json: Record<string, unknown> }> {
  const answer = await fetch(`${instance.url}${url}`, {
    method,
    headers: {
      "x-forwarded-for": ip ?? `198.51.100.${(++client % 250) + 1}`,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await answer.text();
  return { status: answer.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

async function login(instance: Instance, userID: string, password: string): Promise<string> {
  const answer = await call(instance, "POST", "/api/auth/login", { body: { userID, password } });
  if (answer.status !== 200) throw new Error(`login ${userID}: ${answer.status} ${JSON.stringify(answer.json)}`);
  return answer.json.token as string;
}

/** A member's live stream (SSE, tRPC subscription) on one instance: the unread counts it announces. */
function liveCounts(instance: Instance, token: string) {
  const controller = new AbortController();
  const counts: number[] = [];
  const waiters: Array<() => void> = [];
  const params = encodeURIComponent(JSON.stringify({ token }));
  const done = fetch(`${instance.url}/trpc/messages.onUnreadCount?connectionParams=${params}`, {
    signal: controller.signal,
    headers: { accept: "text/event-stream" },
  })
    .then(async (answer) => {
      const decoder = new TextDecoder();
      let buffer = "";
      for await (const chunk of answer.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end = buffer.indexOf("\n");
        while (end !== -1) {
          const line = buffer.slice(0, end);
          buffer = buffer.slice(end + 1);
          if (line.startsWith("data:")) {
            const data = JSON.parse(line.slice(5)) as { json?: { count?: number } };
            if (typeof data.json?.count === "number") {
              counts.push(data.json.count);
              for (const wake of waiters.splice(0)) wake();
            }
          }
          end = buffer.indexOf("\n");
        }
      }
    })
    .catch(() => {});
  return {
    counts,
    /** Resolves when a count satisfying `test` has been announced (or rejects after 10 s). */
    async until(test: (count: number) => boolean): Promise<number> {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const found = counts.find(test);
        if (found !== undefined) return found;
        if (Date.now() > deadline) throw new Error(`no such count; announced: ${counts.join(", ")}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 250);
        });
      }
    },
    close: async () => {
      controller.abort();
      await done;
    },
  };
}

describe.skipIf(Boolean(missing))("two instances of the built server on one database", () => {
  const dirs: string[] = [];
  let db: Database;
  let one: Instance | undefined;
  let two: Instance | undefined;
  const name = `${baseUrl ? new URL(baseUrl).pathname.slice(1) : ""}_two_instances`;

  beforeAll(async () => {
    const admin = new URL(baseUrl as string);
    const server = await createDatabase({ url: admin.toString(), max: 1 });
    try {
      await server.db.execute(sql.raw(`drop database if exists "${name}" with (force)`));
      await server.db.execute(sql.raw(`create database "${name}"`));
    } finally {
      await server.close();
    }
    admin.pathname = `/${name}`;
    const dataDir = mkdtempSync(path.join(tmpdir(), "enmusubi-two-instances-"));
    dirs.push(dataDir);
    // The first migrates; the second starts on the migrated database.
    one = await start(admin.toString(), dataDir);
    two = await start(admin.toString(), dataDir);
    db = await createDatabase({ url: admin.toString(), max: 2 });
  }, 150_000);

  afterAll(async () => {
    await Promise.all([stop(one), stop(two)]);
    await db?.close();
    const server = await createDatabase({ url: baseUrl as string, max: 1 });
    await server.db.execute(sql.raw(`drop database if exists "${name}" with (force)`));
    await server.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const instances = () => [one as Instance, two as Instance] as const;
  const member = (fields: Parameters<typeof createTestAccount>[2] = {}) =>
    createTestAccount(db.db, passwords, { points: 100_000, ...fields });

  it("a message sent through one raises the unread count streamed by the other", async () => {
    const [a, b] = instances();
    const alice = await member();
    const bob = await member({ gender: "female" });
    const stream = liveCounts(b, await login(b, bob.userID, bob.password));
    try {
      expect(await stream.until((n) => n === 0)).toBe(0);
      const sent = await call(a, "POST", `/api/messages/${bob.id}`, {
        token: await login(a, alice.userID, alice.password),
        body: { content: "こんにちは、別のインスタンスから" },
      });
      expect(sent.status, JSON.stringify(sent.json)).toBe(201);
      expect(await stream.until((n) => n === 1)).toBe(1);
    } finally {
      await stream.close();
    }
  });

  it("a point-cost change through one is charged by the other at once", async () => {
    const [a, b] = instances();
    const adminAccount = await member({ role: "admin" });
    const adminToken = await login(a, adminAccount.userID, adminAccount.password);
    const alice = await member();
    const bob = await member({ gender: "female" });
    const aliceToken = await login(b, alice.userID, alice.password);
    for (const cost of [7, 3]) {
      const changed = await call(a, "PUT", "/api/point-costs/send_message", {
        token: adminToken,
        body: { pointCost: cost },
      });
      expect(changed.status, JSON.stringify(changed.json)).toBe(200);
      const sent = await call(b, "POST", `/api/messages/${bob.id}`, {
        token: aliceToken,
        body: { content: `料金 ${cost} で送信` },
      });
      expect(sent.status, JSON.stringify(sent.json)).toBe(201);
      expect(sent.json.cost).toBe(cost);
    }
  });

  it(`${SCHEDULED} due scheduled messages are sent exactly once between them`, async () => {
    const owners = await Promise.all(Array.from({ length: 10 }, () => member()));
    const recipient = await member({ gender: "female" });
    const [{ cost } = { cost: 0 }] = await rowsOf<{ cost: number }>(
      db.db,
      sql`select point_cost as cost from point_costs where action_name = 'send_message'`,
    );
    const values = Array.from({ length: SCHEDULED }, (_, i) => {
      const owner = owners[i % owners.length]?.id as string;
      return sql`('direct', ${owner}::uuid, array[${recipient.id}::uuid], ${`予約送信 ${i}`}, now() - interval '1 minute', 'user:sent')`;
    });
    await db.db.execute(
      sql`insert into scheduled_messages (type, owner_id, recipients, content, scheduled_at, source) values ${sql.join(values, sql`, `)}`,
    );
    const deadline = Date.now() + 45_000;
    for (;;) {
      const [left] = await rowsOf<{ n: number }>(
        db.db,
        sql`select count(*)::int as n from scheduled_messages where status in ('pending', 'sending')`,
      );
      if (left?.n === 0) break;
      if (Date.now() > deadline) throw new Error(`${left?.n} scheduled messages still waiting after 45 s`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const [outcome] = await rowsOf<{ sent: number; messages: number; bodies: number; ids: number }>(
      db.db,
      sql`select
        (select count(*)::int from scheduled_messages where status = 'sent' and cardinality(message_ids) = 1) as sent,
        (select count(*)::int from messages where to_user_id = ${recipient.id}) as messages,
        (select count(distinct body)::int from messages where to_user_id = ${recipient.id}) as bodies,
        (select count(distinct id)::int from (select unnest(message_ids) as id from scheduled_messages) s) as ids`,
    );
    expect(outcome).toEqual({ sent: SCHEDULED, messages: SCHEDULED, bodies: SCHEDULED, ids: SCHEDULED });
    // Each owner paid for its 100 messages, once each.
    const paid = await rowsOf<{ points: number }>(
      db.db,
      sql`select points from users where id in (${sql.join(
        owners.map((o) => sql`${o.id}::uuid`),
        sql`, `,
      )})`,
    );
    expect(paid.map((p) => p.points)).toEqual(owners.map(() => 100_000 - (SCHEDULED / owners.length) * cost));
  });

  it("the login limit of an account is exact over both", async () => {
    const [a, b] = instances();
    const target = await member();
    // One client (one address) failing on one account through both instances at once: 10 allowed.
    const attempts = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(i % 2 === 0 ? a : b, "POST", "/api/auth/login", {
          ip: "203.0.113.50",
          body: { userID: target.userID, password: "wrong-password" },
        }),
      ),
    );
    const statuses = attempts.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
  });

  it("a photo uploaded through one is served by the other", async () => {
    const [a, b] = instances();
    const owner = await member();
    const image = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#c33" } })
      .jpeg()
      .toBuffer();
    const uploaded = await call(a, "POST", "/api/photo-data/photo-data", {
      token: await login(a, owner.userID, owner.password),
      body: { image: `data:image/jpeg;base64,${image.toString("base64")}` },
    });
    expect(uploaded.status, JSON.stringify(uploaded.json)).toBe(200);
    // A member's new photo waits for the profile review (decision 0044): the owner's answer carries
    // it as the signed full-size URL, and its thumbnail is served by neither instance yet.
    const signed = (uploaded.json as { user: { photoUrl: string } }).user.photoUrl;
    expect(signed).toMatch(/^\/uploads\/photos\/[^/]+\.jpg\?exp=/);
    const thumbnail = signed.split("?")[0]?.replace("/uploads/photos/", "/uploads/thumbs/") as string;
    expect((await fetch(`${b.url}${thumbnail}`)).status).toBe(404);
    expect((await fetch(`${b.url}/uploads/thumbs/no-such-photo.jpg`)).status).toBe(404);
    // Written by one instance into the shared DATA_DIR; the other serves it (the signature holds there too).
    const served = await fetch(`${b.url}${signed}`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toMatch(/^image\/jpeg/);
    expect((await served.arrayBuffer()).byteLength).toBeGreaterThan(100);
  });

  it("/metrics of an instance sums its workers (the primary aggregates them)", async () => {
    const [, b] = instances();
    // node:cluster hands the connections to both workers in turn; each request on its own connection.
    for (let i = 0; i < 6; i++) {
      const answer = await fetch(`${b.url}/healthz`, { headers: { connection: "close" } });
      expect(answer.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    }
    const scrape = await fetch(`${b.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(scrape.status).toBe(200);
    const families = parseExposition(await scrape.text());
    const healthz = families
      .get("enmusubi_http_requests_total")
      ?.samples.filter((s) => s.labels.route === "/healthz")
      .reduce((n, s) => n + s.value, 0);
    expect(healthz).toBe(6);
    // Summed over the workers: what this instance may open (2 workers × its default pool, config.ts).
    expect(families.get("enmusubi_db_pool_max")?.samples[0]?.value).toBe(2 * poolMaxFor(2));
    expect(families.has("process_resident_memory_bytes")).toBe(true);
  });
});
