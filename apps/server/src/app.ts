import { randomUUID } from "node:crypto";
import { type IncomingMessage, STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import {
  type ApiDeps,
  createDatabaseRateLimiter,
  createLinkSigner,
  createMemoryMailboxEvents,
  createPasswordHasher,
  createPhotoUrlSigner,
  createTokenService,
  type PasswordHasher,
  type RateLimiter,
  ScreeningRules,
} from "@enmusubi/api";
import { type Database, DEFAULT_POOL_MAX } from "@enmusubi/db";
import { MSG, TRPC_MAX_URL_LENGTH } from "@enmusubi/shared";
import proxyAddr from "@fastify/proxy-addr";
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { assertSafeForEnv, type Config } from "./config";
import { ensureFirstAdmin, openDatabase, prepareCard, prepareSmartPit } from "./database";
import { registerJobs } from "./jobs/boss";
import { logError, RequestLogController, serializeRequest } from "./logging";
import { createPostgresMailboxEvents } from "./mailbox-events";
import { registerBackupRoute } from "./ops/backup-route";
import { countingStreams, createMetrics, registerMetrics } from "./ops/metrics";
import { notReadyReason, wellFormedRequestId } from "./ops/readiness";
import { registerSecurity } from "./plugins/security";
import { registerStaticWeb } from "./plugins/static-web";
import { registerTrpc } from "./plugins/trpc";
import { registerUploads } from "./plugins/uploads";
import { listenReferenceChanges } from "./reference-events";
import { registerRest } from "./rest";
import { createSmsSender } from "./sms";

export interface BuildOptions {
  /** An already migrated database (tests); otherwise the configured one is opened and migrated. */
  database?: Database;
  passwords?: PasswordHasher;
  limiter?: RateLimiter;
  /** false silences the log (tests); `stream` sends its JSON lines there instead of stdout (tests read them). */
  logger?: boolean | { stream: { write(line: string): void } };
}

declare module "fastify" {
  interface FastifyInstance {
    deps: ApiDeps;
    database: Database;
    config: Config;
    /** Answers every new request 503 (/readyz too) from now on: the first step of a shutdown (main.ts). */
    startDraining(): void;
  }
}

/** Room for a 10 MB image sent as base64 JSON (spec photos), and nothing much bigger. */
export const BODY_LIMIT_BYTES = 15 * 1024 * 1024;

/** Request line plus headers, as Node's parser counts them (its default); more is answered 431. */
export const MAX_HEADER_BYTES = 16 * 1024;

/** The Japanese message a client gets for an HTTP error status (and Fastify's error code). */
function messageFor(status: number, code: string | undefined): string {
  switch (status) {
    case 401:
      return MSG.unauthorized;
    case 403:
      return MSG.forbidden;
    case 404:
      return MSG.notFound;
    case 405:
    case 501:
      return MSG.methodNotSupported;
    case 408:
      return MSG.requestTimeout;
    case 413:
      return MSG.payloadTooLarge;
    case 414:
      return MSG.uriTooLong;
    case 415:
      return MSG.unsupportedMediaType;
    case 429:
      return MSG.tooManyRequests;
    case 431:
      return MSG.headerTooLarge;
    case 503:
      return MSG.serviceUnavailable;
  }
  if (code === "FST_ERR_BAD_URL") return MSG.invalidUrl;
  if (code?.startsWith("FST_ERR_CTP")) return MSG.invalidJson;
  return MSG.badRequest;
}

/**
 * Every error a route, a plugin or Fastify itself (bad percent-encoding, a too long parameter, a
 * body it cannot parse) raises ends here: `{ message }` in Japanese, never Fastify's English text
 * or the URL it refused. 5xx details are logged, not sent.
 */
function sendError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const status = error.statusCode !== undefined && error.statusCode >= 400 ? error.statusCode : 500;
  // Also for refusals Fastify makes before any hook runs (bad URL, too long a parameter).
  reply.header("cache-control", "no-store");
  if (status >= 500 && status !== 503) {
    request.log.error({ err: error }, "request failed");
    return reply.status(500).send({ message: MSG.internalError });
  }
  return reply.status(status).send({ message: messageFor(status, error.code) });
}

/**
 * Errors of Node's HTTP parser, before Fastify sees a request (headers or URL over
 * MAX_HEADER_BYTES, a method Node does not know, malformed framing, a timeout): answered on the
 * socket in the same Japanese `{ message }` form, then the connection is closed.
 */
function answerClientError(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const status =
    error.code === "HPE_HEADER_OVERFLOW"
      ? 431
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? 408
        : error.code === "HPE_INVALID_METHOD"
          ? 501
          : 400;
  this.log.debug({ err: error }, "client error");
  if (socket.writable) {
    const body = JSON.stringify({ message: messageFor(status, undefined) });
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        "Content-Type: application/json; charset=utf-8\r\n" +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        "Cache-Control: no-store\r\n" +
        "X-Content-Type-Options: nosniff\r\n" +
        "Connection: close\r\n\r\n" +
        body,
    );
  }
  socket.destroy(error);
}

/**
 * Fastify's trustProxy from TRUST_PROXY. Fastify 5 ignores a bare hop count (it trusts nothing
 * then), so a count becomes "trust the nearest n hops", which is what the setting means.
 */
function fastifyTrustProxy(
  setting: Config["trustProxy"],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting === "number") return (_address, hop) => hop < setting;
  return setting;
}

/**
 * The request's id: the X-Request-Id a trusted proxy (TRUST_PROXY) sent, when well formed, else
 * a new UUID. A client's own header is not believed (it could mark its requests as another's).
 */
function requestIdFor(setting: Config["trustProxy"]): (raw: IncomingMessage) => string {
  const trusted =
    setting === true
      ? () => true
      : setting === false
        ? () => false
        : typeof setting === "number"
          ? () => setting >= 1
          : proxyAddr.compile(setting);
  return (raw) => {
    const given = raw.headers["x-request-id"];
    const peer = raw.socket?.remoteAddress;
    return wellFormedRequestId(given) && peer && trusted(peer, 0) ? given : randomUUID();
  };
}

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  assertSafeForEnv(config);
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            ...(typeof options.logger === "object" ? { stream: options.logger.stream } : {}),
            serializers: { err: logError, error: logError, req: serializeRequest },
            redact: {
              paths: [
                "req.headers.authorization",
                "req.headers.cookie",
                "*.password",
                "*.currentPassword",
                "*.newPassword",
                "*.token",
              ],
              censor: "[redacted]",
            },
          },
    bodyLimit: BODY_LIMIT_BYTES,
    // A tRPC batch names its procedures in one path parameter; the web app keeps every batch's
    // URL within this length (httpBatchLink's maxURLLength), so none is refused with 414.
    routerOptions: { maxParamLength: TRPC_MAX_URL_LENGTH },
    trustProxy: fastifyTrustProxy(config.trustProxy),
    // Every log line of a request carries its id (reqId), the response returns it (X-Request-Id).
    requestIdHeader: false,
    genReqId: requestIdFor(config.trustProxy),
    // Node answers a request without Host itself (400, empty body): checked below instead.
    http: { maxHeaderSize: MAX_HEADER_BYTES, requireHostHeader: false },
    clientErrorHandler: answerClientError,
    frameworkErrors: sendError,
    // Fastify's own 503 while closing is English: the hook below answers it instead.
    return503OnClosing: false,
    logController: new RequestLogController({ disableRequestLogging: config.env === "test" }),
  });

  const database = options.database ?? (await openDatabase(config));
  const passwords = options.passwords ?? createPasswordHasher();
  const mailKick = { fn: () => {} };
  const metrics = createMetrics(database, database.poolMax ?? DEFAULT_POOL_MAX);
  const deps: ApiDeps = {
    db: database.db,
    tokens: createTokenService(config.jwtSecret),
    photoUrls: createPhotoUrlSigner(config.jwtSecret),
    links: createLinkSigner(config.jwtSecret),
    passwords,
    // Counted in the database, so every worker and instance shares one count per client.
    limiter: options.limiter ?? createDatabaseRateLimiter(database.db),
    uploadsDir: `${config.dataDir}/uploads`,
    publicUrl: config.publicUrl,
    noticeLiveMinutes: config.noticeLiveMinutes,
    onMailQueued: () => mailKick.fn(),
    // The SMS provider, or the development sink under DATA_DIR/sms (decision 0048).
    sms: createSmsSender({ url: config.sms.url, apiKey: config.sms.apiKey, dataDir: config.dataDir }, app.log),
    // Each process compiles the rules and notices another one's edit within seconds (decision 0042).
    screening: new ScreeningRules(),
    // Shared through PostgreSQL when this process is one of several (workers, instances).
    mailbox:
      database.sql && !options.database
        ? await createPostgresMailboxEvents(database, app.log)
        : createMemoryMailboxEvents(),
    operator: config.operator,
    observeProcedure: ({ path, type, seconds, ok }) =>
      metrics.procedureDuration.observe({ path, type, ok: String(ok) }, seconds),
  };
  deps.mailbox = countingStreams(deps.mailbox, metrics.sseConnections);
  // The reference lists each process keeps in memory follow the other processes' changes.
  if (database.sql && !options.database) await listenReferenceChanges(database, app.log);
  app.decorate("deps", deps);
  app.decorate("database", database);
  app.decorate("config", config);

  if (!options.database) await ensureFirstAdmin(database.db, config.admin, app.log, passwords);
  await prepareSmartPit(database.db, config, app.log);
  await prepareCard(database.db, config, app.log);

  app.setErrorHandler(sendError);

  let closing = false;
  app.decorate("startDraining", () => {
    closing = true;
  });
  app.addHook("preClose", async () => {
    closing = true;
  });
  // A callback hook, not an async one: it runs on every request, and an async hook costs a promise
  // and a turn of the microtask queue (decision 0037).
  app.addHook("onRequest", (request, reply, done) => {
    reply.header("x-request-id", request.id);
    if (closing) {
      reply.header("connection", "close").header("cache-control", "no-store");
      reply.status(503).send({ message: MSG.serviceUnavailable });
      return;
    }
    // HTTP/1.1 requires Host (RFC 9112 §3.2); HTTP/1.0 may omit it.
    const { httpVersionMajor, httpVersionMinor } = request.raw;
    if (httpVersionMajor === 1 && httpVersionMinor >= 1 && !request.headers.host) {
      reply.status(400).send({ message: MSG.badRequest });
      return;
    }
    done();
  });

  await registerSecurity(app);
  app.get("/healthz", async () => {
    await database.db.execute("select 1");
    return { status: "ok" };
  });
  // Readiness (load balancers): the database answers with every migration applied, and the
  // process is not draining (answered 503 by the hook above once closing starts).
  app.get("/readyz", async (_request, reply) => {
    const reason = await notReadyReason(database);
    reply.header("cache-control", "no-store");
    if (reason) return reply.status(503).send({ status: "not ready", reason });
    return { status: "ready" };
  });
  registerMetrics(app, metrics, config.metricsToken);
  registerBackupRoute(app);
  await registerTrpc(app);
  await registerRest(app);
  await registerUploads(app);
  await registerStaticWeb(app, config.webDist);
  if (config.jobs) await registerJobs(app, mailKick);

  app.addHook("onClose", async () => {
    if (!options.database) await database.close();
  });
  return app;
}
