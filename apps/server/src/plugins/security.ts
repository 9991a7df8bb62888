import type { FastifyInstance } from "fastify";

/**
 * The Content-Security-Policy that fits the built app: scripts only from our origin, inline styles
 * (Mantine sets style attributes), images from our uploads, data/blob URLs (camera capture
 * previews) and https photo links.
 */
const CSP_DIRECTIVES: Record<string, string[]> = {
  "default-src": ["'self'"],
  "base-uri": ["'self'"],
  "font-src": ["'self'", "data:"],
  "form-action": ["'self'"],
  "frame-ancestors": ["'none'"],
  "img-src": ["'self'", "data:", "blob:", "https:"],
  "object-src": ["'none'"],
  "script-src": ["'self'"],
  "script-src-attr": ["'none'"],
  "style-src": ["'self'", "'unsafe-inline'"],
  "media-src": ["'self'", "blob:"],
  "connect-src": ["'self'"],
};

/**
 * The security headers every answer carries: the CSP above and what helmet's defaults send (the
 * same names and values as @fastify/helmet gave before). No CORS headers are sent at all: the web
 * app is same-origin, and third-party REST clients are servers, not browsers. They never change,
 * so they are built once: @fastify/helmet built its middleware, CSP parsing included, on every
 * request (about a tenth of the CPU time of a small API answer, decision 0011).
 */
export const SECURITY_HEADERS: ReadonlyArray<readonly [string, string]> = [
  [
    "Content-Security-Policy",
    Object.entries(CSP_DIRECTIVES)
      .map(([name, values]) => `${name} ${values.join(" ")}`)
      .join(";"),
  ],
  ["Cross-Origin-Opener-Policy", "same-origin"],
  ["Cross-Origin-Resource-Policy", "same-origin"],
  ["Origin-Agent-Cluster", "?1"],
  ["Referrer-Policy", "no-referrer"],
  ["Strict-Transport-Security", "max-age=31536000; includeSubDomains"],
  ["X-Content-Type-Options", "nosniff"],
  ["X-DNS-Prefetch-Control", "off"],
  ["X-Download-Options", "noopen"],
  ["X-Frame-Options", "SAMEORIGIN"],
  ["X-Permitted-Cross-Domain-Policies", "none"],
  ["X-XSS-Protection", "0"],
];

/** SECURITY_HEADERS as the reply takes them. */
const SECURITY_HEADER_OBJECT: Record<string, string> = Object.fromEntries(SECURITY_HEADERS);

export async function registerSecurity(app: FastifyInstance): Promise<void> {
  // On the reply, before the route or a later hook answers. Every answer goes through the reply
  // (tRPC's and the static files' too), and a header given there is checked once, when the head
  // is written: set on the raw response, each was checked twice (decision 0037).
  app.addHook("onRequest", (_request, reply, done) => {
    reply.headers(SECURITY_HEADER_OBJECT);
    done();
  });

  // Signed-in answers (accounts, balances, messages) must not stay in a shared or browser cache:
  // every answer to a request carrying a token, and every /api and /trpc answer, is no-store.
  // Public static files (uploaded photos, hashed assets, the API reference's files) keep theirs.
  app.addHook("onSend", (request, reply, payload, done) => {
    const url = request.url;
    if (!PUBLIC_STATIC.test(url) && (request.headers.authorization !== undefined || PRIVATE.test(url))) {
      reply.header("cache-control", "no-store");
    }
    done(null, payload);
  });
}

/** Files that are the same for everyone and never change under their name. */
const PUBLIC_STATIC = /^\/(?:uploads|assets|api\/docs\/static)\//;
/** Paths whose answers depend on who asks (or may: the API as a whole). */
const PRIVATE = /^\/(?:api|trpc)(?:[/?]|$)/;
