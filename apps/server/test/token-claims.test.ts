import { createHmac, randomUUID } from "node:crypto";
import { MSG } from "@enmusubi/shared";
import { beforeAll, describe, expect, it } from "vitest";
import { type RestUser, useTestServer } from "./helpers";

/**
 * A token signed with the app's own secret but whose claims are not what the app signs:
 * no `exp`, or a `sub` that is missing, a number or not a UUID. Each is refused with 401 by REST
 * and tRPC alike, never accepted and never answered 500.
 */

const server = useTestServer();
let member: RestUser;

beforeAll(async () => {
  member = await server.createUser();
});

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

/** An HS256 JWT over exactly `claims`, signed with the server's JWT secret. */
function sign(claims: Record<string, unknown>): string {
  const head = `${b64({ alg: "HS256", typ: "JWT" })}.${b64(claims)}`;
  const signature = createHmac("sha256", server.config.jwtSecret).update(head).digest("base64url");
  return `${head}.${signature}`;
}

const now = () => Math.floor(Date.now() / 1000);
/** The claims the app signs for `member`, which the cases below each spoil in one way. */
const good = () => ({ sub: member.id, role: "user", tv: 0, iss: "enmusubi", iat: now(), exp: now() + 3600 });
const without = (key: "sub" | "exp") => {
  const { [key]: _drop, ...rest } = good();
  return rest;
};

async function restMe(token: string) {
  return server.request({ method: "GET", url: "/api/auth/me", headers: { authorization: `Bearer ${token}` } });
}

async function trpcMe(token: string) {
  return server.app.inject({ method: "GET", url: "/trpc/profile.me", headers: { authorization: `Bearer ${token}` } });
}

describe("tokens the app did not sign the way it signs", () => {
  it("the well-formed token signed here is accepted (the cases below spoil one claim each)", async () => {
    expect((await restMe(sign(good()))).statusCode).toBe(200);
    expect((await trpcMe(sign(good()))).statusCode).toBe(200);
  });

  const cases: Array<[string, () => Record<string, unknown>]> = [
    ["without exp", () => without("exp")],
    ["without sub", () => without("sub")],
    ["with a numeric sub", () => ({ ...good(), sub: 12345 })],
    ["with a sub that is not a UUID", () => ({ ...good(), sub: "not-a-uuid" })],
    ["with a sub of 36 hyphens", () => ({ ...good(), sub: "-".repeat(36) })],
    ["with a sub of 36 hex digits", () => ({ ...good(), sub: "0123456789abcdef0123456789abcdef0123" })],
    ["with a sub that is a UUID with a space", () => ({ ...good(), sub: ` ${randomUUID()}`.slice(0, 36) })],
    ["with an empty sub", () => ({ ...good(), sub: "" })],
  ];

  for (const [name, claims] of cases) {
    it(`a token ${name} is refused with 401 by REST and tRPC`, async () => {
      const token = sign(claims());
      const rest = await restMe(token);
      expect(rest.statusCode).toBe(401);
      expect(rest.json().message).toBe(MSG.unauthorized);
      const trpc = await trpcMe(token);
      expect(trpc.statusCode).toBe(401);
      expect(trpc.json().error.json.message).toBe(MSG.unauthorized);
    });
  }

  it("a token without exp is refused every time, not only before it is remembered", async () => {
    const token = sign(without("exp"));
    for (let i = 0; i < 3; i++) expect((await restMe(token)).statusCode).toBe(401);
  });
});
