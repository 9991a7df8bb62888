import { mkdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { ensureThumbnail, PHOTO_NAME, photoAwaitingReview } from "@enmusubi/api";
import { MSG } from "@enmusubi/shared";
import type { FastifyInstance, FastifyReply } from "fastify";

/**
 * Stored photos (decision 0028):
 * - `/uploads/thumbs/<name>.jpg`: the card thumbnail, public. Names are random and a file never
 *   changes once written (a new photo gets a new name), so browsers may cache them for good. A
 *   photo stored before thumbnails existed gets its thumbnail made on the first request, so no
 *   member ever sees a broken image. A photo waiting for the profile review answers 404 (decision
 *   0044: only its owner and administrators see it, as a signed full-size URL), uncached.
 * - `/uploads/photos/<name>.jpg?exp=…&sig=…`: the full-size image, only with a valid signature of
 *   this server (photos/signed-url.ts: bound to the name, expiring after a few minutes). Without
 *   one, or with an expired or altered one: 403; an unknown photo: 404.
 * - anything else under /uploads: 404. No directory listings; never a 500 (a file that vanished or
 *   cannot be read is a 404).
 */
export async function registerUploads(app: FastifyInstance): Promise<void> {
  const dir = app.deps.uploadsDir;
  mkdirSync(path.join(dir, "photos"), { recursive: true });
  mkdirSync(path.join(dir, "thumbs"), { recursive: true });

  const notFound = (reply: FastifyReply) =>
    reply.status(404).header("cache-control", "no-store").send({ message: MSG.notFound });
  const sendJpeg = async (reply: FastifyReply, file: string, cacheControl: string) => {
    let bytes: Buffer;
    try {
      bytes = await readFile(file);
    } catch {
      return notFound(reply);
    }
    return reply.type("image/jpeg").header("cache-control", cacheControl).send(bytes);
  };

  app.get<{ Params: { name: string } }>("/uploads/thumbs/:name", async (request, reply) => {
    const { name } = request.params;
    if (!PHOTO_NAME.test(name)) return notFound(reply);
    if (await photoAwaitingReview(app.deps.db, name)) return notFound(reply);
    const file = await ensureThumbnail(dir, name).catch((error: unknown) => {
      request.log.warn({ err: error }, "thumbnail could not be made");
      return null;
    });
    if (!file) return notFound(reply);
    return sendJpeg(reply, file, "public, max-age=31536000, immutable");
  });

  app.get<{ Params: { name: string }; Querystring: Record<string, unknown> }>(
    "/uploads/photos/:name",
    async (request, reply) => {
      const { name } = request.params;
      if (!PHOTO_NAME.test(name)) return notFound(reply);
      const { exp, sig } = request.query ?? {};
      const now = new Date();
      if (typeof exp !== "string" || typeof sig !== "string" || !app.deps.photoUrls.verify(name, exp, sig, now)) {
        return reply.status(403).header("cache-control", "no-store").send({ message: MSG.photoLinkExpired });
      }
      // The browser may keep it until the signature expires, never in a shared cache.
      const seconds = Math.max(0, Math.floor(Number(exp) - now.getTime() / 1000));
      return sendJpeg(reply, path.join(dir, "photos", name), `private, max-age=${seconds}`);
    },
  );

  app.get("/uploads/*", async (_request, reply) => notFound(reply));
}
