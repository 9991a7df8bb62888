import { z } from "zod";
import { GENDERS, MIN_AGE, PASSWORD_MIN_LENGTH, TERMS_VERSION } from "../constants/index";
import { MSG } from "../messages";
import { uuid } from "./ids";
import { photoData } from "./photos";
import { text } from "./text";
import { ageOn, isCalendarDay } from "./values";

export const loginInput = z.object({
  userID: text({ required: MSG.loginRequired, max: 100, tooLong: MSG.invalidCredentials }),
  password: text({ required: MSG.loginRequired, max: 200, tooLong: MSG.invalidCredentials, trim: false }),
});
export type LoginInput = z.infer<typeof loginInput>;

export const email = text({ required: MSG.emailRequired, max: 254, tooLong: MSG.emailInvalid })
  .pipe(z.email({ error: MSG.emailInvalid }))
  .transform((v) => v.toLowerCase());

export const gender = z.enum(GENDERS, { error: MSG.genderInvalid });

/** The legacy sign-up (REST `POST /api/auth/signup`): e-mail and gender; no consent is recorded. */
export const signupInput = z.object({ email, gender: gender.default("male") });
export type SignupInput = z.infer<typeof signupInput>;

/**
 * Consent to the terms and the privacy policy of `TERMS_VERSION`, with the declaration of being 18
 * or older (decision 0034): both boxes must be ticked; an older version is refused.
 */
export const consentFields = {
  acceptTerms: z.literal(true, { error: MSG.termsConsentRequired }),
  adult: z.literal(true, { error: MSG.adultDeclarationRequired }),
  termsVersion: z.literal(TERMS_VERSION, { error: MSG.termsVersionOutdated }),
};
export const consentInput = z.object(consentFields);
export type ConsentInput = z.infer<typeof consentInput>;

/** Sign-up from the web screen (and `POST /api/auth/join`): the address, gender and consent. */
export const joinInput = signupInput.extend(consentFields);
export type JoinInput = z.infer<typeof joinInput>;

/** 退会: the member's current password. */
export const withdrawInput = z.object({
  password: text({ required: MSG.withdrawPasswordRequired, max: 200, tooLong: MSG.withdrawPasswordWrong, trim: false }),
});
export type WithdrawInput = z.infer<typeof withdrawInput>;

export const forgotInput = z.object({
  userID: text({ required: MSG.genericError, max: 100 }),
  email: text({ required: MSG.genericError, max: 254 }),
});
export type ForgotInput = z.infer<typeof forgotInput>;

export const newPassword = text({ max: 200, tooLong: MSG.passwordTooShort, trim: false }).min(
  PASSWORD_MIN_LENGTH,
  MSG.passwordTooShort,
);

export const birthday = z
  .string({ error: MSG.birthdayInvalid })
  // A real calendar day from 1900 on (the one day check, values.ts); 18 on today's Japanese day.
  .refine(isCalendarDay, MSG.birthdayInvalid)
  .refine((v) => ageOn(v, new Date()) >= MIN_AGE, MSG.underAge);

/** A photo link is a stored photo path (`/uploads/…`) or an http(s) URL; empty clears it. */
export const photoLink = text({ max: 2048, tooLong: MSG.photoLinkInvalid }).refine(
  (v) => v === "" || v.startsWith("/uploads/") || /^https?:\/\/\S+$/.test(v),
  MSG.photoLinkInvalid,
);

const optionalId = uuid(MSG.notFound).nullable().optional();

/**
 * Member profile update (spec §7 PUT /api/auth/profile). Fields left out stay as they are; `null`
 * or "" clears an optional field. A new password requires the current one.
 */
/** 自己紹介: at most SELF_INTRODUCTION_MAX characters (after trimming; line breaks are kept). */
export const SELF_INTRODUCTION_MAX = 1000;
export const selfIntroduction = text({ max: SELF_INTRODUCTION_MAX, tooLong: MSG.selfIntroductionTooLong });

export const profileUpdateInput = z
  .object({
    /**
     * The name shown to others: a member's nickname (the member screen words its errors so,
     * decision 0043); the messages are the spec's (admin profile save). REST keeps the field `name`.
     */
    name: text({ required: MSG.nameRequired, max: 50, tooLong: MSG.nameTooLong }).optional(),
    birthday: birthday.nullable().optional(),
    address: text({ max: 100, tooLong: MSG.addressTooLong }).nullable().optional(),
    /** 自己紹介 (decision 0029): shown only in the paid profile detail; "" clears it. */
    selfIntroduction: selfIntroduction.optional(),
    occupationId: optionalId,
    annualIncomeId: optionalId,
    photoLink: photoLink.nullable().optional(),
    currentPassword: text({ max: 200, trim: false }).optional(),
    newPassword: newPassword.optional(),
    /** A new photo sent with the profile (the legacy `photoLink: { photodatas }`): stored only if the rest applies. */
    newPhoto: photoData.optional(),
  })
  .refine((v) => !v.newPassword || (v.currentPassword ?? "").length > 0, {
    message: MSG.currentPasswordRequired,
    path: ["currentPassword"],
  });
export type ProfileUpdateInput = z.infer<typeof profileUpdateInput>;
