import { type OwnReview, type OwnReviewState, thumbnailLink, type UserView } from "@enmusubi/api";
import { PROFILE_REJECT_REASON_VALUES, photoData, photoLink } from "@enmusubi/shared";
import { z } from "zod";

/**
 * Legacy shapes of spec §3, shared by every REST table. The clean camelCase tRPC outputs are
 * mapped here, in one place (`_id`, `occupaionName` as spelled, `annual_income`…).
 */

export const legacyUser = z.object({
  _id: z.string(),
  userID: z.string(),
  name: z.string().nullable(),
  email: z.string(),
  role: z.enum(["user", "admin"]),
  gender: z.enum(["male", "female"]),
  points: z.number().int().min(0),
  sendPoints: z.number().int().min(0),
  photoLink: z.string().nullable().meta({
    description:
      "The stored photo link (/uploads/photos/<name>.jpg): an identifier an edit may keep or clear, not served without a signature (decision 0028); show photoUrl",
  }),
  photoUrl: z.string().nullable().optional().meta({
    description:
      "The full-size photo's short-lived signed URL (a few minutes), answered free for one's own account and to administrators (decision 0028)",
  }),
  birthday: z.string().nullable(),
  address: z.string().nullable(),
  occupation: z.object({ _id: z.string(), occupaionName: z.string() }).nullable(),
  annual_income: z.object({ _id: z.string(), annualIncome: z.string() }).nullable(),
  createdAt: z.iso.datetime(),
  favoriteUserIds: z.array(z.string()).optional(),
  selfIntroduction: z.string().optional().meta({
    description: "自己紹介 (the signed-in account's own answers only; other members see it in the paid profile detail)",
  }),
});

/** An instant as the legacy answers write it (ISO 8601, UTC); a Date is formatted without a copy. */
export const isoOf = (at: Date | string): string => (typeof at === "string" ? new Date(at) : at).toISOString();

export function toLegacyUser(
  user: UserView & { favoriteUserIds?: string[]; photoUrl?: string | null; selfIntroduction?: string },
): z.input<typeof legacyUser> {
  return {
    _id: user.id,
    userID: user.userID,
    name: user.name,
    email: user.email,
    role: user.role,
    gender: user.gender,
    points: user.points,
    sendPoints: user.sendPoints,
    photoLink: user.photoLink,
    ...(user.photoUrl !== undefined ? { photoUrl: user.photoUrl } : {}),
    birthday: user.birthday,
    address: user.address,
    occupation: user.occupation ? { _id: user.occupation.id, occupaionName: user.occupation.name } : null,
    annual_income: user.annualIncome ? { _id: user.annualIncome.id, annualIncome: user.annualIncome.label } : null,
    createdAt: isoOf(user.createdAt),
    ...(user.favoriteUserIds ? { favoriteUserIds: user.favoriteUserIds } : {}),
    ...(user.selfIntroduction !== undefined ? { selfIntroduction: user.selfIntroduction } : {}),
  };
}

/**
 * The signed-in account's own answers (GET /api/auth/me, PUT /api/auth/profile, the photo upload):
 * `photoLink` is the photo's public thumbnail, not the stored full-size path, which answers 403
 * without a signature (decision 0028). The thumbnail rather than the signed full-size URL because a
 * legacy client keeps the user it read and shows `photoLink` later, and sends it back to keep the
 * photo: a signed URL stops loading within minutes and changes every minute, the thumbnail stays
 * until the photo changes, and it is what every other member-facing `photoLink` holds. The full
 * size is `photoUrl`, free for the owner.
 */
/** One kind's review as its owner sees it (decision 0044); null: nothing waits or was decided lately. */
const reviewState = z
  .object({
    status: z.enum(["pending", "approved", "rejected"]),
    submittedAt: z.iso.datetime().nullable().meta({ description: "When the change waiting was made (pending)" }),
    decidedAt: z.iso.datetime().nullable().meta({ description: "When it was approved or rejected" }),
    reason: z.enum(PROFILE_REJECT_REASON_VALUES).nullable(),
    reasonLabel: z.string().nullable().meta({ description: "The reason in Japanese, as the member is shown it" }),
    note: z.string().nullable().meta({ description: "The administrator's note with a rejection" }),
  })
  .nullable();

export const ownLegacyUser = legacyUser.extend({
  photoLink: z.string().nullable().meta({
    description:
      "The account's approved photo (the one other members see) as a link that loads: its public thumbnail (/uploads/thumbs/<name>.jpg, ≤ 320 px; decision 0028), or an outside link as set. Sent back unchanged with an edit, it keeps the photo; photoUrl is the full size",
  }),
  photoUrl: z.string().nullable().optional().meta({
    description:
      "The full-size photo's short-lived signed URL: the owner's latest photo, the one waiting for the review while there is one (profileReview.photo; decision 0044)",
  }),
  selfIntroduction: z.string().optional().meta({
    description:
      "自己紹介 as the owner last wrote it: the one waiting for the review while there is one (profileReview.selfIntroduction); other members see the approved one, in the paid profile detail",
  }),
  profileReview: z.object({ photo: reviewState, selfIntroduction: reviewState }).optional().meta({
    description:
      "A member's new photo and changed 自己紹介 wait for the operator's review before other members see them (decision 0044): pending (「審査中」), rejected with the reason until the member changes it again, or approved in the last 7 days",
  }),
});

const iso = (d: Date | string | null | undefined) => (d ? isoOf(d) : null);

function toReviewState(state: OwnReviewState): z.input<typeof reviewState> {
  if (!state) return null;
  const rejected = state.status === "rejected" ? state : null;
  return {
    status: state.status,
    submittedAt: state.status === "pending" ? iso(state.submittedAt) : null,
    decidedAt: state.status === "pending" ? null : iso(state.decidedAt),
    reason: rejected?.reason ?? null,
    reasonLabel: rejected?.reasonLabel ?? null,
    note: rejected ? rejected.note : null,
  };
}

export function toOwnLegacyUser(
  user: UserView & {
    favoriteUserIds?: string[];
    photoUrl?: string | null;
    selfIntroduction?: string;
    review?: OwnReview;
  },
): z.input<typeof ownLegacyUser> {
  const legacy: z.input<typeof ownLegacyUser> = toLegacyUser(user);
  legacy.photoLink = thumbnailLink(user.photoLink);
  if (user.review) {
    legacy.profileReview = {
      photo: toReviewState(user.review.photo),
      selfIntroduction: toReviewState(user.review.introduction),
    };
  }
  return legacy;
}

export const successMessage = z.object({ success: z.literal(true), message: z.string() });

/**
 * Spec §3: a photoLink is a string, or an object holding the image data as `photodatas`. This
 * `z.preprocess` step moves such an image out of `photoLink` into `newPhoto` (see `newPhotoField`),
 * so the route stores and cleans it first and then uses its link; a string photoLink stays.
 */
export function splitPhotoObject(raw: unknown): unknown {
  if (!raw || typeof raw !== "object") return raw;
  const { photoLink, ...rest } = raw as Record<string, unknown>;
  const photodatas =
    photoLink && typeof photoLink === "object" ? (photoLink as { photodatas?: unknown }).photodatas : undefined;
  return photodatas === undefined ? raw : { ...rest, newPhoto: photodatas };
}
export const newPhotoField = { newPhoto: photoData.optional() };

/**
 * The JSON Schema of what `schema` accepts (its input side): documents a legacy field with the
 * limits of the shared schema that checks it after the legacy body is reshaped.
 */
export function documentedAs(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _drop, ...json } = z.toJSONSchema(schema, {
    io: "input",
    unrepresentable: "any",
    target: "draft-2020-12",
  }) as Record<string, unknown>;
  return json;
}

/**
 * How a `photoLink` body field is documented where it may carry a new image (spec §3): a link,
 * "" or null to clear, or `{ photodatas }` (moved to `newPhoto` by `splitPhotoObject`).
 */
export function photoLinkOrImage(linkRule: string): Record<string, unknown> {
  return {
    anyOf: [
      documentedAs(photoLink),
      { type: "null" },
      {
        type: "object",
        properties: { photodatas: documentedAs(photoData) },
        required: ["photodatas"],
      },
    ],
    description: `${linkRule}; "" or null clears it; { photodatas } sets a new image (a data URL or base64 of at most 10 MB, re-encoded as JPEG ≤ 2048 px).`,
  };
}

/** `newPhoto` is the same image as `photoLink: { photodatas }`, for clients that send it apart. */
export const newPhotoDoc = { description: "A new image, as photoLink: { photodatas } (a data URL or base64)." };
