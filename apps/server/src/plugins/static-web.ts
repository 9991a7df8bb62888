import { existsSync } from "node:fs";
import path from "node:path";
import { MSG } from "@enmusubi/shared";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";

/**
 * Serves the built SPA. Client routes (any GET outside /api, /trpc and /uploads that asks for
 * HTML) get index.html; everything else unknown is a JSON 404.
 */
export async function registerStaticWeb(app: FastifyInstance, webDist: string): Promise<void> {
  const hasWeb = existsSync(path.join(webDist, "index.html"));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      // The build writes .br and .gz beside each text file (apps/web/vite.config.ts): sent as they
      // are to browsers that accept them, the raw file to the others.
      preCompressed: true,
      setHeaders(reply, filePath) {
        // Vite names assets by content hash: they never change, so browsers may keep them.
        if (filePath.includes(`${path.sep}assets${path.sep}`))
          reply.header("cache-control", "public, max-age=31536000, immutable");
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const isApi = /^\/(api|trpc|uploads)(\/|$)/.test(request.url);
    if (hasWeb && !isApi && request.method === "GET" && request.headers.accept?.includes("text/html")) {
      return reply.type("text/html").sendFile("index.html", { cacheControl: false });
    }
    return reply.status(404).send({ message: MSG.notFound });
  });
}
