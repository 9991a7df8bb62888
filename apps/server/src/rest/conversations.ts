import type { RouterOutputs } from "@enmusubi/api";
import {
  CONVERSATION_PAGE_SIZE,
  conversationListInput,
  MESSAGE_PREVIEW_CHARS,
  MSG,
  PARTNER_SEARCH_MAX,
  pageWithinOffset,
  THREAD_PAGE_SIZE,
  threadInput,
  uuid,
} from "@enmusubi/shared";
import { z } from "zod";
import { route } from "./adapter";
import { queryNumber } from "./coerce";
import { legacyMessage, toLegacyMessage } from "./message-shapes";
import { legacyScheduled, toLegacyScheduled } from "./scheduled";

/**
 * A member's conversations (やりとり, decision 0030) over `messages.conversations` and
 * `messages.thread`: one line per partner, and one conversation paged backwards. Messages are the
 * mailbox's legacy rows (a sealed one carries its preview line as body); the partner is the
 * public party shape plus whether they can read a member's message (`verified`).
 */

type Partner = RouterOutputs["messages"]["thread"]["partner"];

const legacyPartner = z.object({
  _id: z.string(),
  name: z.string().nullable(),
  photoLink: z.string().nullable(),
  role: z.enum(["user", "admin"]),
  verified: z.boolean().meta({
    description: "Age verification approved (always true for the operator): they can read a member's message",
  }),
});

const partner = (p: Omit<Partner, "reachable">): z.input<typeof legacyPartner> => ({
  _id: p.id,
  name: p.name,
  photoLink: p.photoLink,
  role: p.role,
  verified: p.verified,
});

const listQuery = z
  .object({
    page: queryNumber(conversationListInput.shape.page.unwrap().optional()),
    limit: queryNumber(
      conversationListInput.shape.limit
        .unwrap()
        .optional()
        .meta({ description: `Lines per page, 1–100 (default ${CONVERSATION_PAGE_SIZE})` }),
    ),
    q: conversationListInput.shape.q.meta({
      description: `Part of the partner's name (at most ${PARTNER_SEARCH_MAX} characters; blank: everyone)`,
    }),
  })
  .refine(...pageWithinOffset(CONVERSATION_PAGE_SIZE));

const threadQuery = z.object({
  userId: threadInput.shape.partnerId.meta({ description: "The partner's _id" }),
  before: uuid(MSG.threadCursorInvalid)
    .optional()
    .meta({ description: "next_cursor of the previous page: the page holds the messages before that one" }),
  limit: queryNumber(
    threadInput.shape.limit
      .unwrap()
      .optional()
      .meta({ description: `Messages per page, 1–100 (default ${THREAD_PAGE_SIZE})` }),
  ),
});

const listAnswer = z.object({
  conversations: z.array(
    z.object({
      partner: legacyPartner,
      last_message: legacyMessage.meta({ description: "The newest message between the two, either way" }),
      unread_count: z.number().int().min(0).meta({ description: "The partner's messages to the caller not read yet" }),
    }),
  ),
  pagination: z.object({
    total: z.number().int().min(0),
    totalPages: z.number().int().min(1),
    pages: z.number().int().min(1),
    currentPage: z.number().int().min(1),
    limit: z.number().int().min(1),
    totalCapped: z.boolean().meta({ description: "The count stopped at its cap: total is a lower bound" }),
  }),
});

const threadAnswer = z.object({
  partner: legacyPartner.extend({
    reachable: z.boolean().meta({ description: "A message can be sent to them now (not deleted or suspended)" }),
  }),
  messages: z.array(legacyMessage).meta({ description: "Oldest first within the page" }),
  has_older: z.boolean(),
  next_cursor: z.string().nullable().meta({ description: "Pass as `before` for the older page; null when none" }),
  scheduled: z.array(legacyScheduled).meta({
    description: "First page only: the caller's scheduled messages to the partner, pending or failed, soonest first",
  }),
  held: z
    .array(
      z.strictObject({
        _id: z.string(),
        status: z.enum(["held", "rejected"]),
        body: z.string(),
        created_at: z.iso.datetime(),
      }),
    )
    .meta({
      description:
        "First page only: the caller's messages to the partner a screening rule holds for review (held: 確認中), and those not delivered after review in the last 30 days (rejected; their points were refunded), oldest first (decision 0042)",
    }),
});

const EXAMPLE_PARTNER = {
  _id: "9d8c7b6a-5f4e-4d3c-8b2a-19f8e7d6c5b4",
  name: "佐藤太郎",
  photoLink: "/uploads/thumbs/0123456789abcdef0123456789abcdef.jpg",
  role: "user" as const,
  verified: true,
};
const EXAMPLE_ME = {
  _id: "3f6c6a4e-1b2d-4c9e-8a7f-0d1e2f3a4b5c",
  name: "山田花子",
  photoLink: null,
  role: "user" as const,
};
const { verified: _verified, ...EXAMPLE_PARTY } = EXAMPLE_PARTNER;
const EXAMPLE_SEALED = {
  _id: "5b0e2c1a-7d3f-4e8b-9a6c-2f1d0e9c8b7a",
  body: "はじめまして。プロフィールを拝見しました…",
  created_at: "2025-08-21T09:30:00.000Z",
  is_read: false,
  has_reply: false,
  from_userID: EXAMPLE_PARTY,
  to_userID: EXAMPLE_ME,
  locked: false,
  sealed: true,
  preview: "はじめまして。プロフィールを拝見しました…",
};
const EXAMPLE_MINE = {
  ...EXAMPLE_SEALED,
  _id: "8e7d6c5b-4a39-4281-9f0e-1d2c3b4a5968",
  body: "こちらこそ、よろしくお願いします。",
  created_at: "2025-08-21T10:02:00.000Z",
  is_read: true,
  from_userID: EXAMPLE_ME,
  to_userID: EXAMPLE_PARTY,
  sealed: false,
  preview: null,
};

export const conversationRoutes = [
  route({
    method: "GET",
    path: "/api/messages/conversations",
    summary: "Member: conversations, one line per partner, newest activity first",
    description: `Partners are the members and administrators the caller exchanged messages with; partners blocked either way are left out (unblocking brings them back), deleted messages count nowhere. Each line has the newest message either way (another member's message not opened yet is sealed: its preview line of at most ${MESSAGE_PREVIEW_CHARS} characters as body; a member's message to a caller not age-verified is locked) and how many of the partner's messages are unread. Paged on the server; q searches the partner's name.`,
    access: "member",
    input: listQuery,
    response: listAnswer,
    example: {
      conversations: [{ partner: EXAMPLE_PARTNER, last_message: EXAMPLE_SEALED, unread_count: 1 }],
      pagination: {
        total: 1,
        totalPages: 1,
        pages: 1,
        currentPage: 1,
        limit: CONVERSATION_PAGE_SIZE,
        totalCapped: false,
      },
    },
    errors: { 400: [MSG.badRequest, MSG.pageTooLarge, MSG.partnerSearchTooLong, MSG.textInvalid] },
    handler: async (caller, input) => {
      const page = await caller.messages.conversations({
        ...(input.page !== undefined ? { page: input.page } : {}),
        ...(input.limit !== undefined ? { limit: input.limit } : {}),
        ...(input.q !== undefined ? { q: input.q } : {}),
      });
      return {
        conversations: page.conversations.map((c) => ({
          partner: partner(c.partner),
          last_message: toLegacyMessage(c.lastMessage),
          unread_count: c.unreadCount,
        })),
        pagination: {
          total: page.total,
          totalPages: page.totalPages,
          pages: page.totalPages,
          currentPage: page.page,
          limit: page.limit,
          totalCapped: page.totalCapped,
        },
      };
    },
  }),
  route({
    method: "GET",
    path: "/api/messages/with/:userId",
    summary: "Member: one conversation with a partner, newest page first, paged backwards",
    description:
      "Every live message exchanged with the partner, oldest first within a page; has_older and next_cursor (pass it as before) read further back. Sealed messages show their preview line only and are opened with POST /api/messages/{id}/open (charged once, marked read). The first page also lists the caller's scheduled messages to the partner. Never charges or marks anything. Unknown partners, oneself, partners blocked either way, and administrators or unreachable members the caller never exchanged a message with answer 404; a before that is no message of this conversation answers 400.",
    access: "member",
    input: threadQuery,
    response: threadAnswer,
    example: {
      partner: { ...EXAMPLE_PARTNER, reachable: true },
      messages: [EXAMPLE_SEALED, EXAMPLE_MINE],
      has_older: true,
      next_cursor: EXAMPLE_SEALED._id,
      scheduled: [],
      held: [],
    },
    errors: { 400: [MSG.notFound, MSG.threadCursorInvalid, MSG.badRequest], 404: MSG.notFound },
    handler: async (caller, input) => {
      const thread = await caller.messages.thread({
        partnerId: input.userId,
        ...(input.before ? { cursor: input.before } : {}),
        ...(input.limit !== undefined ? { limit: input.limit } : {}),
      });
      return {
        partner: { ...partner(thread.partner), reachable: thread.partner.reachable },
        messages: thread.messages.map(toLegacyMessage),
        has_older: thread.hasOlder,
        next_cursor: thread.nextCursor,
        scheduled: thread.scheduled.map(toLegacyScheduled),
        held: thread.held.map((h) => ({
          _id: h.id,
          status: h.status,
          body: h.body,
          created_at: new Date(h.createdAt).toISOString(),
        })),
      };
    },
  }),
];
