import {
  type ApiDeps,
  createMemoryRateLimiter,
  createPasswordHasher,
  createTokenService,
  type PasswordHasher,
  type RateLimiter,
} from "@enmusubi/api";
import type { Database } from "@enmusubi/db";
import { MSG } from "@enmusubi/shared";
import Fastify, { type FastifyError, type FastifyInstance, LogController } from "fastify";
import type { Config } from "./config";
import { ensureFirstAdmin, openDatabase } from "./database";
import { registerJobs } from "./jobs/boss";
import { registerSecurity } from "./plugins/security";
import { registerStaticWeb } from "./plugins/static-web";
import { registerTrpc } from "./plugins/trpc";
import { registerUploads } from "./plugins/uploads";
import { registerRest } from "./rest";

export interface BuildOptions {
  /** An already migrated database (tests); otherwise the configured one is opened and migrated. */
  database?: Database;
  passwords?: PasswordHasher;
  limiter?: RateLimiter;
  /** Pino options; false silences the log (tests). */
  logger?: boolean;
}

declare module "fastify" {
  interface FastifyInstance {
    deps: ApiDeps;
    database: Database;
    config: Config;
  }
}

/** Room for a 10 MB image sent as base64 JSON (spec photos), and nothing much bigger. */
export const BODY_LIMIT_BYTES = 15 * 1024 * 1024;

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

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
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
    trustProxy: fastifyTrustProxy(config.trustProxy),
    logController: new LogController({ disableRequestLogging: config.env === "test" }),
  });

  const database = options.database ?? (await openDatabase(config));
  const passwords = options.passwords ?? createPasswordHasher();
  const mailKick = { fn: () => {} };
  const deps: ApiDeps = {
    db: database.db,
    tokens: createTokenService(config.jwtSecret),
    passwords,
    limiter: options.limiter ?? createMemoryRateLimiter(),
    uploadsDir: `${config.dataDir}/uploads`,
    publicUrl: config.publicUrl,
    onMailQueued: () => mailKick.fn(),
  };
  app.decorate("deps", deps);
  app.decorate("database", database);
  app.decorate("config", config);

  if (!options.database) await ensureFirstAdmin(database.db, config.admin, app.log, passwords);

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, "request failed");
      return reply.status(500).send({ message: MSG.internalError });
    }
    const message =
      status === 413
        ? MSG.payloadTooLarge
        : error.code === "FST_ERR_CTP_INVALID_JSON_BODY" || error.code?.startsWith("FST_ERR_CTP")
          ? MSG.invalidJson
          : status === 429
            ? MSG.tooManyRequests
            : status === 403
              ? MSG.forbidden
              : status === 404
                ? MSG.notFound
                : MSG.badRequest;
    return reply.status(status).send({ message });
  });

  await registerSecurity(app);
  app.get("/healthz", async () => {
    await database.db.execute("select 1");
    return { status: "ok" };
  });
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
