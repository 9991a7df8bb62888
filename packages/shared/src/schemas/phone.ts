import { z } from "zod";
import { LOGIN_BONUS_MAX_POINTS, normaliseJapaneseMobile, PHONE_VERIFICATION } from "../constants/phone";
import { MSG } from "../messages";
import { text } from "./text";

/**
 * A Japanese mobile number as a member types it (full-width digits, hyphens and spaces allowed),
 * answered in its E.164 form (`+819012345678`); anything else is refused with one message
 * (decision 0048).
 */
export const japaneseMobile = text({ required: MSG.phoneRequired, max: 30, tooLong: MSG.phoneInvalid })
  .transform((value) => normaliseJapaneseMobile(value) ?? "")
  .pipe(z.string().regex(/^\+81[789]0\d{8}$/, MSG.phoneInvalid));

/** Asks for a code by SMS to this number. */
export const phoneCodeRequestInput = z.object({ phone: japaneseMobile });
export type PhoneCodeRequestInput = z.infer<typeof phoneCodeRequestInput>;

/** The code received by SMS: 6 digits (full-width digits and spaces are read as typed on a phone). */
export const phoneCodeConfirmInput = z.object({
  code: text({ required: MSG.phoneCodeRequired, max: 20, tooLong: MSG.phoneCodeFormat })
    .transform((value) => value.normalize("NFKC").replace(/\s/g, ""))
    .pipe(z.string().regex(new RegExp(`^\\d{${PHONE_VERIFICATION.codeDigits}}$`), MSG.phoneCodeFormat)),
});
export type PhoneCodeConfirmInput = z.infer<typeof phoneCodeConfirmInput>;

/** The daily login bonus an administrator sets (0 = off). */
export const loginBonusSettingInput = z.object({
  loginBonusPoints: z
    .number({ error: MSG.loginBonusRange })
    .int(MSG.loginBonusRange)
    .min(0, MSG.loginBonusRange)
    .max(LOGIN_BONUS_MAX_POINTS, MSG.loginBonusRange),
});
export type LoginBonusSettingInput = z.infer<typeof loginBonusSettingInput>;
