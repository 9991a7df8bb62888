import {
  ADMIN_USER_PAGE_SIZE,
  adminUserCreateInput,
  adminUserUpdateFields,
  deductPointsInput,
  MSG,
  passwordConfirmed,
} from "@enmusubi/shared";
import { z } from "zod";
import { type Caller, route } from "./adapter";
import { withNumbers } from "./coerce";
import { legacyUser, newPhotoField, splitPhotoObject, toLegacyUser } from "./legacy-shapes";

const listQuery = z.object({
  field: z.enum(["userID", "gender"]).default("userID"),
  search: z.string().default(""),
  page: z.coerce.number({ error: MSG.badRequest }).int().min(1).default(1),
  limit: z.coerce.number({ error: MSG.badRequest }).int().min(1).max(1000).default(ADMIN_USER_PAGE_SIZE),
});

const createBody = z.preprocess(
  (raw) => splitPhotoObject(withNumbers(["points", "sendPoints"])(raw)),
  adminUserCreateInput.extend(newPhotoField),
);

/** The legacy client checks the confirmation itself and sends only `password`. */
const updateBody = z.preprocess(
  (raw) => {
    const body = splitPhotoObject(withNumbers(["points", "sendPoints"])(raw)) as Record<string, unknown> | undefined;
    return body && typeof body === "object"
      ? { ...body, passwordConfirmation: body.passwordConfirmation ?? body.password }
      : body;
  },
  adminUserUpdateFields.extend(newPhotoField).refine(...passwordConfirmed),
);

/** Stores a photo sent as data and answers its link (a draft: the user update that follows uses it). */
async function storedPhoto(caller: Caller, data: string | undefined): Promise<string | undefined> {
  return data ? (await caller.photos.adminUpload({ data })).photoLink : undefined;
}

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
    auth: true,
    input: listQuery,
    response: z.array(legacyUser),
    handler: async (caller, input, _request, reply) => {
      const page = await caller.adminUsers.list({
        field: input.field,
        search: input.search,
        page: input.page,
        pageSize: input.limit,
      });
      reply.header("x-total-count", String(page.total));
      return page.users.map(toLegacyUser);
    },
  }),
  route({
    method: "POST",
    path: "/api/admin/users",
    summary: "Admin: create a user (userID and password from uniuqeGenerate); photoLink may be { photodatas }",
    auth: true,
    input: createBody,
    response: legacyUser,
    status: 201,
    handler: async (caller, { newPhoto, ...input }) => {
      const photoLink = (await storedPhoto(caller, newPhoto)) ?? input.photoLink;
      return toLegacyUser(await caller.adminUsers.create({ ...input, photoLink }));
    },
  }),
  route({
    method: "PUT",
    path: "/api/admin/users/:id",
    summary:
      'Admin: update name, email, points, sendPoints, optional password and photoLink (a link, "" to clear, or { photodatas })',
    auth: true,
    input: updateBody,
    response: legacyUser,
    handler: async (caller, { newPhoto, ...input }) => {
      const photoLink = (await storedPhoto(caller, newPhoto)) ?? input.photoLink;
      return toLegacyUser(await caller.adminUsers.update({ ...input, photoLink }));
    },
  }),
  route({
    method: "DELETE",
    path: "/api/admin/users/:id",
    summary: "Admin: delete a member (irreversible; administrators cannot be deleted here)",
    auth: true,
    input: z.object({ id: z.string() }),
    response: z.object({ message: z.string() }),
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
    auth: true,
    input: z.preprocess(withNumbers(["quantity"]), deductPointsInput),
    response: chargeResult,
    handler: (caller, input) => caller.points.deduct(input),
  }),
];
