import { Readable } from "node:stream";
import { AppError } from "@enmusubi/api";
import {
  ADMIN_USER_PAGE_SIZE,
  adminUserCreateInput,
  adminUserExportInput,
  adminUserLegacyUpdateFields,
  adminUserListInput,
  deductPointsInput,
  ID_DOCUMENT_KINDS,
  japanDayOf,
  MSG,
  pageWithinOffset,
  passwordConfirmed,
  userIdInput,
} from "@enmusubi/shared";
import { TRPCError } from "@trpc/server";
import type { FastifyReply } from "fastify";
import { z } from "zod";
import { route } from "./adapter";
import { queryNumber, withNumbers } from "./coerce";
import { EXAMPLE_USER } from "./examples";
import { legacyUser, newPhotoDoc, photoLinkOrImage, splitPhotoObject, toLegacyUser } from "./legacy-shapes";
import { INSUFFICIENT_POINTS_EXAMPLE } from "./openapi";

const exportQuery = adminUserExportInput;

const listQuery = z
  .object({
    field: adminUserListInput.shape.field,
    search: adminUserListInput.shape.search,
    q: adminUserListInput.shape.q,
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
  adminUserCreateInput.extend({
    ...photoFields,
    ageCheck: adminUserCreateInput.shape.ageCheck.meta({
      description: `How the administrator checked the holder's age (decision 0043): \`documentKind\` (${ID_DOCUMENT_KINDS.join(", ")}) and the \`birthday\` read from it (YYYY-MM-DD), which becomes the member's; under 18 is refused (400) and nothing is created. Left out (the legacy body), the account is created as before and its audit row says no document was recorded.`,
      examples: [{ documentKind: "drivers_license", birthday: "1995-04-12" }],
    }),
  }),
);

/**
 * The legacy client checks the confirmation itself and sends only `password`. A REST client states
 * the user it edits with `If-Match` (parsed into `ifMatch` by the handler), the balances it replaces
 * with `expectedPoints` / `expectedSendPoints` (decision 0016), or both.
 */
const updateBody = z.preprocess(
  (raw) => {
    const body = splitPhotoObject(withNumbers(["points", "sendPoints", "expectedPoints", "expectedSendPoints"])(raw)) as
      | Record<string, unknown>
      | undefined;
    return body && typeof body === "object"
      ? { ...body, passwordConfirmation: body.passwordConfirmation ?? body.password }
      : body;
  },
  adminUserLegacyUpdateFields
    .omit({ ifMatch: true })
    .extend({
      ...photoFields,
      expectedPoints: adminUserLegacyUpdateFields.shape.expectedPoints.meta({
        description:
          "The `points` balance this edit replaces, as the client last read it: when it is no longer the balance, nothing is written and the answer is 409 with the current `points` and `sendPoints`",
        examples: [100],
      }),
      expectedSendPoints: adminUserLegacyUpdateFields.shape.expectedSendPoints.meta({
        description: "The `sendPoints` balance this edit replaces, checked likewise (409 when it moved)",
        examples: [20],
      }),
    })
    .refine(...passwordConfirmed),
);

/** A user's version as an entity tag (strong). */
const etagOf = (version: string) => `"${version}"`;

const ETAG = {
  ETag: {
    description:
      "The user's current version. Send it back as `If-Match` with a PUT: the PUT is then refused (412) if the user changed since, a charge or a credit of points included",
    schema: z.string().regex(/^"[\w-]+"$/),
  },
};

/**
 * The entity tags of `If-Match`, or undefined when there is none or it is `*` (any current user:
 * the legacy meaning). Only a strong tag (`"…"`) can match (RFC 9110 §13.1.1 compares strongly); a
 * weak or malformed one is kept as a version no user has.
 */
function ifMatchTags(header: string | string[] | undefined): string[] | undefined {
  const tags = (Array.isArray(header) ? header.join(",") : (header ?? ""))
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean);
  if (tags.length === 0 || tags.includes("*")) return undefined;
  return tags.slice(0, 20).map((t) => (/^"[\w-]{1,98}"$/.test(t) ? t.slice(1, -1) : "!"));
}

/** A 412 of the service names the user's current version: answered as the `ETag`, not in the body. */
function precondition412(error: unknown, reply: FastifyReply): never {
  const details = error instanceof TRPCError && error.code === "PRECONDITION_FAILED" ? error.cause : undefined;
  if (details instanceof AppError && typeof details.details?.version === "string") {
    const { version, ...figures } = details.details;
    reply.header("etag", etagOf(version));
    throw new TRPCError({
      code: "PRECONDITION_FAILED",
      message: details.message,
      cause: new AppError("PRECONDITION_FAILED", details.message, { details: figures }),
    });
  }
  throw error;
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
    description:
      "`search` holds one userID prefix (case-insensitive) or several userIDs separated by commas or spaces; with `field=gender` it holds male/female or 男性/女性. `q` (optional, ≤ 100 characters) is a keyword found in the name, the e-mail address or the userID (partial, case-insensitive; words split at spaces must all match; a word of 1–2 characters matches a name or the start of a userID), combined with `search` when both are sent; with `q` the matches are listed newest first and counted exactly up to 1,000 (then X-Total-Count is 1,000 and X-Total-Estimated false).",
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
        q: input.q,
        page: input.page,
        pageSize: input.limit,
      });
      reply.header("x-total-count", String(page.total));
      reply.header("x-total-estimated", String(page.totalEstimated));
      return page.users.map(toLegacyUser);
    },
  }),
  route({
    method: "GET",
    path: "/api/admin/users.csv",
    summary: "Admin: the members of the user list's filter as CSV (UTF-8 with a BOM, CRLF), streamed; audited",
    description:
      "The same `field`, `search` and `q` as `GET /api/admin/users`, every match (no paging), newest first. Columns: ユーザーID, 名前, メールアドレス, 性別, 生年月日, 住所, 職業, 年収, ポイント, 送信ポイント, 年齢確認, 利用停止, 権限, 登録日時 (Japan time). Never a password hash, a token, an ID image or a photo. Each export is written to the audit log (`user.export`, with its filter) before the first row is sent. A line break inside a value is written as a space (one member per line). Text a spreadsheet could read as a formula is prefixed with an apostrophe: a cell starting with = + - @ (half- or full-width, behind any white space) or with an invisible character (a control, zero-width or direction character, a BOM).",
    access: "admin",
    input: exportQuery,
    contentType: "text/csv",
    response: z.string(),
    example:
      "\uFEFFユーザーID,名前,メールアドレス,性別,生年月日,住所,職業,年収,ポイント,送信ポイント,年齢確認,利用停止,権限,登録日時\r\nhanako01,佐藤花子,hanako@example.com,女性,1995-04-01,東京都,会社員,400万円〜600万円,120,0,確認済み,,会員,2026-11-20 10:15:00\r\n",
    handler: async (caller, input, _request, reply) => {
      const { header } = await caller.adminUsers.exportStart(input);
      reply.header("content-disposition", `attachment; filename="members-${japanDayOf(new Date())}.csv"`);
      // Sent as it is read, 1,000 members at a time: a million members never sit in memory.
      async function* lines() {
        yield header;
        let after: string | undefined;
        do {
          const page = await caller.adminUsers.exportPage({ ...input, after });
          if (page.csv) yield page.csv;
          after = page.next ?? undefined;
        } while (after);
      }
      return Readable.from(lines()) as unknown as string;
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
      400: [
        MSG.imageOnly,
        MSG.photoLinkInvalid,
        MSG.idBirthdayUnderAge,
        MSG.idBirthdayInvalid,
        MSG.idDocumentKindRequired,
      ],
      409: [MSG.userIdTaken, MSG.emailTaken],
      413: MSG.imageTooLarge,
      429: MSG.tooManyRequests,
    },
    status: 201,
    handler: async (caller, input) => toLegacyUser(await caller.adminUsers.create(input)),
  }),
  route({
    method: "GET",
    path: "/api/admin/users/:id",
    summary: "Admin: one user, with its version in ETag (send it back as If-Match with a PUT)",
    access: "admin",
    input: userIdInput,
    response: legacyUser,
    example: EXAMPLE_USER,
    headers: ETAG,
    errors: { 404: MSG.notFound },
    handler: async (caller, input, _request, reply) => {
      const user = await caller.adminUsers.get(input);
      reply.header("etag", etagOf(user.version));
      return toLegacyUser(user);
    },
  }),
  route({
    method: "PUT",
    path: "/api/admin/users/:id",
    summary:
      'Admin: update name, email, points, sendPoints, optional password and photoLink (a link, "" to clear, or { photodatas }); a field left out is left as it is',
    description: [
      "A balance set here is recorded in the member's ledger as an administrator's adjustment (who, when, from → to). A new password ends the member's sessions.",
      "With `If-Match` (the `ETag` of `GET /api/admin/users/{id}` or of an earlier PUT) the edit applies only if the user has not changed since, a charge or a credit of points included; otherwise nothing is written and the answer is 412 with the current `points`, `sendPoints` and `ETag`. Without `If-Match` (or with `*`) the body's `points` and `sendPoints`, when sent, set the balances as they are now.",
      '`expectedPoints` / `expectedSendPoints` (with or without `If-Match`) state the balances the edit replaces, as the client last read them, e.g. `{ "points": 300, "expectedPoints": 100 }`: when a stated balance is no longer the current one (the member bought or spent points meanwhile), nothing is written and the answer is 409 `{ "message": "…", "points": 85, "sendPoints": 20 }` with the current figures.',
    ].join("\n\n"),
    access: "admin",
    input: updateBody,
    response: legacyUser,
    example: EXAMPLE_USER,
    headers: ETAG,
    errorHeaders: { 412: ETAG },
    errors: {
      400: [MSG.passwordTooShort, MSG.imageOnly],
      404: MSG.notFound,
      409: [MSG.emailTaken, MSG.balanceChanged],
      412: MSG.userChangedSince,
      413: MSG.imageTooLarge,
      429: MSG.tooManyRequests,
    },
    handler: async (caller, input, request, reply) => {
      // (`headers` may be absent on a request made by hand, as rest-access.test.ts does.)
      const ifMatch = ifMatchTags(request.headers?.["if-match"]);
      const user = await caller.adminUsers
        .updateLegacy({ ...input, ifMatch })
        .catch((error: unknown) => precondition412(error, reply));
      reply.header("etag", etagOf(user.version));
      return toLegacyUser(user);
    },
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
