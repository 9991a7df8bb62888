import { z } from "zod";
import { INQUIRY_MESSAGE_MAX, INQUIRY_TITLE_MAX } from "../constants";
import { MSG } from "../messages";
import { text } from "./text";

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

export const inquiryIdInput = z.object({ id: z.uuid({ error: MSG.notFound }) });

const page = z.number({ error: MSG.badRequest }).int().min(1).default(1);
const limit = z
  .number({ error: MSG.badRequest })
  .int()
  .min(1)
  .max(INQUIRY_PAGE_SIZE_MAX)
  .default(INQUIRY_PAGE_SIZE_DEFAULT);

export const inquiryListInput = z.object({ page, limit }).default({ page: 1, limit: INQUIRY_PAGE_SIZE_DEFAULT });
export type InquiryListInput = z.input<typeof inquiryListInput>;

export const adminInquiryListInput = z
  .object({
    page,
    limit,
    /** Only inquiries no administrator has marked read yet. */
    unreadOnly: z.boolean({ error: MSG.badRequest }).default(false),
  })
  .default({ page: 1, limit: INQUIRY_PAGE_SIZE_DEFAULT, unreadOnly: false });
export type AdminInquiryListInput = z.input<typeof adminInquiryListInput>;

export const inquiryReplyInput = z.object({ id: z.uuid({ error: MSG.notFound }), reply: inquiryReplyText });
export type InquiryReplyInput = z.output<typeof inquiryReplyInput>;

/** The audit log screen's filters (administrators only). */
export const AUDIT_PAGE_SIZE_DEFAULT = 50;
export const AUDIT_PAGE_SIZE_MAX = 100;

const auditDate = z
  .string({ error: MSG.badRequest })
  .regex(/^\d{4}-\d{2}-\d{2}$/, MSG.badRequest)
  // A real calendar day: 2025-02-31 does not survive the round trip.
  .refine((v) => {
    const day = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(v);
  }, MSG.badRequest);

export const auditListInput = z
  .object({
    page,
    limit: z.number({ error: MSG.badRequest }).int().min(1).max(AUDIT_PAGE_SIZE_MAX).default(AUDIT_PAGE_SIZE_DEFAULT),
    /** The acting administrator's login ID (exact). */
    adminUserID: text({ max: 100 }).optional(),
    /** An action name as written (exact), e.g. `inquiry.reply`. */
    action: text({ max: 100 }).optional(),
    /** First day included (YYYY-MM-DD, Japan time). */
    dateFrom: auditDate.optional(),
    /** Last day included (YYYY-MM-DD, Japan time). */
    dateTo: auditDate.optional(),
  })
  .refine((v) => !v.dateFrom || !v.dateTo || v.dateFrom <= v.dateTo, {
    message: MSG.auditDateRangeInvalid,
    path: ["dateTo"],
  })
  .default({ page: 1, limit: AUDIT_PAGE_SIZE_DEFAULT });
export type AuditListInput = z.input<typeof auditListInput>;
