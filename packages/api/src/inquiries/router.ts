import {
  adminInquiryListInput,
  inquiryCreateInput,
  inquiryIdInput,
  inquiryListInput,
  inquiryReplyInput,
} from "@enmusubi/shared";
import { enforceRateLimit } from "../security/rate-limit";
import { adminProcedure, memberProcedure, router } from "../trpc";
import {
  createInquiry,
  deleteInquiry,
  listAdminInquiries,
  listMemberInquiries,
  markInquiryRead,
  markRepliesSeen,
  replyToInquiry,
} from "./service";

/** Inquiries a member may send per hour: the desk stays usable, a script cannot flood it. */
export const INQUIRY_RATE_LIMIT = { max: 10, windowMs: 60 * 60_000 };

/**
 * A member's own inquiries. Not gated by age verification: contacting support is not one of the
 * four acts of 出会い系サイト規制法 art. 11, and a member who cannot verify must still reach the desk.
 */
export const inquiriesRouter = router({
  create: memberProcedure.input(inquiryCreateInput).mutation(async ({ ctx, input }) => {
    await enforceRateLimit(ctx.limiter, [[`inquiry:user:${ctx.session.id}`, INQUIRY_RATE_LIMIT]]);
    return createInquiry(ctx.db, ctx.session.id, input);
  }),
  list: memberProcedure
    .input(inquiryListInput)
    .query(({ ctx, input }) => listMemberInquiries(ctx.db, ctx.session.id, input)),
  delete: memberProcedure.input(inquiryIdInput).mutation(async ({ ctx, input }) => {
    await deleteInquiry(ctx.db, ctx.session.id, input.id);
    return { success: true as const };
  }),
  /** The member opened the replies of one inquiry: its unread marker goes. */
  markRepliesSeen: memberProcedure.input(inquiryIdInput).mutation(async ({ ctx, input }) => {
    await markRepliesSeen(ctx.db, ctx.session.id, input.id);
    return { success: true as const };
  }),
});

/** The support desk: every inquiry, mark-as-read and replies (each change audited). */
export const adminInquiriesRouter = router({
  list: adminProcedure.input(adminInquiryListInput).query(({ ctx, input }) => listAdminInquiries(ctx.db, input)),
  markRead: adminProcedure.input(inquiryIdInput).mutation(async ({ ctx, input }) => {
    await markInquiryRead(ctx.db, ctx.session.id, input.id);
    return { success: true as const };
  }),
  reply: adminProcedure
    .input(inquiryReplyInput)
    .mutation(({ ctx, input }) => replyToInquiry(ctx, ctx.session.id, input)),
});
