import type { RouterOutputs } from "@enmusubi/api";
import {
  INQUIRY_PAGE_SIZE_DEFAULT,
  INQUIRY_PAGE_SIZE_MAX,
  inquiryMessage,
  inquiryReplyText,
  inquiryTitle,
  MSG,
  pageNumber,
  pageSize,
  pageWithinOffset,
  uuid,
} from "@enmusubi/shared";
import { z } from "zod";
import { route } from "./adapter";
import { queryNumber } from "./coerce";

/**
 * Legacy inquiry rows of spec §7 (/api/inquiry*, /api/admin/inquiries*) over the `inquiries.*` and
 * `adminInquiries.*` procedures. An inquiry is `{ _id, userID: { _id, name, userID, email }, title,
 * message, is_read, created_at, replies: [{ adminId: { name, userID }, reply, createdAt }] }`
 * (spec §3), plus `reply_unread` (a reply the member has not opened). Members see only their own;
 * in their view an administrator's login ID is null (decision 0002), administrators get it.
 */

type Inquiry = RouterOutputs["adminInquiries"]["list"]["inquiries"][number];
type Reply = Inquiry["replies"][number];

const legacyReply = z.object({
  _id: z.string(),
  adminId: z.object({ _id: z.string(), name: z.string().nullable(), userID: z.string().nullable() }),
  reply: z.string(),
  createdAt: z.iso.datetime(),
});

export const legacyInquiry = z.object({
  _id: z.string(),
  userID: z.object({ _id: z.string(), name: z.string().nullable(), userID: z.string(), email: z.string() }),
  title: z.string(),
  message: z.string(),
  is_read: z.boolean(),
  /** Ours: an administrator's reply the member has not opened yet. */
  reply_unread: z.boolean(),
  created_at: z.iso.datetime(),
  replies: z.array(legacyReply),
});

const toLegacyReply = (r: Reply): z.input<typeof legacyReply> => ({
  _id: r.id,
  adminId: { _id: r.admin.id, name: r.admin.name, userID: r.admin.userID },
  reply: r.reply,
  createdAt: new Date(r.createdAt).toISOString(),
});

export function toLegacyInquiry(i: Inquiry): z.input<typeof legacyInquiry> {
  return {
    _id: i.id,
    userID: { _id: i.author.id, name: i.author.name, userID: i.author.userID, email: i.author.email },
    title: i.title,
    message: i.message,
    is_read: i.isRead,
    reply_unread: i.replyUnread,
    created_at: new Date(i.createdAt).toISOString(),
    replies: i.replies.map(toLegacyReply),
  };
}

// ---- inputs ---------------------------------------------------------------------------------

/** Digit strings from the query (`?page=2`, coerce.ts); anything else is refused with the generic message. */
const page = queryNumber(pageNumber().optional()).meta({ description: "Page, from 1" });
const limit = queryNumber(pageSize({ max: INQUIRY_PAGE_SIZE_MAX }).optional()).meta({
  description: `Rows per page (default ${INQUIRY_PAGE_SIZE_DEFAULT}, at most ${INQUIRY_PAGE_SIZE_MAX})`,
});
const inquiryId = z.object({ id: uuid(MSG.notFound) });

const createBody = z.object({
  title: inquiryTitle.meta({ description: "Trimmed, 1–100 characters" }),
  message: inquiryMessage.meta({ description: "Trimmed, 1–1000 characters" }),
});
const replyBody = z.object({
  id: uuid(MSG.notFound),
  reply: inquiryReplyText.meta({ description: "Trimmed, 1–1000 characters" }),
});

// ---- answers --------------------------------------------------------------------------------

const done = z.object({ success: z.literal(true), message: z.string() });
const pagination = z.object({
  total: z.number().int().min(0),
  totalPages: z.number().int().min(1),
  pages: z.number().int().min(1),
  currentPage: z.number().int().min(1),
  limit: z.number().int().min(1),
});
const adminList = z.object({
  inquiries: z.array(legacyInquiry),
  /** Every inquiry not deleted by its author. */
  total: z.number().int().min(0),
  /** Of those, the ones no administrator has marked read. */
  unread: z.number().int().min(0),
  pagination,
});

// ---- examples -------------------------------------------------------------------------------

const EXAMPLE_INQUIRY: z.input<typeof legacyInquiry> = {
  _id: "7c2e9a41-3b5d-4f6e-8a1c-2d3e4f5a6b7c",
  userID: {
    _id: "3f6c6a4e-1b2d-4c9e-8a7f-0d1e2f3a4b5c",
    name: "山田花子",
    userID: "k3x9m2pq",
    email: "hanako@example.jp",
  },
  title: "ポイントが反映されません",
  message: "昨日購入したポイントがまだ反映されていません。ご確認をお願いします。",
  is_read: true,
  reply_unread: true,
  created_at: "2025-08-21T09:30:00.000Z",
  replies: [
    {
      _id: "2b4d6f80-1a3c-4e5f-9b7d-0c2e4a6b8d0f",
      adminId: { _id: "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d", name: "運営", userID: null },
      reply: "ご不便をおかけしております。入金を確認のうえ反映いたしました。",
      createdAt: "2025-08-21T10:05:00.000Z",
    },
  ],
};
const EXAMPLE_ADMIN_INQUIRY = {
  ...EXAMPLE_INQUIRY,
  replies: EXAMPLE_INQUIRY.replies.map((r) => ({ ...r, adminId: { ...r.adminId, userID: "admin" } })),
};
const INPUT_ERRORS = [
  MSG.inquiryTitleRequired,
  MSG.inquiryMessageRequired,
  MSG.inquiryTitleTooLong,
  MSG.inquiryMessageTooLong,
  MSG.textInvalid,
];

// ---- routes ---------------------------------------------------------------------------------

export const inquiryRoutes = [
  route({
    method: "POST",
    path: "/api/inquiry",
    summary: "Member: send an inquiry to the support desk",
    description: "Open to every member, verified or not. At most 10 inquiries per member per hour (429 beyond).",
    access: "member",
    input: createBody,
    response: done.extend({ inquiry: legacyInquiry }),
    status: 201,
    example: {
      success: true,
      message: MSG.inquirySent,
      inquiry: { ...EXAMPLE_INQUIRY, is_read: false, reply_unread: false, replies: [] },
    },
    errors: { 400: INPUT_ERRORS, 429: MSG.tooManyRequests },
    handler: async (caller, input) => ({
      success: true as const,
      message: MSG.inquirySent,
      inquiry: toLegacyInquiry(await caller.inquiries.create(input)),
    }),
  }),
  route({
    method: "GET",
    path: "/api/inquiry",
    summary: "Member: my inquiries with the desk's replies, newest first",
    description:
      "Paged on the server (page, limit); X-Total-Count gives the total and X-Unread-Replies how many hold a reply not opened yet.",
    access: "member",
    input: z.object({ page, limit }).refine(...pageWithinOffset(INQUIRY_PAGE_SIZE_DEFAULT)),
    response: z.array(legacyInquiry),
    example: [EXAMPLE_INQUIRY],
    headers: {
      "X-Total-Count": {
        description: "How many inquiries the member has, across all pages",
        schema: z.number().int().min(0),
      },
      "X-Unread-Replies": {
        description: "How many of them hold an administrator's reply the member has not opened",
        schema: z.number().int().min(0),
      },
    },
    handler: async (caller, input, _request, reply) => {
      const result = await caller.inquiries.list({
        ...(input.page !== undefined ? { page: input.page } : {}),
        ...(input.limit !== undefined ? { limit: input.limit } : {}),
      });
      reply.header("x-total-count", String(result.total));
      reply.header("x-unread-replies", String(result.unreadReplies));
      return result.inquiries.map(toLegacyInquiry);
    },
  }),
  route({
    method: "DELETE",
    path: "/api/inquiry/:id",
    summary: "Member: delete one of my inquiries",
    description: "Only the author may; anyone else's inquiry answers 404 and is left as it is.",
    access: "member",
    input: inquiryId,
    response: done,
    example: { success: true, message: MSG.inquiryDeleted },
    errors: { 404: MSG.notFound },
    handler: async (caller, input) => {
      await caller.inquiries.delete(input);
      return { success: true as const, message: MSG.inquiryDeleted };
    },
  }),
  route({
    method: "PUT",
    path: "/api/inquiry/:id/seen",
    summary: "Member: I opened the replies of one of my inquiries (reply_unread becomes false)",
    access: "member",
    input: inquiryId,
    response: z.object({ success: z.literal(true) }),
    example: { success: true },
    errors: { 404: MSG.notFound },
    handler: async (caller, input) => caller.inquiries.markRepliesSeen(input),
  }),
  route({
    method: "GET",
    path: "/api/admin/inquiries",
    summary: "Admin: every inquiry with its replies, newest first, and the total and unread counts",
    description: "Paged on the server (page, limit). unreadOnly=true lists only the inquiries not marked read yet.",
    access: "admin",
    input: z.object({
      page,
      limit,
      unreadOnly: z
        .enum(["true", "false"], { error: MSG.badRequest })
        .optional()
        .meta({ description: "true: only inquiries not marked read" }),
    }),
    response: adminList,
    example: {
      inquiries: [EXAMPLE_ADMIN_INQUIRY],
      total: 1,
      unread: 0,
      pagination: { total: 1, totalPages: 1, pages: 1, currentPage: 1, limit: INQUIRY_PAGE_SIZE_DEFAULT },
    },
    handler: async (caller, input) => {
      const result = await caller.adminInquiries.list({
        ...(input.page !== undefined ? { page: input.page } : {}),
        ...(input.limit !== undefined ? { limit: input.limit } : {}),
        unreadOnly: input.unreadOnly === "true",
      });
      return {
        inquiries: result.inquiries.map(toLegacyInquiry),
        total: result.totalAll,
        unread: result.unread,
        pagination: {
          total: result.total,
          totalPages: result.totalPages,
          pages: result.totalPages,
          currentPage: result.page,
          limit: result.limit,
        },
      };
    },
  }),
  route({
    method: "PUT",
    path: "/api/admin/inquiries/:id/read",
    summary: "Admin: mark an inquiry read (audited; repeating it changes nothing)",
    access: "admin",
    input: inquiryId,
    response: done,
    example: { success: true, message: MSG.inquiryMarkedRead },
    errors: { 404: MSG.notFound },
    handler: async (caller, input) => {
      await caller.adminInquiries.markRead(input);
      return { success: true as const, message: MSG.inquiryMarkedRead };
    },
  }),
  route({
    method: "POST",
    path: "/api/admin/inquiries/:id/reply",
    summary: "Admin: reply to an inquiry; the member is told by mail and by an unread marker",
    description:
      "The reply, the member's unread marker, the inquiry marked read, the notification mail and the audit entry are written together or not at all.",
    access: "admin",
    input: replyBody,
    response: done.extend({ reply: legacyReply }),
    status: 201,
    example: {
      success: true,
      message: MSG.inquiryReplied,
      reply: EXAMPLE_ADMIN_INQUIRY.replies[0] as z.input<typeof legacyReply>,
    },
    errors: { 400: [MSG.inquiryReplyRequired, MSG.inquiryReplyTooLong, MSG.textInvalid], 404: MSG.notFound },
    handler: async (caller, input) => ({
      success: true as const,
      message: MSG.inquiryReplied,
      reply: toLegacyReply(await caller.adminInquiries.reply(input)),
    }),
  }),
];
