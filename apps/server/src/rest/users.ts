import {
  ADMIN_USER_PAGE_SIZE,
  adminUserCreateInput,
  adminUserListInput,
  adminUserUpdateFields,
  deductPointsInput,
  MSG,
  pageWithinOffset,
  passwordConfirmed,
  userIdInput,
} from "@enmusubi/shared";
import { z } from "zod";
import { route } from "./adapter";
import { queryNumber, withNumbers } from "./coerce";
import { EXAMPLE_USER } from "./examples";
import { legacyUser, newPhotoDoc, photoLinkOrImage, splitPhotoObject, toLegacyUser } from "./legacy-shapes";
import { INSUFFICIENT_POINTS_EXAMPLE } from "./openapi";

const listQuery = z
  .object({
    field: adminUserListInput.shape.field,
    search: adminUserListInput.shape.search,
    page: queryNumber(adminUserListInput.shape.page),
    limit: queryNumber(adminUserListInput.shape.pageSize),
  })
  .refine(...pageWithinOffset(ADMIN_USER_PAGE_SIZE));

/** photoLink documented with its `{ photodatas }` form (the add-user camera capture). */
const photoFields = {
  photoLink: adminUserCreateInput.shape.photoLink.meta(
    photoLinkOrImage("A stored photo's link (/uploads/…) or an http(s) URL"),
  ),
  newPhoto: adminUserCreateInput.shape.newPhoto.meta(newPhotoDoc),
};

const createBody = z.preprocess(
  (raw) => splitPhotoObject(withNumbers(["points", "sendPoints"])(raw)),
  adminUserCreateInput.extend(photoFields),
);

/** The legacy client checks the confirmation itself and sends only `password`. */
const updateBody = z.preprocess(
  (raw) => {
    const body = splitPhotoObject(withNumbers(["points", "sendPoints"])(raw)) as Record<string, unknown> | undefined;
    return body && typeof body === "object"
      ? { ...body, passwordConfirmation: body.passwordConfirmation ?? body.password }
      : body;
  },
  adminUserUpdateFields.extend(photoFields).refine(...passwordConfirmed),
);

const chargeResult = z.object({
  success: z.boolean(),
  required: z.number().int(),
  available: z.number().int(),
  remainingPoints: z.number().int(),
});

export const userRoutes = [
  route({
    method: "GET",
    path: "/api/admin/users",
    summary:
      "Admin: users, newest first. Paged on the server (page, limit ≤ 1000, default 50); X-Total-Count gives the total",
    description:
      "`search` holds one userID prefix (case-insensitive) or several userIDs separated by commas or spaces; with `field=gender` it holds male/female or 男性/女性.",
    access: "admin",
    input: listQuery,
    response: z.array(legacyUser),
    example: [EXAMPLE_USER],
    headers: {
      "X-Total-Count": {
        description:
          "How many users match the search, across all pages: exact up to 10,000, above that PostgreSQL's estimate (then X-Total-Estimated is true)",
        schema: z.number().int().min(0),
      },
      "X-Total-Estimated": {
        description: "true when X-Total-Count is an estimate (more than 10,000 matches), false when it is exact",
        schema: z.enum(["true", "false"]),
      },
    },
    handler: async (caller, input, _request, reply) => {
      const page = await caller.adminUsers.list({
        field: input.field,
        search: input.search,
        page: input.page,
        pageSize: input.limit,
      });
      reply.header("x-total-count", String(page.total));
      reply.header("x-total-estimated", String(page.totalEstimated));
      return page.users.map(toLegacyUser);
    },
  }),
  route({
    method: "POST",
    path: "/api/admin/users",
    summary: "Admin: create a user (userID and password from uniuqeGenerate); photoLink may be { photodatas }",
    access: "admin",
    input: createBody,
    response: legacyUser,
    example: EXAMPLE_USER,
    errors: {
      400: [MSG.imageOnly, MSG.photoLinkInvalid],
      409: [MSG.userIdTaken, MSG.emailTaken],
      413: MSG.imageTooLarge,
      429: MSG.tooManyRequests,
    },
    status: 201,
    handler: async (caller, input) => toLegacyUser(await caller.adminUsers.create(input)),
  }),
  route({
    method: "PUT",
    path: "/api/admin/users/:id",
    summary:
      'Admin: update name, email, points, sendPoints, optional password and photoLink (a link, "" to clear, or { photodatas })',
    description:
      "A balance set here is recorded in the member's ledger as an administrator's adjustment (who, when, from → to). A new password ends the member's sessions.",
    access: "admin",
    input: updateBody,
    response: legacyUser,
    example: EXAMPLE_USER,
    errors: {
      400: [MSG.passwordTooShort, MSG.imageOnly],
      404: MSG.notFound,
      409: MSG.emailTaken,
      413: MSG.imageTooLarge,
      429: MSG.tooManyRequests,
    },
    handler: async (caller, input) => toLegacyUser(await caller.adminUsers.update(input)),
  }),
  route({
    method: "DELETE",
    path: "/api/admin/users/:id",
    summary: "Admin: delete a member (irreversible; administrators cannot be deleted here)",
    access: "admin",
    input: userIdInput,
    response: z.object({ message: z.string() }),
    example: { message: MSG.userDeleted },
    errors: { 403: [MSG.adminNotDeletable, MSG.selfNotDeletable], 404: MSG.notFound },
    handler: async (caller, input) => {
      await caller.adminUsers.delete(input);
      return { message: MSG.userDeleted };
    },
  }),
  route({
    method: "POST",
    path: "/api/users/deduct-points",
    summary:
      "Member: prepay cost × quantity for send_message, message_board_view or profile_view; 402 with required/available when short",
    description:
      "The points are taken now and credited to the action that follows, which then charges nothing; units left unused are refunded later.",
    access: "member",
    input: z.preprocess(withNumbers(["quantity"]), deductPointsInput),
    response: chargeResult,
    example: { success: true, required: 96, available: 100, remainingPoints: 4 },
    errors: { 400: MSG.unknownAction, 402: INSUFFICIENT_POINTS_EXAMPLE },
    handler: (caller, input) => caller.points.deduct(input),
  }),
];
