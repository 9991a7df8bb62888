import { createHmac, timingSafeEqual } from "node:crypto";
import { PHOTO_URL_TTL_SECONDS } from "@enmusubi/shared";
import { PHOTO_NAME, PHOTO_URL_PREFIX, photoName } from "./storage";

/**
 * Short-lived signed addresses of full-size photos (decision 0028). The full-size file of a stored
 * photo is served only as `/uploads/photos/<name>.jpg?exp=<unix seconds>&sig=<base64url>`, where
 * `sig` is HMAC-SHA256 over `photos/<name>.jpg:<exp>` with a key derived from the server's secret
 * (JWT_SECRET; a key of its own, so a photo signature is never a token and the reverse). The
 * signature is bound to the file name and the expiry; it names no member, so whoever holds the
 * URL may load it until it expires (a few minutes): what is sold is the enlargement, and the
 * link a paying member's browser loads dies soon after.
 *
 * The expiry is rounded up to the minute, so the answers of one minute carry the same URL and the
 * browser's cache serves repeats.
 */
export interface PhotoUrlSigner {
  /** The signed full-size URL of a stored photo link and when it stops working; null for any other link. */
  sign(link: string | null | undefined, now?: Date): { url: string; expiresAt: Date } | null;
  /** Whether `sig` is this server's signature of `name` until `exp` and `exp` has not passed. */
  verify(name: string, exp: string | undefined, sig: string | undefined, now?: Date): boolean;
}

const EXPIRY = /^[0-9]{1,12}$/;
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;

export function createPhotoUrlSigner(secret: string, ttlSeconds = PHOTO_URL_TTL_SECONDS): PhotoUrlSigner {
  const key = createHmac("sha256", secret).update("enmusubi photo url v1").digest();
  const mac = (name: string, exp: number) =>
    createHmac("sha256", key).update(`photos/${name}:${exp}`).digest("base64url");
  return {
    sign(link, now = new Date()) {
      const name = photoName(link);
      if (!name) return null;
      const exp = Math.ceil((now.getTime() / 1000 + ttlSeconds) / 60) * 60;
      return { url: `${PHOTO_URL_PREFIX}${name}?exp=${exp}&sig=${mac(name, exp)}`, expiresAt: new Date(exp * 1000) };
    },
    verify(name, exp, sig, now = new Date()) {
      if (!PHOTO_NAME.test(name) || !exp || !sig || !EXPIRY.test(exp) || !SIGNATURE.test(sig)) return false;
      const expiry = Number(exp);
      // Expired, or further ahead than this server ever signs (a forged far-future expiry is refused too).
      const nowSeconds = now.getTime() / 1000;
      if (expiry <= nowSeconds || expiry > nowSeconds + ttlSeconds + 60) return false;
      const expected = Buffer.from(mac(name, expiry));
      const given = Buffer.from(sig);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
  };
}

/**
 * The address of the full-size image for screens that show it free (the member's own photo, the
 * administrators' screens): the signed URL of a stored photo, an outside link as it is, else null.
 */
export function fullSizeUrl(signer: PhotoUrlSigner, link: string | null | undefined): string | null {
  if (!link) return null;
  const signed = signer.sign(link);
  if (signed) return signed.url;
  return link.startsWith("/uploads/") ? null : link;
}
