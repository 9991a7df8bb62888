import { describe, expect, it } from "vitest";
import { SECURITY_HEADERS } from "../src/plugins/security";
import { useTestServer } from "./helpers";

const server = useTestServer();

describe("security headers", () => {
  it("are the CSP and helmet's defaults, as @fastify/helmet sent them", () => {
    expect(Object.fromEntries(SECURITY_HEADERS)).toEqual({
      "Content-Security-Policy":
        "default-src 'self';base-uri 'self';font-src 'self' data:;form-action 'self';frame-ancestors 'none';img-src 'self' data: blob: https:;object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' 'unsafe-inline';media-src 'self' blob:;connect-src 'self'",
      "Cross-Origin-Opener-Policy": "same-origin",
      "Cross-Origin-Resource-Policy": "same-origin",
      "Origin-Agent-Cluster": "?1",
      "Referrer-Policy": "no-referrer",
      "Strict-Transport-Security": "max-age=31536000; includeSubDomains",
      "X-Content-Type-Options": "nosniff",
      "X-DNS-Prefetch-Control": "off",
      "X-Download-Options": "noopen",
      "X-Frame-Options": "SAMEORIGIN",
      "X-Permitted-Cross-Domain-Policies": "none",
      "X-XSS-Protection": "0",
    });
  });

  it("come with every answer: a success, a refusal before the route, an unknown path, a tRPC call", async () => {
    const answers = await Promise.all([
      server.request({ method: "GET", url: "/api/point-costs" }),
      server.request({ method: "GET", url: "/api/auth/me" }),
      server.app.inject({ method: "GET", url: "/api/no/such/path" }),
      server.app.inject({ method: "GET", url: "/trpc/reference.pointCosts.list" }),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 401, 404, 200]);
    for (const answer of answers) {
      for (const [name, value] of SECURITY_HEADERS) expect(answer.headers[name.toLowerCase()]).toBe(value);
      expect(answer.headers["cache-control"]).toBe("no-store");
    }
  });
});
