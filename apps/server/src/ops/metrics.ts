import cluster from "node:cluster";
import { timingSafeEqual } from "node:crypto";
import type { MailboxEvents } from "@enmusubi/api";
import { type Database, rowsOf } from "@enmusubi/db";
import { MSG } from "@enmusubi/shared";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { AggregatorRegistry, Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { SCRAPE_ANSWER, SCRAPE_REQUEST } from "./cluster-scrape";

/**
 * What /metrics exposes (Prometheus text format, prom-client), decision 0035. Per process: HTTP
 * requests by route pattern and status, tRPC procedure durations, open live streams (SSE) and
 * Node's process figures. Of the whole service, read at scrape time by cheap indexed queries:
 * the work queues (mail outbox, scheduled messages, pg-boss) and the database's connections.
 * In a cluster (WORKERS > 1) the worker that is scraped asks the primary, which gathers every
 * worker's registry (prom-client's AggregatorRegistry): counters and histograms are summed, the
 * service-wide gauges are taken once ("max", every worker reads the same figure).
 */
export interface Metrics {
  registry: Registry;
  httpRequests: Counter<"method" | "route" | "status">;
  httpDuration: Histogram<"method" | "route" | "status">;
  procedureDuration: Histogram<"path" | "type" | "ok">;
  sseConnections: Gauge;
}

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createMetrics(database: Database, poolMax: number): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const httpRequests = new Counter({
    name: "enmusubi_http_requests_total",
    help: "HTTP requests answered, by method, route pattern (never the raw URL) and status",
    labelNames: ["method", "route", "status"] as const,
    registers: [registry],
  });
  const httpDuration = new Histogram({
    name: "enmusubi_http_request_duration_seconds",
    help: "Time to answer an HTTP request, by method, route pattern and status",
    labelNames: ["method", "route", "status"] as const,
    buckets: SECONDS,
    registers: [registry],
  });
  const procedureDuration = new Histogram({
    name: "enmusubi_trpc_procedure_duration_seconds",
    help: "Time a tRPC procedure took (REST rows call procedures too), by procedure path, type and outcome",
    labelNames: ["path", "type", "ok"] as const,
    buckets: SECONDS,
    registers: [registry],
  });
  const sseConnections = new Gauge({
    name: "enmusubi_sse_connections",
    help: "Live streams (SSE subscriptions: unread count and balance) open now",
    registers: [registry],
  });
  serviceGauges(registry, database, poolMax);
  return { registry, httpRequests, httpDuration, procedureDuration, sseConnections };
}

/** Figures of the whole service, read when scraped; a failed read leaves the family empty. */
function serviceGauges(registry: Registry, database: Database, poolMax: number) {
  const { db } = database;
  new Gauge({
    name: "enmusubi_mail_outbox_pending",
    help: "Mails waiting to be sent (mail_outbox status pending; partial index mail_outbox_due_idx)",
    aggregator: "max",
    registers: [registry],
    async collect() {
      const [row] = await rowsOf<{ n: number }>(
        db,
        sql`select count(*)::int as n from mail_outbox where status = 'pending'`,
      );
      this.set(row?.n ?? 0);
    },
  });
  new Gauge({
    name: "enmusubi_scheduled_messages",
    help: "Scheduled messages by state: due (pending, time reached), pending (all), failed",
    labelNames: ["state"] as const,
    aggregator: "max",
    registers: [registry],
    async collect() {
      const [row] = await rowsOf<{ due: number; pending: number; failed: number }>(
        db,
        sql`select
          (select count(*)::int from scheduled_messages where status = 'pending' and scheduled_at <= now()) as due,
          (select count(*)::int from scheduled_messages where status = 'pending') as pending,
          (select count(*)::int from scheduled_messages where status = 'failed') as failed`,
      );
      this.set({ state: "due" }, row?.due ?? 0);
      this.set({ state: "pending" }, row?.pending ?? 0);
      this.set({ state: "failed" }, row?.failed ?? 0);
    },
  });
  new Gauge({
    name: "enmusubi_job_queue_jobs",
    help: "pg-boss jobs per queue and state (pg-boss's own counts in pgboss.queue, refreshed by its monitor)",
    labelNames: ["queue", "state"] as const,
    aggregator: "max",
    registers: [registry],
    async collect() {
      this.reset();
      const [exists] = await rowsOf<{ t: string | null }>(db, sql`select to_regclass('pgboss.queue')::text as t`);
      if (!exists?.t) return;
      const rows = await rowsOf<{ name: string; queued: number; active: number; failed: number; deferred: number }>(
        db,
        sql`select name, queued_count as queued, active_count as active, failed_count as failed,
                   deferred_count as deferred from pgboss.queue`,
      );
      for (const r of rows)
        for (const state of ["queued", "active", "failed", "deferred"] as const)
          this.set({ queue: r.name, state }, Number(r[state]));
    },
  });
  if (database.kind !== "postgres") return;
  new Gauge({
    name: "enmusubi_db_pool_max",
    help: "Connections the pools may open (postgres.js max; in a cluster summed over the workers)",
    registers: [registry],
    collect() {
      this.set(poolMax);
    },
  });
  new Gauge({
    name: "enmusubi_db_connections",
    help:
      "Connections to this database by state, from pg_stat_activity (the whole service: every worker and instance; " +
      "postgres.js does not expose its pool's in-use / waiting figures)",
    labelNames: ["state"] as const,
    aggregator: "max",
    registers: [registry],
    async collect() {
      this.reset();
      const rows = await rowsOf<{ state: string | null; waiting: boolean; n: number }>(
        db,
        sql`select state, wait_event_type = 'Lock' as waiting, count(*)::int as n from pg_stat_activity
            where datname = current_database() and backend_type = 'client backend' group by 1, 2`,
      );
      for (const r of rows) {
        const state = r.waiting ? "waiting_on_lock" : (r.state ?? "unknown").replace(/[^a-z]+/g, "_");
        this.inc({ state }, r.n);
      }
    },
  });
}

/** Counts the open live streams (SSE subscriptions) of a mailbox. */
export function countingStreams(mailbox: MailboxEvents, gauge: Gauge): MailboxEvents {
  return {
    publish: (ids, change) => mailbox.publish(ids, change),
    changes(userId, signal) {
      const source = mailbox.changes(userId, signal);
      return {
        async *[Symbol.asyncIterator]() {
          gauge.inc();
          try {
            yield* source;
          } finally {
            gauge.dec();
          }
        },
      };
    },
  };
}

let asked = 0;

/** The text a scrape answers: this process's registry, or in a cluster worker every worker's. */
async function exposition(registry: Registry): Promise<string> {
  if (!cluster.isWorker || !process.send) return registry.metrics();
  const id = ++asked;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => done(new Error("the primary did not answer the scrape")), 6000);
    const onMessage = (message: { type?: string; id?: number; text?: string; error?: string }) => {
      if (message?.type === SCRAPE_ANSWER && message.id === id)
        done(message.error ? new Error(message.error) : undefined, message.text);
    };
    function done(error: Error | undefined, text = "") {
      clearTimeout(timer);
      process.off("message", onMessage);
      if (error) reject(error);
      else resolve(text);
    }
    process.on("message", onMessage);
    process.send?.({ type: SCRAPE_REQUEST, id });
  });
}

export const bearerOf = (header: string | undefined): string => /^Bearer\s+(\S+)$/i.exec(header ?? "")?.[1] ?? "";

export const sameToken = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * GET /metrics, answered only to `Authorization: Bearer <METRICS_TOKEN>`; without a token
 * configured the route does not exist (404). Counts every request by its route pattern.
 */
export function registerMetrics(app: FastifyInstance, metrics: Metrics, token: string | undefined): void {
  if (cluster.isWorker) AggregatorRegistry.setRegistries([metrics.registry]);
  if (cluster.isWorker) new AggregatorRegistry<typeof metrics.registry.contentType>(); // answers the primary's requests for this worker's figures

  // A callback hook (every request): an async one costs a promise and a microtask turn.
  app.addHook("onResponse", (request, reply, done) => {
    const route = request.routeOptions.url ?? "(unmatched)";
    if (route !== "/metrics") {
      const labels = { method: request.method, route, status: String(reply.statusCode) };
      metrics.httpRequests.inc(labels);
      metrics.httpDuration.observe(labels, reply.elapsedTime / 1000);
    }
    done();
  });
  if (!token) return;
  app.get("/metrics", async (request, reply) => {
    reply.header("cache-control", "no-store");
    if (!sameToken(bearerOf(request.headers.authorization), token))
      return reply.status(401).send({ message: MSG.unauthorized });
    const text = await exposition(metrics.registry);
    return reply.type(metrics.registry.contentType).send(text);
  });
}
