import { mkdirSync } from "node:fs";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";

/**
 * Stored photos at /uploads/… Names are random and a file never changes once written (a new photo
 * gets a new name), so browsers may cache them for good. No directory listings.
 */
export async function registerUploads(app: FastifyInstance): Promise<void> {
  mkdirSync(app.deps.uploadsDir, { recursive: true });
  await app.register(fastifyStatic, {
    root: app.deps.uploadsDir,
    prefix: "/uploads/",
    decorateReply: false,
    index: false,
    list: false,
    dotfiles: "deny",
    setHeaders(reply) {
      reply.header("cache-control", "public, max-age=31536000, immutable");
    },
  });
}
