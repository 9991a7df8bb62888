import {
  MSG,
  PROFILE_REJECT_NOTE_MAX,
  PROFILE_REJECT_REASONS,
  PROFILE_REVIEW_KINDS,
  PROFILE_REVIEW_PAGE_SIZE,
  pageWithinOffset,
  profileReviewQueueInput,
  profileReviewRejectInput,
  uuid,
} from "@enmusubi/shared";
import { z } from "zod";
import { route } from "./adapter";
import { queryNumber } from "./coerce";

/**
 * 「プロフィール審査」 rows (ours, not in spec §7; decision 0044): the members' photo and 自己紹介
 * changes waiting for the operator's review, oldest first, with the current (approved) version
 * beside the new one; approve or reject once. Photos are short-lived signed URLs, answered to
 * administrators only.
 */

const version = z.object({
  photoUrl: z
    .string()
    .nullable()
    .meta({ description: "kind photo: the full-size photo's signed URL (a few minutes); null when none" }),
  introduction: z.string().nullable().meta({ description: "kind introduction: the 自己紹介; null for a photo" }),
});

const entry = z.object({
  _id: z.string(),
  kind: z.enum(PROFILE_REVIEW_KINDS),
  submittedAt: z.iso.datetime(),
  user: z.object({
    _id: z.string(),
    userID: z.string(),
    name: z.string().nullable(),
    gender: z.enum(["male", "female"]),
    age: z.number().int().nullable(),
    createdAt: z.iso.datetime(),
  }),
  current: version.meta({ description: "What other members see now (the approved version)" }),
  proposed: version.meta({ description: "The change waiting for the review" }),
});

const pagination = z.object({
  total: z.number().int().min(0),
  totalPages: z.number().int().min(1),
  currentPage: z.number().int().min(1),
  limit: z.number().int().min(1),
});

const decided = z.object({
  success: z.literal(true),
  message: z.string(),
  kind: z.enum(PROFILE_REVIEW_KINDS),
});

const EXAMPLE_ID = "5b2e8c1d-3f4a-4b6c-9d7e-8f0a1b2c3d4e";
const EXAMPLE_USER_ID = "3f6c6a4e-1b2d-4c9e-8a7f-0d1e2f3a4b5c";
const idParam = z.object({ id: uuid(MSG.notFound) });
const reasons = PROFILE_REJECT_REASONS.map((r) => `${r.value} (${r.label})`).join(", ");

export const profileReviewRoutes = [
  route({
    method: "GET",
    path: "/api/admin/profile-reviews",
    summary: "Admin: photo and 自己紹介 changes waiting for the profile review, oldest first, paged",
    access: "admin",
    input: z
      .object({
        page: queryNumber(profileReviewQueueInput.shape.page.unwrap().optional()),
        limit: queryNumber(profileReviewQueueInput.shape.limit.unwrap().optional()),
      })
      .refine(...pageWithinOffset(PROFILE_REVIEW_PAGE_SIZE)),
    response: z.object({ reviews: z.array(entry), pagination }),
    example: {
      reviews: [
        {
          _id: EXAMPLE_ID,
          kind: "introduction",
          submittedAt: "2025-08-21T09:30:00.000Z",
          user: {
            _id: EXAMPLE_USER_ID,
            userID: "k3x9m2pq",
            name: "山田花子",
            gender: "female",
            age: 30,
            createdAt: "2025-08-20T10:00:00.000Z",
          },
          current: { photoUrl: null, introduction: "はじめまして。" },
          proposed: { photoUrl: null, introduction: "はじめまして。週末はカフェ巡りをしています。" },
        },
      ],
      pagination: { total: 1, totalPages: 1, currentPage: 1, limit: 20 },
    },
    handler: async (caller, input, _request, reply) => {
      const page = await caller.adminProfileReview.queue({
        ...(input.page !== undefined ? { page: input.page } : {}),
        ...(input.limit !== undefined ? { limit: input.limit } : {}),
      });
      // Signed photo URLs: never kept by a shared cache.
      reply.header("cache-control", "no-store");
      return {
        reviews: page.entries.map((e) => ({
          _id: e.id,
          kind: e.kind,
          submittedAt: new Date(e.submittedAt).toISOString(),
          user: {
            _id: e.user.id,
            userID: e.user.userID,
            name: e.user.name,
            gender: e.user.gender,
            age: e.user.age,
            createdAt: new Date(e.user.createdAt).toISOString(),
          },
          current: e.current,
          proposed: e.proposed,
        })),
        pagination: { total: page.total, totalPages: page.totalPages, currentPage: page.page, limit: page.limit },
      };
    },
  }),
  route({
    method: "POST",
    path: "/api/admin/profile-reviews/:id/approve",
    summary: "Admin: approve a change (other members see it from now on; the photo it replaces is deleted; audited)",
    description:
      "Once: a change already approved, rejected or replaced by the member meanwhile answers 409, and nothing changes.",
    access: "admin",
    input: idParam,
    response: decided,
    example: { success: true, message: MSG.profileReviewApproved, kind: "photo" },
    errors: { 404: MSG.notFound, 409: MSG.profileReviewAlreadyDecided },
    handler: async (caller, input) => {
      const result = await caller.adminProfileReview.approve(input);
      return { success: true as const, message: MSG.profileReviewApproved, kind: result.kind };
    },
  }),
  route({
    method: "POST",
    path: "/api/admin/profile-reviews/:id/reject",
    summary:
      "Admin: reject a change with a reason from the list (never shown to others; the member is told in the app and by mail; audited)",
    description: `reason: one of ${reasons}. note: optional (required with other), at most ${PROFILE_REJECT_NOTE_MAX} characters; shown to the member and sent in the mail, which never carries the photo or the text. Once: a change already decided or replaced answers 409.`,
    access: "admin",
    input: profileReviewRejectInput,
    response: decided,
    example: { success: true, message: MSG.profileReviewRejected, kind: "introduction" },
    errors: {
      400: [MSG.profileRejectReasonRequired, MSG.profileRejectNoteRequired, MSG.profileRejectNoteTooLong],
      404: MSG.notFound,
      409: MSG.profileReviewAlreadyDecided,
    },
    handler: async (caller, input) => {
      const result = await caller.adminProfileReview.reject(input);
      return { success: true as const, message: MSG.profileReviewRejected, kind: result.kind };
    },
  }),
];
