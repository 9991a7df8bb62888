import {
  ADMIN_USER_PAGE_SIZE,
  consentInput,
  joinInput,
  MSG,
  pageWithinOffset,
  TERMS_VERSION,
  userIdInput,
  withdrawInput,
  withdrawnListInput,
} from "@enmusubi/shared";
import { z } from "zod";
import { route } from "./adapter";
import { queryNumber } from "./coerce";
import { successMessage } from "./legacy-shapes";

/**
 * Joining and leaving (ours, decision 0034): sign-up with consent, the consent asked at
 * the first sign-in, the balance by expiry, 退会, and the administrators' withdrawn members.
 */

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

const consentView = z.object({
  termsVersion: z.string().nullable(),
  acceptedAt: z.iso.datetime().nullable(),
  currentVersion: z.string(),
  required: z.boolean(),
});
const toConsent = (c: {
  termsVersion: string | null;
  acceptedAt: Date | null;
  currentVersion: string;
  required: boolean;
}) => ({
  ...c,
  acceptedAt: iso(c.acceptedAt),
});

const expiryDay = z.object({
  day: z.iso.date(),
  expiresAt: z.iso.datetime(),
  purchased: z.number().int().min(0),
  free: z.number().int().min(0),
});
type ExpiryDay = { day: string; expiresAt: Date; purchased: number; free: number };
const toDay = (d: ExpiryDay) => ({ ...d, expiresAt: d.expiresAt.toISOString() });

const forfeited = z.object({
  purchased: z.number().int().min(0),
  free: z.number().int().min(0),
  lapsed: z.number().int().min(0),
  sendPoints: z.number().int().min(0),
});

const withdrawnMember = z.object({
  _id: z.string(),
  userID: z.string(),
  name: z.string().nullable(),
  email: z.string(),
  gender: z.enum(["male", "female"]),
  withdrawnAt: z.iso.datetime(),
  retainedUntil: z.iso.datetime(),
  personalDataDeletedAt: z.iso.datetime().nullable(),
  restorable: z.boolean(),
});

const EXAMPLE_DAY = { day: "2027-05-25", expiresAt: "2027-05-25T03:00:00.000Z", purchased: 0, free: 100 };

export const accountRoutes = [
  route({
    method: "POST",
    path: "/api/auth/join",
    summary: "Register with email, gender and consent to the terms, the privacy policy and being 18 or older",
    description: `As \`POST /api/auth/signup\`, and records the consent: \`acceptTerms\` and \`adult\` must be true and \`termsVersion\` the version in force (${TERMS_VERSION}); otherwise 400 and nothing is registered.`,
    access: "public",
    input: joinInput,
    response: successMessage,
    example: { success: true, message: MSG.signupDone },
    errors: {
      400: [MSG.termsConsentRequired, MSG.adultDeclarationRequired, MSG.termsVersionOutdated],
      429: MSG.tooManyRequests,
    },
    status: 201,
    handler: (caller, input) => caller.auth.join(input),
  }),
  route({
    method: "GET",
    path: "/api/auth/consent",
    summary: "Member: the terms version accepted and whether consent to the version in force is still required",
    access: "member",
    response: consentView,
    example: { termsVersion: null, acceptedAt: null, currentVersion: TERMS_VERSION, required: true },
    handler: async (caller) => toConsent(await caller.account.consent()),
  }),
  route({
    method: "POST",
    path: "/api/auth/consent",
    summary: "Member: accept the terms and the privacy policy in force and declare being 18 or older",
    access: "member",
    input: consentInput,
    response: consentView,
    example: {
      termsVersion: TERMS_VERSION,
      acceptedAt: "2026-11-26T09:30:00.000Z",
      currentVersion: TERMS_VERSION,
      required: false,
    },
    errors: { 400: [MSG.termsConsentRequired, MSG.adultDeclarationRequired, MSG.termsVersionOutdated] },
    handler: async (caller, input) => toConsent(await caller.account.acceptTerms(input)),
  }),
  route({
    method: "GET",
    path: "/api/users/points/balance",
    summary: "Member: the balance by expiry: purchased and free points, the next expiry and the days points expire on",
    description:
      "Purchased points are valid 3 years from the purchase, free points (the sign-up bonus, grants) 180 days. Points past their expiry are not counted.",
    access: "member",
    response: z.object({
      total: z.number().int().min(0),
      purchased: z.number().int().min(0),
      free: z.number().int().min(0),
      nextExpiry: expiryDay.nullable(),
      schedule: z.array(expiryDay),
    }),
    example: { total: 100, purchased: 0, free: 100, nextExpiry: EXAMPLE_DAY, schedule: [EXAMPLE_DAY] },
    handler: async (caller) => {
      const b = await caller.account.pointBalance();
      return { ...b, nextExpiry: b.nextExpiry ? toDay(b.nextExpiry) : null, schedule: b.schedule.map(toDay) };
    },
  }),
  route({
    method: "POST",
    path: "/api/auth/withdraw",
    summary: "Member: withdraw (退会) with the current password; the balance is forfeited",
    description:
      "Wrong passwords are counted with the account's failed logins (10 in 15 minutes, then 429). Unused points (purchased and free) and send points are forfeited, as the terms say; the answer says how many. Every session ends and the account cannot sign in again. The account data is kept 1 year (an administrator may restore it), the usage history 3 years; the address may register again at once.",
    access: "member",
    input: withdrawInput,
    response: successMessage.extend({ forfeited }),
    example: {
      success: true,
      message: MSG.withdrawDone,
      forfeited: { purchased: 500, free: 100, lapsed: 0, sendPoints: 20 },
    },
    errors: { 400: [MSG.withdrawPasswordRequired, MSG.withdrawPasswordWrong], 429: MSG.tooManyRequests },
    handler: (caller, input) => caller.account.withdraw(input),
  }),
  route({
    method: "GET",
    path: "/api/admin/users/withdrawn",
    summary: "Admin: withdrawn members, newest first, with the date and the end of their retention",
    access: "admin",
    input: z
      .object({
        page: queryNumber(withdrawnListInput.shape.page.unwrap().optional()),
        pageSize: queryNumber(withdrawnListInput.shape.pageSize.unwrap().optional()),
      })
      .refine(...pageWithinOffset(ADMIN_USER_PAGE_SIZE, { limitKey: "pageSize" })),
    response: z.object({
      users: z.array(withdrawnMember),
      pagination: z.object({
        total: z.number().int().min(0),
        totalPages: z.number().int().min(1),
        currentPage: z.number().int().min(1),
        limit: z.number().int().min(1),
      }),
    }),
    example: {
      users: [
        {
          _id: "3f6c6a4e-1b2d-4c9e-8a7f-0d1e2f3a4b5c",
          userID: "k3x9m2pq",
          name: "山田花子",
          email: "hanako@example.jp",
          gender: "female",
          withdrawnAt: "2026-11-26T09:30:00.000Z",
          retainedUntil: "2027-11-26T09:30:00.000Z",
          personalDataDeletedAt: null,
          restorable: true,
        },
      ],
      pagination: { total: 1, totalPages: 1, currentPage: 1, limit: 50 },
    },
    handler: async (caller, input) => {
      const page = await caller.adminUsers.withdrawn(input);
      return {
        pagination: page.pagination,
        users: page.users.map(({ id, ...u }) => ({
          _id: id,
          ...u,
          withdrawnAt: new Date(u.withdrawnAt).toISOString(),
          retainedUntil: new Date(u.retainedUntil).toISOString(),
          personalDataDeletedAt: iso(u.personalDataDeletedAt),
        })),
      };
    },
  }),
  route({
    method: "POST",
    path: "/api/admin/users/:id/restore",
    summary: "Admin: restore a withdrawn member within the retention (audited); the forfeited balance comes back",
    access: "admin",
    input: userIdInput,
    response: successMessage,
    example: { success: true, message: MSG.userRestored },
    errors: { 404: MSG.notWithdrawn, 409: [MSG.restoreRetentionOver, MSG.restoreEmailTaken] },
    handler: (caller, input) => caller.adminUsers.restore(input),
  }),
];
