import type { RouterOutputs } from "@enmusubi/api";
import { MESSAGE_PREVIEW_CHARS } from "@enmusubi/shared";
import { z } from "zod";
import { isoOf } from "./legacy-shapes";

/*
 * The legacy message shapes of spec §3 and the mapping of the `messages.*` and `adminMessages.*`
 * procedures' answers into them. A message is `{ _id, body, created_at, is_read, has_reply,
 * from_userID, to_userID }`. Members see the other side as `{ _id, name, photoLink, role }` only —
 * never an address or a login ID (decision 0002); administrators also get `userID`, `email` and
 * `sent_by_admin` (who really wrote a message sent as a member). The query and body schemas are in
 * message-inputs.ts, the examples in message-examples.ts, the routes in messages.ts.
 */

type MemberMessage = RouterOutputs["messages"]["list"]["messages"][number];
type AdminMessage = RouterOutputs["adminMessages"]["list"]["messages"][number];
type MemberParty = MemberMessage["from"];
type AdminParty = AdminMessage["from"];

const role = z.enum(["user", "admin"]);
const legacyParty = z.object({
  _id: z.string(),
  name: z.string().nullable(),
  photoLink: z.string().nullable(),
  role,
});
const legacyAdminParty = legacyParty.extend({ userID: z.string(), email: z.string() });

const messageFields = {
  _id: z.string(),
  body: z.string(),
  created_at: z.iso.datetime(),
  is_read: z.boolean(),
  has_reply: z.boolean(),
};

export const legacyMessage = z.object({
  ...messageFields,
  from_userID: legacyParty,
  to_userID: legacyParty,
  /** A member's message to a member not yet age-verified: body replaced by a notice (decision 0006). */
  locked: z.boolean(),
  sealed: z.boolean().meta({
    description: `Another member's message not opened yet (decision 0027): body is only its preview line (the first ${MESSAGE_PREVIEW_CHARS} characters, one line, "…" after a cut); POST /api/messages/{id}/open answers the body. Added field; older clients may ignore it.`,
  }),
  preview: z
    .string()
    .nullable()
    .meta({ description: "While sealed: the preview line (also in body); null otherwise. Added field." }),
});
export const legacyAdminMessage = z.object({
  ...messageFields,
  from_userID: legacyAdminParty,
  to_userID: legacyAdminParty,
  /** The administrator who wrote it as the sender (send-as-user), else null. */
  sent_by_admin: z.object({ _id: z.string(), name: z.string().nullable() }).nullable(),
});

const pagination = z.object({
  total: z.number().int().min(0),
  totalPages: z.number().int().min(1),
  /** The same figure as totalPages (the admin screens read `pages`). */
  pages: z.number().int().min(1),
  currentPage: z.number().int().min(1),
  limit: z.number().int().min(1),
});

export const memberPage = z.object({ messages: z.array(legacyMessage), pagination });
export const adminPage = z.object({
  messages: z.array(legacyAdminMessage),
  pagination: pagination.extend({
    totalCapped: z.boolean().meta({
      description:
        "The count stopped at its cap (10,000, or the page after the one asked for): total is a lower bound, totalPages offers one more page. Added field; older clients may ignore it.",
    }),
  }),
});

/** One message answered with the points opening it would take now (GET /api/messages/{id}). */
export const messageWithOpenCost = legacyMessage.extend({ open_cost: z.number().int().min(0) });
/** POST /api/messages/{id}/open: the message with its body, whether this open was charged, the balance left. */
export const opened = z.object({
  message: legacyMessage,
  charged: z.boolean(),
  remainingPoints: z.number().int().min(0),
});

export const sent = z.object({
  success: z.literal(true),
  message: z.string(),
  messageIds: z.array(z.string()).meta({ description: "Empty when held" }),
  /** held: a screening rule keeps it for the operator's review (charged; refunded if rejected). */
  status: z.enum(["sent", "held"]).meta({
    description:
      "held: a screening rule keeps the message for the operator's review (decision 0042): charged now, delivered when released, refunded when rejected; the thread lists it under held",
  }),
  sent: z.number().int().min(0),
  /** Points charged (cost × member recipients; 0 to administrators). */
  cost: z.number().int().min(0),
  remainingPoints: z.number().int().min(0),
});
export const done = z.object({ success: z.literal(true), message: z.string() });
export const marked = z.object({ success: z.literal(true), message: z.string().optional() });
export const sentAsUser = z.object({ success: z.literal(true), message: z.string(), messageId: z.string() });

const party = (p: MemberParty): z.input<typeof legacyParty> => ({
  _id: p.id,
  name: p.name,
  photoLink: p.photoLink,
  role: p.role,
});
const adminParty = (p: AdminParty): z.input<typeof legacyAdminParty> => ({
  ...party(p),
  userID: p.userID,
  email: p.email,
});

const base = (m: MemberMessage | AdminMessage) => ({
  _id: m.id,
  body: m.body,
  created_at: isoOf(m.createdAt),
  is_read: m.isRead,
  has_reply: m.hasReply,
});

/**
 * A sealed message's body is its preview line: a legacy client shows the line, never the text
 * (decision 0027). A locked one (no preview) keeps the verification notice as its body.
 */
export function toLegacyMessage(m: MemberMessage): z.input<typeof legacyMessage> {
  // One literal (no spread of `base`): a mailbox page draws 20 of these per call (decision 0037).
  return {
    _id: m.id,
    body: m.sealed && m.preview !== null ? m.preview : m.body,
    created_at: isoOf(m.createdAt),
    is_read: m.isRead,
    has_reply: m.hasReply,
    from_userID: party(m.from),
    to_userID: party(m.to),
    locked: m.locked,
    sealed: m.sealed,
    preview: m.preview,
  };
}

export function toLegacyAdminMessage(m: AdminMessage): z.input<typeof legacyAdminMessage> {
  return {
    ...base(m),
    from_userID: adminParty(m.from),
    to_userID: adminParty(m.to),
    sent_by_admin: m.sentByAdmin ? { _id: m.sentByAdmin.id, name: m.sentByAdmin.name } : null,
  };
}

export function toPagination(p: { total: number; page: number; limit: number; totalPages: number }) {
  return { total: p.total, totalPages: p.totalPages, pages: p.totalPages, currentPage: p.page, limit: p.limit };
}
