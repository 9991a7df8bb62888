import { randomInt } from "node:crypto";
import type { PaymentProvider } from "./provider";

/** How long a convenience store accepts a payment code (ours; SmartPit's slips allow days, not weeks). */
export const SMARTPIT_CODE_VALID_DAYS = 7;
export { NOTIFY_WINDOW_SECONDS as SMARTPIT_NOTIFY_WINDOW_SECONDS } from "./signature";

export const SMARTPIT_HEADERS = {
  signature: "x-smartpit-signature",
  timestamp: "x-smartpit-timestamp",
  nonce: "x-smartpit-nonce",
} as const;

/** Luhn check digit, so a mistyped payment code is caught at the till. */
function luhnDigit(digits: string): string {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return String((10 - (sum % 10)) % 10);
}

/**
 * SmartPit (convenience-store payment). The member takes a 14-digit payment code, or the barcode
 * the app draws from `barcodeValue` (Code 128: merchant id, code, amount), to any store's till.
 * The real service numbers the slips itself through its API, which is not reachable from here; the
 * codes are made here in the same form, and the confirmation path (admin or signed notification) is
 * the one the real service uses.
 */
export const smartPitProvider: PaymentProvider = {
  method: "smart_pit",
  issue({ amount, settings, now }) {
    let body = "";
    for (let i = 0; i < 13; i += 1) body += String(randomInt(0, 10));
    const paymentCode = body + luhnDigit(body);
    const merchant = (settings.smartPitId.replace(/\D/g, "") || "0").slice(-6).padStart(6, "0");
    return {
      smartPit: {
        paymentCode,
        barcodeValue: `91${merchant}${paymentCode}${String(amount).padStart(8, "0")}`,
        expiresAt: new Date(now.getTime() + SMARTPIT_CODE_VALID_DAYS * 24 * 3600 * 1000),
      },
    };
  },
};
