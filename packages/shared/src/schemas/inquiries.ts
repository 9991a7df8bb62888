import { z } from "zod";
import { INQUIRY_MESSAGE_MAX, INQUIRY_TITLE_MAX } from "../constants/index";
import { MSG } from "../messages";
import { uuid } from "./ids";
import { text } from "./text";
import { calendarDay, endNotBeforeStart, pageNumber, pageSize, pageWithinOffset } from "./values";

/** Support inquiries (spec §3 Inquiry, §5, §7 /api/inquiry*, /api/admin/inquiries*). */

/** An administrator's reply: the same bound as the inquiry's message. */
export const INQUIRY_REPLY_MAX = INQUIRY_MESSAGE_MAX;
export const INQUIRY_PAGE_SIZE_DEFAULT = 20;
export const INQUIRY_PAGE_SIZE_MAX = 100;

export const inquiryTitle = text({
  max: INQUIRY_TITLE_MAX,
  required: MSG.inquiryTitleRequired,
  tooLong: MSG.inquiryTitleTooLong,
});
export const inquiryMessage = text({
  max: INQUIRY_MESSAGE_MAX,
  required: MSG.inquiryMessageRequired,
  tooLong: MSG.inquiryMessageTooLong,
});
export const inquiryReplyText = text({
  max: INQUIRY_REPLY_MAX,
  required: MSG.inquiryReplyRequired,
  tooLong: MSG.inquiryReplyTooLong,
});

export const inquiryCreateInput = z.object({ title: inquiryTitle, message: inquiryMessage });
export type InquiryCreateInput = z.output<typeof inquiryCreateInput>;

export const inquiryIdInput = z.object({ id: uuid(MSG.notFound) });

const page = pageNumber().default(1);
const limit = pageSize({ max: INQUIRY_PAGE_SIZE_MAX }).default(INQUIRY_PAGE_SIZE_DEFAULT);

export const inquiryListInput = z
  .object({ page, limit })
  .refine(...pageWithinOffset(INQUIRY_PAGE_SIZE_DEFAULT))
  .default({ page: 1, limit: INQUIRY_PAGE_SIZE_DEFAULT });
export type InquiryListInput = z.input<typeof inquiryListInput>;

export const adminInquiryListInput = z
  .object({
    page,
    limit,
    /** Only inquiries no administrator has marked read yet. */
    unreadOnly: z.boolean({ error: MSG.badRequest }).default(false),
  })
  .refine(...pageWithinOffset(INQUIRY_PAGE_SIZE_DEFAULT))
  .default({ page: 1, limit: INQUIRY_PAGE_SIZE_DEFAULT, unreadOnly: false });
export type AdminInquiryListInput = z.input<typeof adminInquiryListInput>;

export const inquiryReplyInput = z.object({ id: uuid(MSG.notFound), reply: inquiryReplyText });
export type InquiryReplyInput = z.output<typeof inquiryReplyInput>;

/** The audit log screen's filters (administrators only). */
export const AUDIT_PAGE_SIZE_DEFAULT = 50;
export const AUDIT_PAGE_SIZE_MAX = 100;

/** A real calendar day (2025-02-31 and year 0 refused): the one schema (values.ts). */
const auditDate = calendarDay();

export const auditListInput = z
  .object({
    page,
    limit: pageSize({ max: AUDIT_PAGE_SIZE_MAX }).default(AUDIT_PAGE_SIZE_DEFAULT),
    /** The acting administrator's login ID (exact). */
    adminUserID: text({ max: 100 }).optional(),
    /** An action name as written (exact), e.g. `inquiry.reply`. */
    action: text({ max: 100 }).optional(),
    /** First day included (YYYY-MM-DD, Japan time). */
    dateFrom: auditDate.optional(),
    /** Last day included (YYYY-MM-DD, Japan time). */
    dateTo: auditDate.optional(),
  })
  .refine(...endNotBeforeStart("dateFrom", "dateTo", MSG.auditDateRangeInvalid))
  .refine(...pageWithinOffset(AUDIT_PAGE_SIZE_DEFAULT))
  .default({ page: 1, limit: AUDIT_PAGE_SIZE_DEFAULT });
export type AuditListInput = z.input<typeof auditListInput>;
