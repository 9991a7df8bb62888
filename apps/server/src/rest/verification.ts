import {
  ID_IMAGE_RETENTION_HOURS,
  MSG,
  pageWithinOffset,
  REJECT_REASON_MAX,
  uuid,
  VERIFICATION_QUEUE_PAGE_SIZE,
  VERIFICATION_STATUSES,
  verificationApproveInput,
  verificationQueueInput,
  verificationRejectInput,
  verificationSubmitInput,
} from "@enmusubi/shared";
import { z } from "zod";
import { route } from "./adapter";
import { queryNumber } from "./coerce";

/**
 * Age verification rows (ours, not in spec §7; decision 0006): a member's status and submission,
 * and the administrators' review queue. The ID image is answered only to administrators, as a
 * data URL in a no-store answer; it never has a public address.
 */

const statusView = z.object({
  status: z.enum(VERIFICATION_STATUSES),
  rejectReason: z.string().nullable(),
  submittedAt: z.iso.datetime().nullable(),
  verifiedAt: z.iso.datetime().nullable(),
});

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** Digit strings from the query (`?page=2`, coerce.ts); anything else is refused with the generic message. */

const queueEntry = z.object({
  _id: z.string(),
  submittedAt: z.iso.datetime(),
  hasImage: z.boolean(),
  user: z.object({
    _id: z.string(),
    userID: z.string(),
    name: z.string().nullable(),
    gender: z.enum(["male", "female"]),
    birthday: z.string().nullable(),
    age: z.number().int().nullable(),
    createdAt: z.iso.datetime(),
  }),
});

const pagination = z.object({
  total: z.number().int().min(0),
  totalPages: z.number().int().min(1),
  currentPage: z.number().int().min(1),
  limit: z.number().int().min(1),
});

const reviewed = z.object({
  success: z.literal(true),
  message: z.string(),
  status: z.enum(VERIFICATION_STATUSES),
});

const EXAMPLE_ID = "7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f";
const EXAMPLE_USER_ID = "3f6c6a4e-1b2d-4c9e-8a7f-0d1e2f3a4b5c";
const idParam = z.object({ id: uuid(MSG.notFound) });

export const verificationRoutes = [
  route({
    method: "GET",
    path: "/api/verification",
    summary: "Member: own age verification status (unverified, pending, verified, rejected with the reason)",
    access: "member",
    response: statusView,
    example: {
      status: "rejected",
      rejectReason: "生年月日が読み取れませんでした。",
      submittedAt: "2025-08-21T09:30:00.000Z",
      verifiedAt: null,
    },
    handler: async (caller) => {
      const view = await caller.verification.status();
      return {
        status: view.status,
        rejectReason: view.rejectReason,
        submittedAt: iso(view.submittedAt),
        verifiedAt: iso(view.verifiedAt),
      };
    },
  }),
  route({
    method: "POST",
    path: "/api/verification",
    summary: "Member: submit an ID image for age verification (status becomes pending)",
    description: `The image (a data URL or bare base64, at most 10 MB) goes through the profile-photo pipeline (metadata stripped, ≤ 2048 px, JPEG) and is stored privately: only administrators can view it, and it is deleted at review or ${ID_IMAGE_RETENTION_HOURS} hours after submission at the latest. Allowed while unverified or rejected; 409 while pending or once verified.`,
    access: "member",
    input: verificationSubmitInput,
    response: z.object({ success: z.literal(true), message: z.string(), status: z.literal("pending") }),
    status: 201,
    example: { success: true, message: MSG.verificationSubmitted, status: "pending" },
    errors: {
      400: [MSG.imageOnly, MSG.imageUnreadable, MSG.imageTooLarge],
      409: [MSG.verificationAlreadyPending, MSG.verificationAlreadyDone],
      413: MSG.imageTooLarge,
      429: MSG.tooManyRequests,
    },
    handler: async (caller, input) => {
      await caller.verification.submit(input);
      return { success: true as const, message: MSG.verificationSubmitted, status: "pending" as const };
    },
  }),
  route({
    method: "GET",
    path: "/api/admin/verifications",
    summary: "Admin: age verification submissions waiting for review, oldest first, paged",
    access: "admin",
    input: z
      .object({
        page: queryNumber(verificationQueueInput.shape.page.unwrap().optional()),
        limit: queryNumber(verificationQueueInput.shape.limit.unwrap().optional()),
      })
      .refine(...pageWithinOffset(VERIFICATION_QUEUE_PAGE_SIZE)),
    response: z.object({ verifications: z.array(queueEntry), pagination }),
    example: {
      verifications: [
        {
          _id: EXAMPLE_ID,
          submittedAt: "2025-08-21T09:30:00.000Z",
          hasImage: true,
          user: {
            _id: EXAMPLE_USER_ID,
            userID: "k3x9m2pq",
            name: "山田花子",
            gender: "female",
            birthday: "1995-04-12",
            age: 30,
            createdAt: "2025-08-20T10:00:00.000Z",
          },
        },
      ],
      pagination: { total: 1, totalPages: 1, currentPage: 1, limit: 20 },
    },
    handler: async (caller, input) => {
      const page = await caller.adminVerification.queue({
        ...(input.page !== undefined ? { page: input.page } : {}),
        ...(input.limit !== undefined ? { limit: input.limit } : {}),
      });
      return {
        verifications: page.entries.map((e) => ({
          _id: e.id,
          submittedAt: new Date(e.submittedAt).toISOString(),
          hasImage: e.hasImage,
          user: {
            _id: e.user.id,
            userID: e.user.userID,
            name: e.user.name,
            gender: e.user.gender,
            birthday: e.user.birthday,
            age: e.user.age,
            createdAt: new Date(e.user.createdAt).toISOString(),
          },
        })),
        pagination: { total: page.total, totalPages: page.totalPages, currentPage: page.page, limit: page.limit },
      };
    },
  }),
  route({
    method: "GET",
    path: "/api/admin/verifications/:id/image",
    summary: "Admin: the ID image of a submission, as a JPEG data URL (never cached)",
    description: `Only administrators; the image has no public address. 404 once it has been deleted (reviewed, or older than ${ID_IMAGE_RETENTION_HOURS} hours).`,
    access: "admin",
    input: idParam,
    response: z.object({ image: z.string() }),
    example: { image: "data:image/jpeg;base64,/9j/4AAQSkZJRgABAQAAAQABAAD…" },
    errors: { 404: [MSG.notFound, MSG.verificationImageGone] },
    handler: async (caller, input, _request, reply) => {
      const { dataUrl } = await caller.adminVerification.image(input);
      reply.header("cache-control", "no-store");
      return { image: dataUrl };
    },
  }),
  route({
    method: "POST",
    path: "/api/admin/verifications/:id/approve",
    summary: "Admin: approve a submission (member verified, image deleted, audited, result mailed)",
    description:
      "Body `{ birthday }`: the birth date read from the ID (YYYY-MM-DD). Required when the member's birth date is unknown; given, it becomes the member's. An age under 18 is refused (400) and nothing changes (decision 0043).",
    access: "admin",
    input: idParam.extend({
      birthday: verificationApproveInput.shape.birthday.meta({
        description: "The birth date read from the ID; required when the member has none",
        examples: ["1995-04-12"],
      }),
    }),
    response: reviewed,
    example: { success: true, message: MSG.verificationApproved, status: "verified" },
    errors: {
      400: [MSG.idBirthdayRequired, MSG.idBirthdayInvalid, MSG.idBirthdayUnderAge],
      404: MSG.notFound,
      409: MSG.verificationAlreadyReviewed,
    },
    handler: async (caller, input) => {
      const result = await caller.adminVerification.approve(input);
      return { success: true as const, message: MSG.verificationApproved, status: result.status };
    },
  }),
  route({
    method: "POST",
    path: "/api/admin/verifications/:id/reject",
    summary: "Admin: reject a submission with a reason (the member may submit again; image deleted, audited, mailed)",
    description: `reason: trimmed, 1–${REJECT_REASON_MAX} characters; it is shown to the member and sent in the mail.`,
    access: "admin",
    input: verificationRejectInput,
    response: reviewed,
    example: { success: true, message: MSG.verificationRejected, status: "rejected" },
    errors: {
      400: [MSG.rejectReasonRequired, MSG.rejectReasonTooLong, MSG.textInvalid],
      404: MSG.notFound,
      409: MSG.verificationAlreadyReviewed,
    },
    handler: async (caller, input) => {
      const result = await caller.adminVerification.reject(input);
      return { success: true as const, message: MSG.verificationRejected, status: result.status };
    },
  }),
];
