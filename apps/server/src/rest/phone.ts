import {
  LOGIN_BONUS_MAX_POINTS,
  loginBonusSettingInput,
  MSG,
  PHONE_VERIFICATION,
  phoneCodeConfirmInput,
  phoneCodeRequestInput,
  phoneCodeWrongLeft,
  phoneResendWaitSeconds,
  SIGNUP_BONUS_POINTS,
  userIdInput,
} from "@enmusubi/shared";
import { z } from "zod";
import { route } from "./adapter";

/**
 * Phone verification by SMS (ours, decision 0048): the member's status, a code sent to a Japanese
 * mobile number, the code typed back; the administrators' view of a member's state, its clearing
 * and the daily login bonus setting.
 */

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

const phoneStatusView = z.object({
  verified: z.boolean(),
  phone: z.string().nullable(),
  verifiedAt: z.iso.datetime().nullable(),
  pendingCode: z
    .object({ phone: z.string(), expiresAt: z.iso.datetime(), attemptsLeft: z.number().int().min(1) })
    .nullable(),
  resendWaitSeconds: z.number().int().min(0),
  signupBonus: z.object({
    points: z.number().int().min(0),
    pending: z.boolean(),
    grantedAt: z.iso.datetime().nullable(),
  }),
  loginBonusPoints: z.number().int().min(0).max(LOGIN_BONUS_MAX_POINTS),
});

const adminPhoneView = z.object({
  verified: z.boolean(),
  phone: z.string().nullable(),
  verifiedAt: z.iso.datetime().nullable(),
  signupBonusPending: z.boolean(),
  signupBonusGrantedAt: z.iso.datetime().nullable(),
});

const message = z.object({ message: z.string() });
const bonusSettingsView = z.object({ loginBonusPoints: z.number().int().min(0).max(LOGIN_BONUS_MAX_POINTS) });

const LIMITS = `A code is ${PHONE_VERIFICATION.codeDigits} digits, valid ${PHONE_VERIFICATION.codeTtlMinutes} minutes, ${PHONE_VERIFICATION.maxAttempts} tries. A new code at most every ${PHONE_VERIFICATION.resendIntervalSeconds} seconds (429 naming the seconds left; \`GET /api/account/phone\` answers \`resendWaitSeconds\`), ${PHONE_VERIFICATION.sendsPerNumberDay} a day to one number and ${PHONE_VERIFICATION.sendsPerMemberDay} a day per member (429).`;

export const phoneRoutes = [
  route({
    method: "GET",
    path: "/api/account/phone",
    summary: "Member: phone verification state, the code waiting, the resend wait and what verifying unlocks",
    description: `One account per mobile number. Verifying grants the sign-up bonus (${SIGNUP_BONUS_POINTS} free points, once per account, if this account has it due) and opens the daily login bonus (\`loginBonusPoints\`, 0 = off). ${LIMITS}`,
    access: "member",
    response: phoneStatusView,
    example: {
      verified: false,
      phone: null,
      verifiedAt: null,
      pendingCode: { phone: "090-1234-5678", expiresAt: "2026-12-01T03:10:00.000Z", attemptsLeft: 5 },
      resendWaitSeconds: 42,
      signupBonus: { points: SIGNUP_BONUS_POINTS, pending: true, grantedAt: null },
      loginBonusPoints: 5,
    },
    handler: async (caller) => {
      const s = await caller.phone.status();
      return {
        ...s,
        verifiedAt: iso(s.verifiedAt),
        pendingCode: s.pendingCode ? { ...s.pendingCode, expiresAt: iso(s.pendingCode.expiresAt) as string } : null,
        signupBonus: { ...s.signupBonus, grantedAt: iso(s.signupBonus.grantedAt) },
      };
    },
  }),
  route({
    method: "POST",
    path: "/api/account/phone/code",
    summary: "Member: send a verification code by SMS to a Japanese mobile number",
    description: `\`phone\`: 070/080/090 and 8 digits; full-width digits, hyphens and +81 are accepted. A number another account holds (live, suspended, or withdrawn within the retention) answers 409 and nothing is sent. ${LIMITS}`,
    access: "member",
    input: phoneCodeRequestInput,
    response: z.object({
      message: z.string(),
      phone: z.string(),
      expiresAt: z.iso.datetime(),
      resendWaitSeconds: z.number().int().min(0),
    }),
    status: 201,
    example: {
      message: MSG.phoneCodeSent,
      phone: "090-1234-5678",
      expiresAt: "2026-12-01T03:10:00.000Z",
      resendWaitSeconds: PHONE_VERIFICATION.resendIntervalSeconds,
    },
    errors: {
      400: [MSG.phoneInvalid, MSG.phoneRequired, MSG.phoneSmsFailed],
      409: [MSG.phoneTaken, MSG.phoneAlreadyVerified],
      429: [phoneResendWaitSeconds(42), MSG.phoneSendLimit],
    },
    handler: async (caller, input) => {
      const sent = await caller.phone.requestCode(input);
      return { ...sent, expiresAt: sent.expiresAt.toISOString() };
    },
  }),
  route({
    method: "POST",
    path: "/api/account/phone/confirm",
    summary: "Member: confirm the code received by SMS; the number becomes the account's",
    description: `The newest code counts. Each try is counted; a wrong one answers 400 naming the tries left, and after ${PHONE_VERIFICATION.maxAttempts} the code is dead. Verifying grants the sign-up bonus once per account (\`signupBonusPoints\`, 0 when none is due). A number another account took meanwhile answers 409 and nothing changes.`,
    access: "member",
    input: phoneCodeConfirmInput,
    response: z.object({ message: z.string(), phone: z.string(), signupBonusPoints: z.number().int().min(0) }),
    example: { message: MSG.phoneVerified, phone: "090-****-5678", signupBonusPoints: SIGNUP_BONUS_POINTS },
    errors: {
      400: [
        phoneCodeWrongLeft(4),
        MSG.phoneCodeDead,
        MSG.phoneCodeExpired,
        MSG.phoneNoCode,
        MSG.phoneCodeFormat,
        MSG.phoneCodeRequired,
      ],
      409: [MSG.phoneTaken, MSG.phoneAlreadyVerified],
    },
    handler: (caller, input) => caller.phone.confirmCode(input),
  }),
  route({
    method: "GET",
    path: "/api/admin/users/:id/phone",
    summary: "Admin: a member's phone verification and sign-up bonus",
    access: "admin",
    input: userIdInput,
    response: adminPhoneView,
    example: {
      verified: true,
      phone: "090-1234-5678",
      verifiedAt: "2026-12-01T03:05:00.000Z",
      signupBonusPending: false,
      signupBonusGrantedAt: "2026-12-01T03:05:00.000Z",
    },
    errors: { 404: MSG.notFound },
    handler: async (caller, input) => {
      const s = await caller.adminPhone.state(input);
      return { ...s, verifiedAt: iso(s.verifiedAt), signupBonusGrantedAt: iso(s.signupBonusGrantedAt) };
    },
  }),
  route({
    method: "POST",
    path: "/api/admin/users/:id/phone/clear",
    summary: "Admin: clear a member's verified phone number (audited); the number is free again",
    description:
      "The member may verify a number again; the sign-up bonus is never granted twice. 409 when no number is verified.",
    access: "admin",
    input: userIdInput,
    response: message,
    example: { message: MSG.phoneCleared },
    errors: { 404: MSG.notFound, 409: MSG.phoneNotVerified },
    handler: (caller, input) => caller.adminPhone.clear(input),
  }),
  route({
    method: "GET",
    path: "/api/admin/bonus-settings",
    summary: "Admin: the daily login bonus (points, 0 = off)",
    access: "admin",
    response: bonusSettingsView,
    example: { loginBonusPoints: 5 },
    handler: (caller) => caller.adminPhone.bonusSettings(),
  }),
  route({
    method: "PUT",
    path: "/api/admin/bonus-settings",
    summary: "Admin: set the daily login bonus (audited)",
    description: `0–${LOGIN_BONUS_MAX_POINTS} points, 0 = off. Granted to phone-verified members on their first signed-in request of each Japanese day (Asia/Tokyo).`,
    access: "admin",
    input: loginBonusSettingInput,
    response: bonusSettingsView.extend({ message: z.string() }),
    example: { loginBonusPoints: 5, message: MSG.loginBonusSaved },
    errors: { 400: MSG.loginBonusRange },
    handler: (caller, input) => caller.adminPhone.saveBonusSettings(input),
  }),
];
