import { createHmac } from "node:crypto";
import { isUuid } from "@enmusubi/shared";
import { jwtVerify, SignJWT } from "jose";

/**
 * Signed one-click links of the notice mails (decision 0033): a stop link names the member and
 * the `stop_version` it was issued under, so it works once (using it bumps the version) and needs
 * no login. HS256 with a key derived from the server's secret (JWT_SECRET) for this purpose only,
 * so a stop link is never a session token and the reverse.
 */
export interface LinkSigner {
  signStop(userId: string, version: number): Promise<string>;
  /** The link's member and version, or null for a forged, expired or malformed token. */
  verifyStop(token: string): Promise<{ userId: string; version: number } | null>;
}

const ISSUER = "enmusubi-links";
const STOP = "notice-stop";
/** A notice's stop link works for this long (a member may read an old mail weeks later). */
export const STOP_LINK_DAYS = 90;

export function createLinkSigner(secret: string): LinkSigner {
  const key = createHmac("sha256", secret).update("enmusubi notice links v1").digest();
  return {
    signStop: (userId, version) =>
      new SignJWT({ p: STOP, v: version })
        .setProtectedHeader({ alg: "HS256" })
        .setSubject(userId)
        .setIssuer(ISSUER)
        .setIssuedAt()
        .setExpirationTime(`${STOP_LINK_DAYS}d`)
        .sign(key),
    async verifyStop(token) {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ["HS256"], issuer: ISSUER });
        const { sub, p, v } = payload;
        if (p !== STOP || typeof sub !== "string" || !isUuid(sub) || !Number.isSafeInteger(v)) return null;
        return { userId: sub, version: v as number };
      } catch {
        return null;
      }
    },
  };
}
