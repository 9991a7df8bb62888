/**
 * Phone verification by SMS and the bonuses it gates (decision 0048): one live account per mobile
 * number; the sign-up bonus and the daily login bonus wait for it.
 */

export const PHONE_VERIFICATION = {
  /** Digits of the code sent by SMS. */
  codeDigits: 6,
  /** A code is accepted this many minutes after it was sent. */
  codeTtlMinutes: 10,
  /** Attempts at one code (right or wrong); after this many wrong ones the code is dead. */
  maxAttempts: 5,
  /** A new code (a resend) at most once per this many seconds per member. */
  resendIntervalSeconds: 60,
  /** Codes sent to one number per 24 hours, whoever asks (counted in PostgreSQL). */
  sendsPerNumberDay: 5,
  /** Codes one member may ask for per 24 hours, to any numbers (counted in PostgreSQL). */
  sendsPerMemberDay: 8,
} as const;

/**
 * The sign-up bonus: free points (180 days, decision 0008) granted once per account when its phone
 * is verified, not at sign-up (decision 0048). Accounts an administrator creates get the balance
 * the administrator sets instead.
 */
export const SIGNUP_BONUS_POINTS = 100;

/** The highest daily login bonus an administrator may set (0 turns the bonus off). */
export const LOGIN_BONUS_MAX_POINTS = 100;

/** The Japanese day of the login bonus: counted in Asia/Tokyo (a day starts at 0:00 JST). */
export const LOGIN_BONUS_TIME_ZONE = "Asia/Tokyo";

/**
 * A Japanese mobile number (070 / 080 / 090 and 8 digits) as typed, in its E.164 form
 * (`+819012345678`), or null. Full-width digits and signs are read as their ASCII forms (NFKC);
 * hyphens, dashes, spaces, dots and brackets are dropped; `+81` or `81` in front stands for the 0.
 */
export function normaliseJapaneseMobile(input: string): string | null {
  const plain = input.normalize("NFKC").replace(/[\s\-‐‑‒–—―−ー()（）.]/g, "");
  const national = plain.startsWith("+81")
    ? `0${plain.slice(3)}`
    : plain.startsWith("81") && plain.length === 12
      ? `0${plain.slice(2)}`
      : plain;
  if (!/^0[789]0\d{8}$/.test(national)) return null;
  return `+81${national.slice(1)}`;
}

/** An E.164 Japanese mobile number as it is written in Japan: `090-1234-5678`. */
export function formatJapaneseMobile(e164: string): string {
  const national = e164.startsWith("+81") ? `0${e164.slice(3)}` : e164;
  return national.length === 11 ? `${national.slice(0, 3)}-${national.slice(3, 7)}-${national.slice(7)}` : national;
}

/** The number with all but its last 4 digits hidden: `090-****-5678` (the member's own screen). */
export function maskJapaneseMobile(e164: string): string {
  const formatted = formatJapaneseMobile(e164);
  return formatted.length === 13 ? `${formatted.slice(0, 4)}****${formatted.slice(8)}` : formatted;
}
