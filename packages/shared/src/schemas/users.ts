import { z } from "zod";
import { type GENDERS, NEW_USER_DEFAULTS, ROLES } from "../constants";
import { MSG } from "../messages";
import { email, gender, newPassword, photoLink } from "./auth";
import { photoData } from "./photos";
import { text } from "./text";
import { pageNumber, pageSize, pageWithinOffset } from "./values";

/** Admin user management (spec §2 admin screen 1, §5 "Admin user edit" and "Add user"). */

const points = z
  .number({ error: MSG.pointsInvalid })
  .int(MSG.pointsInvalid)
  .min(0, MSG.pointsInvalid)
  .max(100_000_000, MSG.pointsInvalid);

export const userIdInput = z.object({ id: z.uuid({ error: MSG.notFound }) });

export const ADMIN_USER_PAGE_SIZE = 50;
export const ADMIN_USER_PAGE_SIZE_MAX = 1000;

export const adminUserListInput = z
  .object({
    /** userID: one or several IDs separated by commas; gender: male/female or 男性/女性. */
    field: z.enum(["userID", "gender"]).default("userID"),
    search: text({ max: 2000 }).default(""),
    page: pageNumber().default(1),
    pageSize: pageSize({ max: ADMIN_USER_PAGE_SIZE_MAX }).default(ADMIN_USER_PAGE_SIZE),
  })
  .refine(...pageWithinOffset(ADMIN_USER_PAGE_SIZE, { limitKey: "pageSize" }));

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
});

/** The fields of an admin user edit, before the password-confirmation rule (see below). */
export const adminUserUpdateFields = z.object({
  id: z.uuid({ error: MSG.notFound }),
  name,
  email,
  points,
  sendPoints: points,
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

export const adminUserUpdateInput = adminUserUpdateFields.refine(...passwordConfirmed);

export const sendPointsUpdateInput = z.object({ id: z.uuid({ error: MSG.notFound }), sendPoints: points });

export const genderLabels: Record<(typeof GENDERS)[number], string> = { male: "男性", female: "女性" };

export type AdminUserListInput = z.input<typeof adminUserListInput>;
export type AdminUserCreateInput = z.output<typeof adminUserCreateInput>;
export type AdminUserUpdateInput = z.output<typeof adminUserUpdateInput>;
