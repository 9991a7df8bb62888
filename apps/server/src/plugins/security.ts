import helmet from "@fastify/helmet";
import type { FastifyInstance } from "fastify";

/**
 * Security headers with a CSP that fits the built app: scripts only from our origin, inline styles
 * (Mantine sets style attributes), images from our uploads, data/blob URLs (camera capture
 * previews) and https photo links. No CORS headers are sent at all: the web app is same-origin,
 * and third-party REST clients are servers, not browsers.
 */
export async function registerSecurity(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:", "https:"],
        mediaSrc: ["'self'", "blob:"],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", "data:"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });

  // Signed-in answers (accounts, balances, messages) must not stay in a shared or browser cache:
  // every answer to a request carrying a token, and every /api and /trpc answer, is no-store.
  // Public static files (uploaded photos, hashed assets, the API reference's files) keep theirs.
  app.addHook("onSend", async (request, reply, payload) => {
    const url = request.url;
    if (PUBLIC_STATIC.test(url)) return payload;
    if (request.headers.authorization !== undefined || PRIVATE.test(url)) reply.header("cache-control", "no-store");
    return payload;
  });
}

/** Files that are the same for everyone and never change under their name. */
const PUBLIC_STATIC = /^\/(?:uploads|assets|api\/docs\/static)\//;
/** Paths whose answers depend on who asks (or may: the API as a whole). */
const PRIVATE = /^\/(?:api|trpc)(?:[/?]|$)/;
