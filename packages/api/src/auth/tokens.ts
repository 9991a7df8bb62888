import type { Role } from "@enmusubi/shared";
import { jwtVerify, SignJWT } from "jose";

export interface TokenClaims {
  /** users.id */
  sub: string;
  role: Role;
  /** users.token_version at signing time */
  tv: number;
}

export interface TokenService {
  sign(claims: TokenClaims): Promise<string>;
  /** The claims of a valid token, or null for a missing, forged, expired or malformed one. */
  verify(token: string): Promise<TokenClaims | null>;
}

const ISSUER = "enmusubi";

export function createTokenService(secret: string, ttlSeconds = 7 * 24 * 3600): TokenService {
  const key = new TextEncoder().encode(secret);
  return {
    sign: (claims) =>
      new SignJWT({ role: claims.role, tv: claims.tv })
        .setProtectedHeader({ alg: "HS256" })
        .setSubject(claims.sub)
        .setIssuer(ISSUER)
        .setIssuedAt()
        .setExpirationTime(`${ttlSeconds}s`)
        .sign(key),
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ["HS256"], issuer: ISSUER });
        const { sub, role, tv } = payload;
        if (typeof sub !== "string" || (role !== "user" && role !== "admin") || typeof tv !== "number") return null;
        return { sub, role, tv };
      } catch {
        return null;
      }
    },
  };
}
