import { dumpPglite } from "@enmusubi/db";
import { MSG } from "@enmusubi/shared";
import type { FastifyInstance } from "fastify";
import { bearerOf, sameToken } from "./metrics";

/**
 * GET /ops/backup: the embedded database (PGlite) dumped by the process that holds it, for
 * `pnpm db:backup` while the server runs (ops/backup.ts). Only with PGlite and BACKUP_TOKEN set;
 * otherwise the route does not exist. PostgreSQL is backed up by pg_dump, never through here.
 */
export function registerBackupRoute(app: FastifyInstance): void {
  const token = app.config.backupToken;
  const pglite = app.database.pglite;
  if (!token || !pglite) return;
  app.get("/ops/backup", async (request, reply) => {
    reply.header("cache-control", "no-store");
    if (!sameToken(bearerOf(request.headers.authorization), token))
      return reply.status(401).send({ message: MSG.unauthorized });
    request.log.info("database backup requested");
    return reply.type("application/gzip").send(await dumpPglite(pglite));
  });
}
