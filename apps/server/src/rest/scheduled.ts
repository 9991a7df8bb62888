import type { RouterOutputs } from "@enmusubi/api";
import {
  instantText,
  MESSAGE_BODY_MAX,
  MSG,
  SCHEDULED_SOURCES,
  SCHEDULED_STATUSES,
  SCHEDULED_TYPES,
  scheduledCreateInput,
  scheduledIdInput,
  scheduledListInput,
  YEAR_MAX,
  YEAR_MIN,
} from "@enmusubi/shared";
import { z } from "zod";
import { route } from "./adapter";
import { SCREENING_REFUSALS } from "./examples";
import { INSUFFICIENT_POINTS_EXAMPLE } from "./openapi";

/**
 * Scheduled messages over `scheduled.*` (spec §3 Scheduled message; the browser queue
 * `scheduled_messages_v1` became these rows). An entry has the spec's fields: `recipients` is the
 * list of user ids, times are ISO strings, `senderUserId` is the member an administrator sends as.
 * Each caller sees and cancels only their own entries; points are charged when an entry is sent.
 */

type View = RouterOutputs["scheduled"]["list"][number];

export const legacyScheduled = z.object({
  id: z.string(),
  type: z.enum(SCHEDULED_TYPES),
  recipients: z.array(z.string()),
  content: z.string(),
  scheduledAt: z.iso.datetime(),
  createdAt: z.iso.datetime(),
  source: z.enum(SCHEDULED_SOURCES),
  senderUserId: z.string().nullable(),
  status: z.enum(SCHEDULED_STATUSES),
  lastError: z.string().nullable(),
});

export function toLegacyScheduled(view: View): z.input<typeof legacyScheduled> {
  return {
    id: view.id,
    type: view.type,
    recipients: view.recipients.map((r) => r.id),
    content: view.content,
    scheduledAt: new Date(view.scheduledAt).toISOString(),
    createdAt: new Date(view.createdAt).toISOString(),
    source: view.source,
    senderUserId: view.senderUser?.id ?? null,
    status: view.status,
    lastError: view.lastError,
  };
}

const fields = scheduledCreateInput.shape;

/** The spec's field names: `recipients` (also accepted as `recipientIds`), `scheduledAt` as an ISO datetime. */
const createBody = z.preprocess(
  (raw) =>
    raw && typeof raw === "object" && !("recipients" in raw) && "recipientIds" in raw
      ? { ...raw, recipients: (raw as { recipientIds: unknown }).recipientIds }
      : raw,
  z.object({
    type: fields.type,
    recipients: fields.recipientIds,
    content: fields.content.meta({
      description: "Plain text, trimmed; 1 to 2,000 characters",
      minLength: 1,
      maxLength: MESSAGE_BODY_MAX,
    }),
    scheduledAt: instantText(MSG.scheduledAtInvalid).meta({
      description: `ISO 8601 date and time (with Z or an offset; without one, Japan time), years ${YEAR_MIN}–${YEAR_MAX}`,
    }),
    source: fields.source,
    relatedMessageId: fields.relatedMessageId,
    markAsReplied: fields.markAsReplied,
    markAsRead: fields.markAsRead,
    senderUserId: fields.senderUserId.meta({ description: "Administrators only: send as this member" }),
    /** The legacy shape's flag: accepted and ignored (the charge always happens at send time). */
    needsPointDeduction: z.boolean().optional().meta({ description: "Ignored: points are charged when sent" }),
  }),
);

const EXAMPLE: z.input<typeof legacyScheduled> = {
  id: "7c1e2d3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f",
  type: "direct",
  recipients: ["9d8c7b6a-5f4e-4d3c-8b2a-19f8e7d6c5b4"],
  content: "明日の夜、お時間ありますか？",
  scheduledAt: "2025-08-21T11:00:00.000Z",
  createdAt: "2025-08-20T01:23:45.000Z",
  source: "user:favorite",
  senderUserId: null,
  status: "pending",
  lastError: null,
};

export const scheduledRoutes = [
  route({
    method: "GET",
    path: "/api/scheduled-messages",
    summary: "Own scheduled messages still to send or failed (with lastError), soonest first; optional source filter",
    access: "signedIn",
    input: scheduledListInput.unwrap(),
    response: z.array(legacyScheduled),
    example: [EXAMPLE],
    handler: async (caller, input) => (await caller.scheduled.list(input)).map(toLegacyScheduled),
  }),
  route({
    method: "POST",
    path: "/api/scheduled-messages",
    summary: "Schedule a message; a scheduledAt not in the future sends it at once (status sent)",
    description:
      "A member schedules their own messages (senderUserId is refused with 403); an administrator may send as a member with senderUserId. What the owner could not send now is refused now (unknown recipient, oneself, an administrator as an administrator's recipient, a reply to a message that is not theirs, a member recipient whose age verification is not approved: 409). An entry whose member recipient cannot read messages when it is due (no longer verified) becomes failed with that message in lastError and charges nothing. A member is charged send_message per member recipient when the entry is sent; if the points are short then, the entry becomes failed with the message in lastError and nothing is charged. Sent at once, a shortage answers 402. A member's text is screened now and again when it is sent (decision 0042): refused now with 400, or, when sent, masked, held for review, or failed with the refusal in lastError. A member may have at most 30 entries waiting (409 beyond), and what their waiting entries would cost at today's price, this one included, may not exceed their points (402 with the figures).",
    access: "signedIn",
    input: createBody,
    response: legacyScheduled,
    status: 201,
    example: EXAMPLE,
    errors: {
      400: [
        MSG.scheduledRecipientsRequired,
        MSG.scheduledContentRequired,
        MSG.scheduledAtInvalid,
        MSG.messageTooLong,
        MSG.tooManyRecipients,
        MSG.recipientUnavailable,
        MSG.cannotMessageSelf,
        MSG.adminRecipientRefused,
        MSG.senderMustBeMember,
        MSG.replyTargetInvalid,
        ...SCREENING_REFUSALS,
      ],
      402: INSUFFICIENT_POINTS_EXAMPLE,
      403: MSG.forbidden,
      // A member's recipient that is unknown, deleted or suspended (decision 0015).
      404: MSG.recipientUnavailable,
      // 30 entries waiting; or a member recipient who cannot read members' messages (decision 0025).
      409: [MSG.scheduledPendingLimit, MSG.recipientCannotRead],
    },
    handler: async (caller, input) => {
      const { recipients, scheduledAt, needsPointDeduction: _ignored, ...rest } = input;
      return toLegacyScheduled(await caller.scheduled.create({ ...rest, recipientIds: recipients, scheduledAt }));
    },
  }),
  route({
    method: "DELETE",
    path: "/api/scheduled-messages/:id",
    summary: "Cancel an own scheduled message that is pending or failed (another's, or one already sent: 404)",
    access: "signedIn",
    input: scheduledIdInput,
    response: z.object({ success: z.literal(true), message: z.string() }),
    example: { success: true, message: MSG.scheduledCancelled },
    errors: { 404: MSG.notFound },
    handler: async (caller, input) => {
      await caller.scheduled.cancel(input);
      return { success: true as const, message: MSG.scheduledCancelled };
    },
  }),
  route({
    method: "GET",
    path: "/api/admin/scheduled-messages",
    summary: "Admin: every administrator's pending scheduled messages, soonest first",
    access: "admin",
    response: z.array(legacyScheduled),
    example: [{ ...EXAMPLE, source: "admin:user-mgmt" }],
    handler: async (caller) => (await caller.scheduled.adminPending()).map(toLegacyScheduled),
  }),
];
