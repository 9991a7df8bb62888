import { blockInput, MSG, REPORT_REASONS, REPORT_TARGET_TYPES, reportInput } from "@enmusubi/shared";
import { z } from "zod";
import { route } from "./adapter";
import { successMessage } from "./legacy-shapes";
import { legacyPublicProfile, toLegacyPublicProfile } from "./members";

/**
 * Blocking and reports (ours: the spec has no such calls), in the legacy style (`_id`, public
 * profiles only). Administrators handle reports in the web app (tRPC adminModeration).
 */

const EXAMPLE_ID = "3f6c6a4e-1b2d-4c9e-8a7f-0d1e2f3a4b5c";

const blockBody = blockInput.extend({ userId: blockInput.shape.userId.meta({ description: "The member's _id" }) });

const reportBody = reportInput.meta({
  description: `targetType: ${REPORT_TARGET_TYPES.join(" / ")}. reason: ${REPORT_REASONS.map((r) => `${r.value} (${r.label})`).join(", ")}; detail (≤ 1000 characters) is required with other.`,
});

export const safetyRoutes = [
  route({
    method: "POST",
    path: "/api/users/block",
    summary: "Member: block a member (blocking again changes nothing)",
    description:
      "From then on neither member sees the other in search, favourites, footprints or board lists, and messages between them are refused both ways (403). The blocker's favourite of that member is removed. Oneself and administrators are refused (400); an unknown or deleted member answers 404.",
    access: "member",
    input: blockBody,
    response: successMessage,
    example: { success: true, message: MSG.blockDone },
    errors: { 400: [MSG.blockSelf, MSG.blockAdmin], 404: MSG.notFound },
    handler: async (caller, input) => {
      await caller.safety.block(input);
      return { success: true as const, message: MSG.blockDone };
    },
  }),
  route({
    method: "POST",
    path: "/api/users/unblock",
    summary: "Member: lift a block (lifting one that is not there changes nothing)",
    access: "member",
    input: blockBody,
    response: successMessage,
    example: { success: true, message: MSG.unblockDone },
    errors: { 400: [MSG.blockSelf, MSG.blockAdmin] },
    handler: async (caller, input) => {
      await caller.safety.unblock(input);
      return { success: true as const, message: MSG.unblockDone };
    },
  }),
  route({
    method: "GET",
    path: "/api/users/blocked",
    summary: "Member: the members I blocked, most recent block first; public profiles only",
    access: "member",
    response: z.array(legacyPublicProfile.extend({ blockedAt: z.iso.datetime() })),
    example: [
      {
        _id: EXAMPLE_ID,
        name: "山田花子",
        photoLink: null,
        gender: "female",
        age: 30,
        address: "東京都",
        occupation: null,
        annual_income: null,
        createdAt: "2025-08-20T01:23:45.000Z",
        verified: true,
        blockedAt: "2025-09-01T10:00:00.000Z",
      },
    ],
    handler: async (caller) =>
      (await caller.safety.blocked()).map((p) => ({
        ...toLegacyPublicProfile(p),
        blockedAt: new Date(p.blockedAt).toISOString(),
      })),
  }),
  route({
    method: "POST",
    path: "/api/reports",
    summary: "Member: report a member, a message I received or a board post to the administrators",
    description:
      "Only what the member can see: a live member, a message they received, a live board post (anything else 404). Oneself and the operator's own content are refused (400). One open report per reporter and target (409 while it waits). At most 10 reports per member per hour and 30 per day, refused ones included (429 beyond). The reporter is told the outcome by mail in general terms.",
    access: "member",
    input: reportBody,
    status: 201,
    response: successMessage.extend({ _id: z.string() }),
    example: { success: true, message: MSG.reportDone, _id: EXAMPLE_ID },
    errors: {
      400: [
        MSG.reportTargetInvalid,
        MSG.reportReasonInvalid,
        MSG.reportDetailRequired,
        MSG.reportDetailTooLong,
        MSG.reportSelf,
        MSG.reportAdmin,
      ],
      404: MSG.notFound,
      409: MSG.reportDuplicate,
      429: MSG.reportTooMany,
    },
    handler: async (caller, input) => {
      const result = await caller.safety.report(input);
      return { success: true as const, message: result.message, _id: result.id };
    },
  }),
];
