import { z } from "zod";
import { ADMIN_MESSAGE_PAGE_SIZE_DEFAULT, MESSAGE_HISTORY_COUNT } from "../constants/index";
import { MSG } from "../messages";
import { uuid } from "./ids";
import { blankToUndefined, text } from "./text";
import { dayOrInstant, endNotBeforeStart, pageNumber, pageSize, pageWithinOffset } from "./values";

/** Messaging inputs (spec §5 messaging, §7 /api/messages and /api/admin/messages). */

export const MESSAGE_BODY_MAX = 2000;
export const MESSAGE_RECIPIENTS_MAX = 100;
/** "all" on the admin screens shows one page of at most this many rows. */
export const ADMIN_MESSAGE_PAGE_SIZE_ALL = 10_000;

/** Trimmed, non-empty, at most 2,000 characters; plain text (shown as text everywhere, never HTML). */
export const messageBody = text({ required: MSG.messageRequired, max: MESSAGE_BODY_MAX, tooLong: MSG.messageTooLong });

const id = uuid(MSG.notFound);
const recipientIds = z
  .array(uuid(MSG.recipientUnavailable), { error: MSG.recipientsRequired })
  .min(1, MSG.recipientsRequired)
  .max(MESSAGE_RECIPIENTS_MAX, MSG.tooManyRecipients)
  .transform((ids) => [...new Set(ids)]);

export const messageIdInput = z.object({ id });

/** A member writes to one or several members (a reply names the message it answers). */
export const memberSendInput = z.object({
  recipientIds,
  body: messageBody,
  /** The message this answers: it is marked replied (and read with `markRead`). */
  replyToId: id.optional(),
  markRead: z.boolean().default(false),
});
export type MemberSendInput = z.output<typeof memberSendInput>;

const page = pageNumber().default(1);
/** A member's mail screens (未読, 受信, 送信) show this many messages a page (the spec gives no size). */
export const MEMBER_MESSAGE_PAGE_SIZE = 20;
/** The most messages a page of the mail screens' lists may hold (`limit`). */
export const MEMBER_MESSAGE_PAGE_SIZE_MAX = 100;
/** The longest name the mail screens' sender / recipient search accepts (a member's name is at most 50). */
export const PARTNER_SEARCH_MAX = 50;

export const MEMBER_MESSAGE_BOXES = ["inbox", "unread", "read", "sent"] as const;
export type MemberMessageBox = (typeof MEMBER_MESSAGE_BOXES)[number];

/** The sender's / recipient's name, or part of it (case-insensitive); blank: everyone. */
export const partnerSearch = text({ max: PARTNER_SEARCH_MAX, tooLong: MSG.partnerSearchTooLong });

export const memberMessageListInput = z
  .object({
    /** inbox: received; unread: received and not read; read: received and read (受信); sent: written by me. */
    box: z.enum(MEMBER_MESSAGE_BOXES, { error: MSG.badRequest }),
    page,
    limit: pageSize({ max: MEMBER_MESSAGE_PAGE_SIZE_MAX }).default(MEMBER_MESSAGE_PAGE_SIZE),
    /** Only messages exchanged with this member (the sender / recipient filter). */
    counterpartId: id.optional(),
    /** Only messages whose other side's name contains this (the screens' sender / recipient search). */
    partner: partnerSearch.default(""),
    /**
     * With box "unread": also the operator's messages, read or not (the 未読 screen, spec §2:
     * "messages from admins plus the fetched unread list").
     */
    withOperator: z.boolean({ error: MSG.badRequest }).default(false),
  })
  .refine(...pageWithinOffset(MEMBER_MESSAGE_PAGE_SIZE));
export type MemberMessageListInput = z.input<typeof memberMessageListInput>;

export const ADMIN_MESSAGE_STATUSES = ["all", "read", "unread", "replied"] as const;

export const adminMessageListInput = z
  .object({
    /** all: every message; sent: written by administrators; inbox: addressed to administrators. */
    box: z.enum(["all", "sent", "inbox"]).default("all"),
    page,
    limit: pageSize({ max: ADMIN_MESSAGE_PAGE_SIZE_ALL }).default(ADMIN_MESSAGE_PAGE_SIZE_DEFAULT),
    /** Words in the body, or a sender's / recipient's name or userID. */
    search: text({ max: 200 }).default(""),
    status: z.enum(ADMIN_MESSAGE_STATUSES, { error: MSG.badRequest }).default("all"),
    /** From this Japanese day (YYYY-MM-DD) or instant (ISO datetime). */
    dateFrom: dayOrInstant().optional(),
    /** Up to this instant; a day includes its whole Japanese day. */
    dateTo: dayOrInstant().optional(),
    /** Only messages from or to this account (the sent / inbox screens' filters). */
    counterpartId: id.optional(),
    /**
     * Only messages whose other side's name or userID contains this: the recipient's on the sent
     * box, the sender's on the inbox, either on all (the sent / inbox screens' filters).
     */
    partner: partnerSearch.default(""),
  })
  .refine(...endNotBeforeStart("dateFrom", "dateTo"))
  .refine(...pageWithinOffset(ADMIN_MESSAGE_PAGE_SIZE_DEFAULT));
export type AdminMessageListInput = z.input<typeof adminMessageListInput>;

/** An administrator writes to members (direct or batch). */
/** `replyToId`: answering a member's message in the admin inbox (marked read and replied, spec §4). */
export const adminSendInput = z.object({ recipientIds, body: messageBody, replyToId: id.optional() });

/** An administrator writes as a member (spec §7 send-as-user). */
export const sendAsUserInput = z.object({
  fromUserId: id,
  toUserId: id,
  body: messageBody,
  replyToId: id.optional(),
});
export type SendAsUserInput = z.output<typeof sendAsUserInput>;

export const adminMessageUpdateInput = z.object({ id, body: messageBody });

/** The last messages between two accounts (send-as-user shows 5). */
export const conversationInput = z.object({
  userA: id,
  userB: id,
  limit: pageSize({ max: 50 }).default(MESSAGE_HISTORY_COUNT),
});

/** A member's conversations (やりとり, decision 0030): one line per partner, newest activity first. */
export const CONVERSATION_PAGE_SIZE = 20;
export const conversationListInput = z
  .object({
    page,
    limit: pageSize({ max: 100 }).default(CONVERSATION_PAGE_SIZE),
    /** Part of the partner's name (blank: everyone). */
    q: z.preprocess(blankToUndefined, partnerSearch.optional()),
  })
  .refine(...pageWithinOffset(CONVERSATION_PAGE_SIZE));
export type ConversationListInput = z.input<typeof conversationListInput>;

/** Messages of one conversation a page holds (the newest first, then older pages by `before`). */
export const THREAD_PAGE_SIZE = 30;
export const threadInput = z.object({
  partnerId: id,
  /**
   * The oldest message already shown (the previous page's `nextCursor`): the page holds older ones.
   * Named `cursor` as tRPC's infinite queries pass it (REST: `before`).
   */
  cursor: uuid(MSG.threadCursorInvalid).nullish(),
  limit: pageSize({ max: 100 }).default(THREAD_PAGE_SIZE),
});
export type ThreadInput = z.input<typeof threadInput>;
