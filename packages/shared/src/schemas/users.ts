import { z } from "zod";
import { type GENDERS, NEW_USER_DEFAULTS, ROLES } from "../constants/index";
import { MSG } from "../messages";
import { email, gender, newPassword, photoLink } from "./auth";
import { uuid } from "./ids";
import { photoData } from "./photos";
import { text } from "./text";
import { pageNumber, pageSize, pageWithinOffset } from "./values";
import { ageCheckInput } from "./verification";

/** Admin user management (spec §2 admin screen 1, §5 "Admin user edit" and "Add user"). */

const points = z
  .number({ error: MSG.pointsInvalid })
  .int(MSG.pointsInvalid)
  .min(0, MSG.pointsInvalid)
  .max(100_000_000, MSG.pointsInvalid);

export const userIdInput = z.object({ id: uuid(MSG.notFound) });

export const ADMIN_USER_PAGE_SIZE = 50;
export const ADMIN_USER_PAGE_SIZE_MAX = 1000;
export const ADMIN_USER_KEYWORD_MAX = 100;

export const adminUserListInput = z
  .object({
    /** userID: one or several IDs separated by commas; gender: male/female or 男性/女性. */
    field: z.enum(["userID", "gender"]).default("userID"),
    search: text({ max: 2000 }).default(""),
    /**
     * A keyword found in the name, the e-mail address or the user ID (partial, case-insensitive;
     * decision 0036), combined with `field`/`search` when both are given. Words split at spaces must
     * all match.
     */
    q: text({ max: ADMIN_USER_KEYWORD_MAX, tooLong: MSG.userSearchTooLong }).default(""),
    page: pageNumber().default(1),
    pageSize: pageSize({ max: ADMIN_USER_PAGE_SIZE_MAX }).default(ADMIN_USER_PAGE_SIZE),
  })
  .refine(...pageWithinOffset(ADMIN_USER_PAGE_SIZE, { limitKey: "pageSize" }));

/** The members a CSV export holds: the list's filter (decision 0036), every page of it. */
export const adminUserExportInput = z.object({
  field: z.enum(["userID", "gender"]).default("userID"),
  search: text({ max: 2000 }).default(""),
  q: text({ max: ADMIN_USER_KEYWORD_MAX, tooLong: MSG.userSearchTooLong }).default(""),
});

/** One page of an export: the rows after the last one sent (newest first), named by its id. */
export const adminUserExportPageInput = adminUserExportInput.extend({ after: uuid().optional() });

/** The administrators' list of withdrawn members (decision 0034). */
export const withdrawnListInput = z.object({
  page: pageNumber().default(1),
  pageSize: pageSize({ max: ADMIN_USER_PAGE_SIZE_MAX }).default(ADMIN_USER_PAGE_SIZE),
});

const name = text({ required: MSG.nameRequired, max: 50, tooLong: MSG.nameTooLong });
const loginId = text({ max: 32, tooLong: MSG.userIdInvalid }).regex(/^[A-Za-z0-9_-]{3,32}$/, MSG.userIdInvalid);

export const adminUserCreateInput = z.object({
  userID: loginId,
  password: newPassword,
  name,
  email,
  gender: gender.default("male"),
  points: points.default(NEW_USER_DEFAULTS.points),
  sendPoints: points.default(NEW_USER_DEFAULTS.sendPoints),
  photoLink: photoLink.nullable().optional(),
  /** A new photo as image data (the camera capture): stored only if the account is created. */
  newPhoto: photoData.optional(),
  role: z.enum(ROLES, { error: MSG.badRequest }).default(NEW_USER_DEFAULTS.role),
  /**
   * How the administrator checked the holder's age (decision 0043): the ID's kind and the birth date
   * read from it, which becomes the member's birth date; under 18 is refused. The screen always
   * sends it; a legacy body without it still creates the account, audited as "no document recorded".
   */
  ageCheck: ageCheckInput.nullable().optional(),
});

/**
 * A balance as the administrator saw it (any balance the database can hold): the figure an edit of
 * that balance replaces.
 */
const balanceSeen = z
  .number({ error: MSG.balanceExpectedMissing })
  .int(MSG.balanceExpectedMissing)
  .min(0, MSG.balanceExpectedMissing)
  .max(2_147_483_647, MSG.balanceExpectedMissing);

/**
 * The fields of an admin user edit, before the password-confirmation and stated-balance rules (see
 * below). Every field but `id` is optional: a field left out is left as it is, so saving a name, an
 * e-mail, a password or a photo never touches a balance.
 */
export const adminUserUpdateFields = z.object({
  id: uuid(MSG.notFound),
  name: name.optional(),
  email: email.optional(),
  points: points.optional(),
  sendPoints: points.optional(),
  /** The balance `points` replaces, as the administrator saw it; refused (CONFLICT) when it moved since. */
  expectedPoints: balanceSeen.optional(),
  /** The balance `sendPoints` replaces, as the administrator saw it; refused (CONFLICT) when it moved since. */
  expectedSendPoints: balanceSeen.optional(),
  /**
   * The user's version the edit was made against (the REST `ETag`, `If-Match`): refused
   * (PRECONDITION_FAILED) when the user changed since; it states both balances.
   */
  expectedVersion: text({ max: 100, trim: false }).optional(),
  password: z.union([z.literal(""), newPassword]).optional(),
  passwordConfirmation: text({ max: 200, trim: false }).optional(),
  /** Empty string or null clears the photo; absent leaves it. */
  photoLink: photoLink.nullable().optional(),
  /** A new photo as image data: stored only if the rest of the edit applies. */
  newPhoto: photoData.optional(),
});

/** A new password must equal its confirmation (spec §5 'パスワードが一致しません'). */
export const passwordConfirmed: [
  (v: { password?: string | undefined; passwordConfirmation?: string | undefined }) => boolean,
  { message: string; path: PropertyKey[] },
] = [
  (v) => !v.password || v.password === v.passwordConfirmation,
  { message: MSG.passwordMismatch, path: ["passwordConfirmation"] },
];

type StatedBalances = {
  points?: number | undefined;
  sendPoints?: number | undefined;
  expectedPoints?: number | undefined;
  expectedSendPoints?: number | undefined;
  expectedVersion?: string | undefined;
};

/** A change of `points` states the balance it replaces (decision 0016: no edit overwrites a balance it never saw). */
export const pointsStated: [(v: StatedBalances) => boolean, { message: string; path: PropertyKey[] }] = [
  (v) => v.points === undefined || v.expectedPoints !== undefined || v.expectedVersion !== undefined,
  { message: MSG.balanceExpectedMissing, path: ["expectedPoints"] },
];

/** A change of `sendPoints` states the balance it replaces. */
export const sendPointsStated: [(v: StatedBalances) => boolean, { message: string; path: PropertyKey[] }] = [
  (v) => v.sendPoints === undefined || v.expectedSendPoints !== undefined || v.expectedVersion !== undefined,
  { message: MSG.balanceExpectedMissing, path: ["expectedSendPoints"] },
];

export const adminUserUpdateInput = adminUserUpdateFields
  .refine(...passwordConfirmed)
  .refine(...pointsStated)
  .refine(...sendPointsStated);

/**
 * The legacy edit (REST `PUT /api/admin/users/{id}`): the same fields, the stated balances optional.
 * With `ifMatch` (the request's strong `If-Match` tags, RFC 9110) it applies only when the user's
 * current version is one of them; `expectedPoints` / `expectedSendPoints`, when sent, must be the
 * current balances (decision 0016). A balance sent without either sets the balance as it is now (the
 * legacy meaning: "set to this"), read under the row lock, and the ledger records from → to.
 */
export const adminUserLegacyUpdateFields = adminUserUpdateFields.omit({ expectedVersion: true }).extend({
  ifMatch: z
    .array(text({ max: 100, trim: false }))
    .min(1)
    .max(20)
    .optional(),
});

export const adminUserLegacyUpdateInput = adminUserLegacyUpdateFields.refine(...passwordConfirmed);

/** The send-points edit: the new figure and the one it replaces (refused when it moved since). */
export const sendPointsUpdateInput = z.object({
  id: uuid(MSG.notFound),
  sendPoints: points,
  expectedSendPoints: balanceSeen,
});

export const genderLabels: Record<(typeof GENDERS)[number], string> = { male: "男性", female: "女性" };

export type AdminUserListInput = z.input<typeof adminUserListInput>;
export type AdminUserCreateInput = z.output<typeof adminUserCreateInput>;
export type AdminUserUpdateInput = z.output<typeof adminUserUpdateInput>;
export type AdminUserLegacyUpdateInput = z.output<typeof adminUserLegacyUpdateInput>;
export type AdminUserExportInput = z.input<typeof adminUserExportInput>;
export type AdminUserExportPageInput = z.input<typeof adminUserExportPageInput>;
