import {
  ADMIN_MESSAGE_PAGE_SIZE_ALL,
  ADMIN_MESSAGE_PAGE_SIZE_DEFAULT,
  ADMIN_MESSAGE_STATUSES,
  adminMessageListInput,
  endNotBeforeStart,
  MEMBER_MESSAGE_PAGE_SIZE,
  MESSAGE_RECIPIENTS_MAX,
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
import { queryBoolean, queryNumber } from "./coerce";

/*
 * The query and body schemas of the legacy message rows (routes in messages.ts). The paging of
 * the lists is the procedures' own: page and limit are the fields of `memberMessageListInput` and
 * `adminMessageListInput` (packages/shared), defaults and bounds included, so the OpenAPI document
 * states what `messages.list` and `adminMessages.list` apply. Digit strings from the query
 * (`?page=2`) become numbers in coerce.ts; anything else is refused with the schema's message.
 */

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

export const sendByBody = z
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
export type SendInput = z.output<typeof sendByBody>;

/**
 * The path parameter is named `id` like every other row's (the recipient's _id): the shared
 * access tests fill only `id` with a value, and Fastify also routes an empty parameter here.
 */
export const sendByPath = z
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
  page: queryNumber(memberMessageListInput.shape.page),
  limit: queryNumber(memberMessageListInput.shape.limit),
  counterpartId: uuid(MSG.badRequest).optional().meta({ description: "Only messages exchanged with this account" }),
  partner: partnerQuery.meta({
    description: `Only messages whose other side's name (the sender's; on /sent the recipient's) contains this, case-insensitive; at most ${PARTNER_SEARCH_MAX} characters. Blank: everyone.`,
  }),
};
export const memberListQuery = z.object(memberListFields).refine(...pageWithinOffset(MEMBER_MESSAGE_PAGE_SIZE));
export const unreadListQuery = z
  .object({
    ...memberListFields,
    withOperator: queryBoolean(z.boolean({ error: MSG.badRequest }).optional()).meta({
      description:
        "true: also the operator's (administrators') messages, read or not, as the member's 未読 screen lists them (spec §2). Default false.",
    }),
  })
  .refine(...pageWithinOffset(MEMBER_MESSAGE_PAGE_SIZE));

/** `limit=all`: one page of every match, up to ADMIN_MESSAGE_PAGE_SIZE_ALL rows (the legacy screens' choice). */
export const adminListQuery = z
  .object({
    page: queryNumber(adminMessageListInput.shape.page),
    limit: queryNumber(
      z
        .union([z.literal("all"), adminMessageListInput.shape.limit.unwrap()], { error: MSG.badRequest })
        .default(ADMIN_MESSAGE_PAGE_SIZE_DEFAULT),
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
  .refine((v) => v.limit === "all" || withinOffset(v.page, v.limit), {
    message: MSG.pageTooLarge,
    path: ["page"],
  })
  .transform(({ page, limit, ...filters }) =>
    limit === "all" ? { ...filters, page: 1, limit: ADMIN_MESSAGE_PAGE_SIZE_ALL } : { ...filters, page, limit },
  );

export const messageId = z.object({ id: uuid(MSG.notFound) });

export const sendAsUserBody = z
  .object({
    fromUserId: uuid(MSG.notFound),
    toUserId: uuid(MSG.recipientUnavailable),
    content,
    replyToId: uuid(MSG.replyTargetInvalid)
      .optional()
      .meta({ description: "The message answered; default: the recipient administrator's latest unanswered one" }),
  })
  .transform((b) => ({ fromUserId: b.fromUserId, toUserId: b.toUserId, body: b.content, replyToId: b.replyToId }));

export const updateBody = z.object({
  id: uuid(MSG.notFound),
  body: messageBody.meta({ description: "The corrected text, trimmed, 1–2000 characters" }),
});
