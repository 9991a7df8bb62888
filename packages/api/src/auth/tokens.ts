import { isUuid, type Role } from "@enmusubi/shared";
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
  /**
   * The claims of a valid token, or null for a missing, forged, expired or malformed one: every
   * token the app signs has an expiry and a UUID subject, so one without `exp`, or whose `sub` is
   * missing, not a string or not a UUID, is refused even when its signature holds.
   */
  verify(token: string): Promise<TokenClaims | null>;
}

const ISSUER = "enmusubi";
/** Verified tokens remembered per process (about 400 bytes each); the oldest goes first. */
const VERIFIED_KEPT = 10_000;

export function createTokenService(secret: string, ttlSeconds = 7 * 24 * 3600): TokenService {
  const key = new TextEncoder().encode(secret);
  /**
   * Tokens whose signature was checked, with their claims, until they expire: checking an HMAC
   * through WebCrypto on every request costs more than the session's query. Only the signature
   * is remembered; whether the token still counts (token_version, deletion, suspension) is read
   * from the database on every request (context.ts), so revocation stays immediate.
   */
  const verified = new Map<string, { claims: TokenClaims; exp: number }>();
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
      const known = verified.get(token);
      if (known) {
        if (known.exp > Date.now() / 1000) return known.claims;
        verified.delete(token);
        return null;
      }
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ["HS256"], issuer: ISSUER });
        const { sub, role, tv, exp } = payload;
        if (typeof sub !== "string" || !isUuid(sub)) return null;
        if ((role !== "user" && role !== "admin") || !Number.isSafeInteger(tv)) return null;
        if (typeof exp !== "number" || !Number.isFinite(exp)) return null;
        const claims: TokenClaims = { sub, role, tv: tv as number };
        if (verified.size >= VERIFIED_KEPT) verified.delete(verified.keys().next().value as string);
        verified.set(token, { claims, exp });
        return claims;
      } catch {
        return null;
      }
    },
  };
}
