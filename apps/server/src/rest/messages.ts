import type { RouterOutputs } from "@enmusubi/api";
import {
  ADMIN_MESSAGE_PAGE_SIZE_ALL,
  ADMIN_MESSAGE_PAGE_SIZE_DEFAULT,
  ADMIN_MESSAGE_STATUSES,
  adminMessageListInput,
  endNotBeforeStart,
  MEMBER_MESSAGE_PAGE_SIZE,
  MESSAGE_PREVIEW_CHARS,
  MESSAGE_RECIPIENTS_MAX,
  type MemberMessageBox,
  MSG,
  memberMessageListInput,
  messageBody,
  PARTNER_SEARCH_MAX,
  pageWithinOffset,
  partnerSearch,
  uuid,
  withinOffset,
} from "@enmusubi/shared";
import { z } from "zod";
import { type Caller, route } from "./adapter";
import { queryBoolean, queryNumber } from "./coerce";
import { SCREENING_REFUSALS } from "./examples";
import { isoOf } from "./legacy-shapes";
import { INSUFFICIENT_POINTS_EXAMPLE } from "./openapi";
import { asMemberOrOperator } from "./operator";

/**
 * Legacy message rows of spec §7 (/api/messages/*, /api/admin/messages*) over the `messages.*`
 * and `adminMessages.*` procedures. A message is `{ _id, body, created_at, is_read, has_reply,
 * from_userID, to_userID }` (spec §3). Members see the other side as `{ _id, name, photoLink,
 * role }` only — never an address or a login ID (decision 0002); administrators also get
 * `userID`, `email` and `sent_by_admin` (who really wrote a message sent as a member).
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

const memberPage = z.object({ messages: z.array(legacyMessage), pagination });
const adminPage = z.object({
  messages: z.array(legacyAdminMessage),
  pagination: pagination.extend({
    totalCapped: z.boolean().meta({
      description:
        "The count stopped at its cap (10,000, or the page after the one asked for): total is a lower bound, totalPages offers one more page. Added field; older clients may ignore it.",
    }),
  }),
});

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
  // One literal (no spread of `base`): a mailbox page draws 20 of these per call (issue 27).
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

function toPagination(p: { total: number; page: number; limit: number; totalPages: number }) {
  return { total: p.total, totalPages: p.totalPages, pages: p.totalPages, currentPage: p.page, limit: p.limit };
}

// ---- inputs ---------------------------------------------------------------------------------

/** Digit strings from the query (`?page=2`, coerce.ts); anything else is refused with the generic message. */

const recipientIdsField = z
  .array(uuid(MSG.recipientUnavailable), { error: MSG.recipientsRequired })
  .min(1, MSG.recipientsRequired)
  .max(MESSAGE_RECIPIENTS_MAX, MSG.tooManyRecipients);

/** Fields every member send accepts beyond the recipient and `content`. */
const replyFields = {
  replyToId: uuid(MSG.replyTargetInvalid)
    .optional()
    .meta({ description: "The received message this answers: it is marked replied (has_reply)." }),
  markRead: z
    .boolean({ error: MSG.badRequest })
    .optional()
    .meta({ description: "With replyToId: also mark the answered message read (the unread screen's reply)." }),
};

const content = messageBody.meta({ description: "The message, plain text; trimmed, 1–2000 characters." });

const sendByBody = z
  .object({
    content,
    userId: uuid(MSG.recipientUnavailable).optional().meta({ description: "The one recipient (legacy form)" }),
    recipientIds: recipientIdsField
      .optional()
      .meta({ description: "Several recipients at once: charged cost × member recipients, all or nothing." }),
    ...replyFields,
  })
  .refine((b) => b.userId !== undefined || b.recipientIds !== undefined, {
    message: MSG.recipientsRequired,
    path: ["userId"],
  })
  .transform((b) => ({
    recipientIds: [...new Set([...(b.userId ? [b.userId] : []), ...(b.recipientIds ?? [])])],
    body: b.content,
    replyToId: b.replyToId,
    markRead: b.markRead ?? false,
  }));

/**
 * The path parameter is named `id` like every other row's (the recipient's _id): the shared
 * access tests fill only `id` with a value, and Fastify also routes an empty parameter here.
 */
const sendByPath = z
  .object({
    id: uuid(MSG.recipientUnavailable).meta({ description: "The recipient's _id" }),
    content,
    ...replyFields,
  })
  .transform((b) => ({
    recipientIds: [b.id],
    body: b.content,
    replyToId: b.replyToId,
    markRead: b.markRead ?? false,
  }));

const partnerQuery = partnerSearch.optional();

const memberListFields = {
  page: queryNumber(memberMessageListInput.shape.page.unwrap().optional()),
  limit: queryNumber(memberMessageListInput.shape.limit.unwrap().optional()),
  counterpartId: uuid(MSG.badRequest).optional().meta({ description: "Only messages exchanged with this account" }),
  partner: partnerQuery.meta({
    description: `Only messages whose other side's name (the sender's; on /sent the recipient's) contains this, case-insensitive; at most ${PARTNER_SEARCH_MAX} characters. Blank: everyone.`,
  }),
};
const memberListQuery = z.object(memberListFields).refine(...pageWithinOffset(MEMBER_MESSAGE_PAGE_SIZE));
const unreadListQuery = z
  .object({
    ...memberListFields,
    withOperator: queryBoolean(z.boolean({ error: MSG.badRequest }).optional()).meta({
      description:
        "true: also the operator's (administrators') messages, read or not, as the member's 未読 screen lists them (spec §2). Default false.",
    }),
  })
  .refine(...pageWithinOffset(MEMBER_MESSAGE_PAGE_SIZE));

const adminListQuery = z
  .object({
    page: queryNumber(adminMessageListInput.shape.page.unwrap().optional()),
    limit: queryNumber(
      z.union([z.literal("all"), adminMessageListInput.shape.limit.unwrap()], { error: MSG.badRequest }).optional(),
    ).meta({
      description: `Rows per page (25/50/100/200, at most ${ADMIN_MESSAGE_PAGE_SIZE_ALL}; default ${ADMIN_MESSAGE_PAGE_SIZE_DEFAULT}), or "all": one page of every match (up to ${ADMIN_MESSAGE_PAGE_SIZE_ALL}).`,
    }),
    search: adminMessageListInput.shape.search
      .optional()
      .meta({ description: "Words in the body, or a sender's / recipient's name or userID (case-insensitive)" }),
    status: z
      .enum(ADMIN_MESSAGE_STATUSES, { error: MSG.badRequest })
      .optional()
      .meta({ description: "read: read or replied; unread: neither; replied: has_reply" }),
    dateFrom: adminMessageListInput.shape.dateFrom.meta({
      description: "From this Japanese day (YYYY-MM-DD) or instant (ISO datetime; without an offset, Japan time)",
    }),
    dateTo: adminMessageListInput.shape.dateTo.meta({
      description: "Up to this instant; a day (YYYY-MM-DD) includes the whole Japanese day",
    }),
    box: z
      .enum(["all", "sent", "inbox"], { error: MSG.badRequest })
      .optional()
      .meta({ description: "all (default); sent: written by administrators; inbox: addressed to administrators" }),
    counterpartId: uuid(MSG.badRequest).optional().meta({ description: "Only messages from or to this account" }),
    partner: partnerQuery.meta({
      description: `Only messages whose other side's name or userID contains this (box sent: the recipient; inbox: the sender; all: either), case-insensitive; at most ${PARTNER_SEARCH_MAX} characters. A keyword shorter than 3 characters, or one matching over 1,000 accounts, is looked for in the newest 10,000 messages only (as search).`,
    }),
  })
  .refine(...endNotBeforeStart("dateFrom", "dateTo"))
  .refine((v) => v.limit === "all" || withinOffset(v.page ?? 1, v.limit ?? ADMIN_MESSAGE_PAGE_SIZE_DEFAULT), {
    message: MSG.pageTooLarge,
    path: ["page"],
  });

const messageId = z.object({ id: uuid(MSG.notFound) });

const sendAsUserBody = z
  .object({
    fromUserId: uuid(MSG.notFound),
    toUserId: uuid(MSG.recipientUnavailable),
    content,
    replyToId: uuid(MSG.replyTargetInvalid)
      .optional()
      .meta({ description: "The message answered; default: the recipient administrator's latest unanswered one" }),
  })
  .transform((b) => ({ fromUserId: b.fromUserId, toUserId: b.toUserId, body: b.content, replyToId: b.replyToId }));

const updateBody = z.object({
  id: uuid(MSG.notFound),
  body: messageBody.meta({ description: "The corrected text, trimmed, 1–2000 characters" }),
});

// ---- answers --------------------------------------------------------------------------------

const sent = z.object({
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
const done = z.object({ success: z.literal(true), message: z.string() });
const marked = z.object({ success: z.literal(true), message: z.string().optional() });
const sentAsUser = z.object({ success: z.literal(true), message: z.string(), messageId: z.string() });

const SEND_ERRORS = {
  400: [
    MSG.recipientsRequired,
    MSG.messageRequired,
    MSG.messageTooLong,
    MSG.textInvalid,
    MSG.tooManyRecipients,
    MSG.recipientUnavailable,
    MSG.cannotMessageSelf,
    MSG.replyTargetInvalid,
    ...SCREENING_REFUSALS,
  ],
  402: INSUFFICIENT_POINTS_EXAMPLE,
  403: [MSG.verificationRequired, MSG.blockedEitherWay],
  // A recipient that is unknown, deleted or suspended (issue 21), before anything is charged.
  404: MSG.recipientUnavailable,
  // A member recipient whose age verification is not approved cannot read it (decision 0025), before any charge.
  409: MSG.recipientCannotRead,
} as const;

// ---- examples -------------------------------------------------------------------------------

const EXAMPLE_MEMBER_A = {
  _id: "3f6c6a4e-1b2d-4c9e-8a7f-0d1e2f3a4b5c",
  name: "山田花子",
  photoLink: "/uploads/photos/0123456789abcdef0123456789abcdef.jpg",
  role: "user" as const,
};
const EXAMPLE_MEMBER_B = {
  _id: "9d8c7b6a-5f4e-4d3c-8b2a-19f8e7d6c5b4",
  name: "佐藤太郎",
  photoLink: null,
  role: "user" as const,
};
const EXAMPLE_MESSAGE = {
  _id: "5b0e2c1a-7d3f-4e8b-9a6c-2f1d0e9c8b7a",
  body: "はじめまして。プロフィールを拝見しました。",
  created_at: "2025-08-21T09:30:00.000Z",
  is_read: false,
  has_reply: false,
  from_userID: EXAMPLE_MEMBER_B,
  to_userID: EXAMPLE_MEMBER_A,
  locked: false,
  sealed: false,
  preview: null,
};
const EXAMPLE_SEALED = {
  ...EXAMPLE_MESSAGE,
  body: "はじめまして。プロフィールを拝見しました…",
  sealed: true,
  preview: "はじめまして。プロフィールを拝見しました…",
};
const EXAMPLE_PAGINATION = { total: 1, totalPages: 1, pages: 1, currentPage: 1, limit: 20 };
const { locked: _memberOnly, sealed: _sealed, preview: _preview, ...EXAMPLE_BASE } = EXAMPLE_MESSAGE;
const EXAMPLE_ADMIN_MESSAGE = {
  ...EXAMPLE_BASE,
  from_userID: { ...EXAMPLE_MEMBER_B, userID: "p7w2k9zd", email: "taro@example.jp" },
  to_userID: { ...EXAMPLE_MEMBER_A, userID: "k3x9m2pq", email: "hanako@example.jp" },
  sent_by_admin: { _id: "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d", name: "運営" },
};
const EXAMPLE_SENT = {
  success: true as const,
  message: MSG.messageSent,
  messageIds: [EXAMPLE_MESSAGE._id],
  status: "sent" as const,
  sent: 1,
  cost: 48,
  remainingPoints: 52,
};

// ---- routes ---------------------------------------------------------------------------------

type SendInput = z.output<typeof sendByBody>;

/**
 * A member's paid send, or with an administrator's token the operator's free one (spec §7 notes: a
 * scheduled entry without a sender goes through this call): `adminMessages.send`, audited, written
 * from the administrator; cost 0 and the administrator's own balance, unchanged.
 */
async function send(caller: Caller, input: SendInput) {
  const result = await asMemberOrOperator(
    () => caller.messages.send(input),
    async () => {
      const sent = await caller.adminMessages.send({
        recipientIds: input.recipientIds,
        body: input.body,
        ...(input.replyToId ? { replyToId: input.replyToId } : {}),
      });
      const { points } = await caller.profile.me();
      return { ...sent, status: "sent" as const, cost: 0, remainingPoints: points };
    },
  );
  const message = result.status === "held" ? MSG.messageHeldForReview : MSG.messageSent;
  return { success: true as const, message, ...result };
}

const SEND_DESCRIPTION =
  "Each member recipient costs the current send_message cost (one ledger entry of cost × recipients: all or nothing, 402 with required/available when short, available being the points still valid); writing to an administrator is free. A recipient that is unknown, deleted or suspended answers 404 and nothing is charged. A member recipient whose age verification is not approved (who cannot read members' messages) answers 409 and nothing is charged or written; a send to several is refused whole. A prepaid deduction (POST /api/users/deduct-points) is used first. With replyToId the answered message is marked replied (and read with markRead). Only an age-verified member may send (403 with the way to verify otherwise). With an administrator's token it is the operator's message (as the admin screens send it): free (cost 0, remainingPoints the administrator's own balance), from that administrator, audited, to members only (an administrator recipient is refused); a replyToId must then be a member's message to the administrators, from that recipient, and it is marked read and replied.";

const SEND_AS_ERRORS = {
  ...SEND_ERRORS,
  400: [...SEND_ERRORS[400], MSG.adminRecipientRefused],
} as const;

function memberList(box: MemberMessageBox, summary: string) {
  const unread = box === "unread";
  return route({
    method: "GET",
    path: `/api/messages/${box}`,
    summary,
    description: `Newest first, paged on the server (page, limit ≤ 100, default ${MEMBER_MESSAGE_PAGE_SIZE}); partner searches the other side's name. The other side is shown as { _id, name, photoLink, role }. A message from another member that the caller has not opened yet is listed with sealed: true and only its preview line as body (the first ${MESSAGE_PREVIEW_CHARS} characters); POST /api/messages/{id}/open answers the body (unread_mail_view). Marking it read does not open it. Until the caller is age-verified, a message from another member is listed with locked: true and a notice instead of its body (no preview); administrators' messages stay readable.`,
    access: "member",
    input: unread ? unreadListQuery : memberListQuery,
    response: memberPage,
    example: { messages: [EXAMPLE_SEALED, EXAMPLE_MESSAGE], pagination: { ...EXAMPLE_PAGINATION, total: 2 } },
    errors: { 400: [MSG.partnerSearchTooLong, MSG.textInvalid, MSG.pageTooLarge, MSG.badRequest] },
    handler: async (caller, input: z.output<typeof unreadListQuery>) => {
      const page = await caller.messages.list({
        box,
        ...(input.page !== undefined ? { page: input.page } : {}),
        ...(input.limit !== undefined ? { limit: input.limit } : {}),
        ...(input.counterpartId ? { counterpartId: input.counterpartId } : {}),
        ...(input.partner ? { partner: input.partner } : {}),
        ...(unread && input.withOperator ? { withOperator: true } : {}),
      });
      return { messages: page.messages.map(toLegacyMessage), pagination: toPagination(page) };
    },
  });
}

function mark(kind: "read" | "reply") {
  return route({
    method: "PUT",
    path: `/api/messages/:id/${kind}`,
    summary:
      kind === "read"
        ? "Member or administrator: mark a received message read"
        : "Member or administrator: mark a received message replied (has_reply)",
    description:
      kind === "read"
        ? "Only the recipient may (a member, or an administrator on a message addressed to them); any other message (sent by the caller, someone else's, another administrator's) answers 404. A member marking another member's message read needs age verification (403). Marking read lowers the unread count but does not open a sealed message: its body is answered by POST /api/messages/{id}/open only (decision 0027)."
        : "Only the recipient may (a member, or an administrator on a message addressed to them); any other message (sent by the caller, someone else's, another administrator's) answers 404.",
    access: "signedIn",
    input: messageId,
    response: marked,
    example: kind === "read" ? { success: true, message: MSG.markedRead } : { success: true },
    errors: kind === "read" ? { 403: MSG.verificationRequired, 404: MSG.notFound } : { 404: MSG.notFound },
    handler: async (caller, input) => {
      if (kind === "read") {
        await caller.messages.markRead(input);
        return { success: true as const, message: MSG.markedRead };
      }
      await caller.messages.markReplied(input);
      return { success: true as const };
    },
  });
}

export const messageRoutes = [
  route({
    method: "POST",
    path: "/api/messages/recipientId",
    summary: "Member or administrator: send a message to userId (or to every id of recipientIds)",
    description: `The legacy client calls this literal path with the recipient in the body. ${SEND_DESCRIPTION}`,
    access: "signedIn",
    input: sendByBody,
    response: sent,
    status: 201,
    example: EXAMPLE_SENT,
    errors: SEND_AS_ERRORS,
    handler: (caller, input) => send(caller, input),
  }),
  route({
    method: "POST",
    path: "/api/messages/:id",
    summary: "Member or administrator: send a message to the account named in the path",
    description: SEND_DESCRIPTION,
    access: "signedIn",
    input: sendByPath,
    response: sent,
    status: 201,
    example: EXAMPLE_SENT,
    errors: SEND_AS_ERRORS,
    handler: (caller, input) => send(caller, input),
  }),
  memberList("inbox", "Member: messages received"),
  memberList("unread", "Member: messages received and not read yet"),
  memberList("read", "Member: messages received and read (the 受信 screen)"),
  memberList("sent", "Member: messages sent"),
  route({
    method: "GET",
    path: "/api/messages/:id",
    summary: "Member: one message sent or received (a sealed one without its body, with the price to open it)",
    description: `Never charges or marks anything. Another member's message the caller has not opened yet answers sealed: true, only its preview line (the first ${MESSAGE_PREVIEW_CHARS} characters) as body, and open_cost: the points POST /api/messages/{id}/open would take now (0 when free). Anything not the caller's, or exchanged with a member blocked either way, answers 404; another member's message to a caller not age-verified answers 403.`,
    access: "member",
    input: messageId,
    response: legacyMessage.extend({ open_cost: z.number().int().min(0) }),
    example: { ...EXAMPLE_SEALED, open_cost: 20 },
    errors: { 403: MSG.verificationRequired, 404: MSG.notFound },
    handler: async (caller, input) => {
      const message = await caller.messages.get(input);
      return { ...toLegacyMessage(message), open_cost: message.openCost };
    },
  }),
  route({
    method: "POST",
    path: "/api/messages/:id/open",
    summary:
      "Member: open a message and read its body; costs unread_mail_view the first time another member's message is opened",
    description:
      "Charged once per message, also under concurrent calls; a prepaid unread_mail_view credit (POST /api/users/deduct-points) is used first. Free (charged: false): the operator's messages, one's own sent messages, a message opened before (or read before this charge existed), and any open while the price is 0. Opening a received message marks it read. Not enough points answers 402 and nothing is opened or charged. Anything not the caller's, or exchanged with a member blocked either way, answers 404 before any charge; another member's message to a caller not age-verified answers 403.",
    access: "member",
    input: messageId,
    response: z.object({ message: legacyMessage, charged: z.boolean(), remainingPoints: z.number().int().min(0) }),
    example: {
      message: { ...EXAMPLE_MESSAGE, is_read: true },
      charged: true,
      remainingPoints: 80,
    },
    errors: { 402: INSUFFICIENT_POINTS_EXAMPLE, 403: MSG.verificationRequired, 404: MSG.notFound },
    handler: async (caller, input) => {
      const result = await caller.messages.open(input);
      return { ...result, message: toLegacyMessage(result.message) };
    },
  }),
  mark("read"),
  mark("reply"),
  route({
    method: "GET",
    path: "/api/admin/messages",
    summary: "Admin: every message (email management), filtered and paged on the server",
    description:
      "Newest first. In status filters a message counts as read when it is read or replied. Deleted messages are left out.",
    access: "admin",
    input: adminListQuery,
    response: adminPage,
    example: {
      messages: [EXAMPLE_ADMIN_MESSAGE],
      pagination: { ...EXAMPLE_PAGINATION, limit: ADMIN_MESSAGE_PAGE_SIZE_DEFAULT, totalCapped: false },
    },
    handler: async (caller, input) => {
      const all = input.limit === "all";
      const page = await caller.adminMessages.list({
        box: input.box ?? "all",
        page: all ? 1 : (input.page ?? 1),
        limit: input.limit === "all" ? ADMIN_MESSAGE_PAGE_SIZE_ALL : (input.limit ?? ADMIN_MESSAGE_PAGE_SIZE_DEFAULT),
        search: input.search ?? "",
        status: input.status ?? "all",
        ...(input.dateFrom ? { dateFrom: input.dateFrom } : {}),
        ...(input.dateTo ? { dateTo: input.dateTo } : {}),
        ...(input.counterpartId ? { counterpartId: input.counterpartId } : {}),
        ...(input.partner ? { partner: input.partner } : {}),
      });
      return {
        messages: page.messages.map(toLegacyAdminMessage),
        pagination: { ...toPagination(page), totalCapped: page.totalCapped },
      };
    },
  }),
  route({
    method: "PUT",
    path: "/api/admin/messages/:id",
    summary: "Admin: correct a message's body (audited)",
    access: "admin",
    input: updateBody,
    response: done,
    example: { success: true, message: MSG.messageUpdated },
    errors: { 400: [MSG.messageRequired, MSG.messageTooLong, MSG.textInvalid], 404: MSG.notFound },
    handler: async (caller, input) => {
      await caller.adminMessages.update(input);
      return { success: true as const, message: MSG.messageUpdated };
    },
  }),
  route({
    method: "DELETE",
    path: "/api/admin/messages/:id",
    summary: "Admin: delete a message (it leaves every list; audited)",
    access: "admin",
    input: messageId,
    response: done,
    example: { success: true, message: MSG.messageDeleted },
    errors: { 404: MSG.notFound },
    handler: async (caller, input) => {
      await caller.adminMessages.delete(input);
      return { success: true as const, message: MSG.messageDeleted };
    },
  }),
  route({
    method: "POST",
    path: "/api/admin/messages/send-as-user",
    summary: "Admin: send as a member (never charged to the member; the acting administrator is recorded and audited)",
    description:
      "Written to an administrator, it answers that administrator's message (replyToId, else their latest unanswered one to the member), which is marked read and replied. Members see the message as the member's own.",
    access: "admin",
    input: sendAsUserBody,
    response: sentAsUser,
    status: 201,
    example: { success: true, message: MSG.messageSent, messageId: EXAMPLE_MESSAGE._id },
    errors: {
      400: [
        MSG.messageRequired,
        MSG.messageTooLong,
        MSG.textInvalid,
        MSG.recipientUnavailable,
        MSG.senderMustBeMember,
        MSG.cannotMessageSelf,
        MSG.replyTargetInvalid,
      ],
    },
    handler: async (caller, input) => {
      const result = await caller.adminMessages.sendAsUser(input);
      return { success: true as const, message: MSG.messageSent, messageId: result.messageId };
    },
  }),
];
