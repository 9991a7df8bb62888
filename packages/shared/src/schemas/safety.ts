import { z } from "zod";
import { REPORT_REASON_VALUES, REPORT_STATUSES, REPORT_TARGET_TYPES, type ReportStatus } from "../constants/index";
import { MSG } from "../messages";
import { uuid } from "./ids";
import { text } from "./text";
import { pageNumber, pageWithinOffset } from "./values";

/** Blocking, reports and moderation (ours; 出会い系サイト規制法 art. 12). */

export const REPORT_STATUS_LABELS: Record<ReportStatus, string> = {
  open: "未対応",
  dismissed: "対応不要",
  removed: "削除済み",
  suspended: "利用停止",
};

export const REPORT_DETAIL_MAX = 1000;
export const MODERATION_NOTE_MAX = 500;
export const SUSPEND_REASON_MAX = 500;
export const MODERATION_PAGE_SIZE = 20;

/** A member, by id (block, unblock). */
export const blockInput = z.object({ userId: uuid(MSG.notFound) });

export const reportInput = z
  .object({
    targetType: z.enum(REPORT_TARGET_TYPES, { error: MSG.reportTargetInvalid }),
    targetId: uuid(MSG.notFound),
    reason: z.enum(REPORT_REASON_VALUES, { error: MSG.reportReasonInvalid }),
    /** Free text; required with `other`. Blank counts as absent. */
    detail: text({ max: REPORT_DETAIL_MAX, tooLong: MSG.reportDetailTooLong })
      .optional()
      .transform((v) => (v ? v : undefined)),
  })
  .refine((v) => v.reason !== "other" || v.detail !== undefined, {
    message: MSG.reportDetailRequired,
    path: ["detail"],
  });
export type ReportInput = z.input<typeof reportInput>;

export const moderationQueueInput = z
  .object({
    status: z.enum(REPORT_STATUSES, { error: MSG.badRequest }).default("open"),
    page: pageNumber().default(1),
  })
  .refine(...pageWithinOffset(MODERATION_PAGE_SIZE));
export type ModerationQueueInput = z.input<typeof moderationQueueInput>;

export const reportIdInput = z.object({ id: uuid(MSG.notFound) });

export const dismissReportInput = z.object({
  id: uuid(MSG.notFound),
  note: text({ max: MODERATION_NOTE_MAX, tooLong: MSG.moderationNoteTooLong })
    .optional()
    .transform((v) => (v ? v : undefined)),
});

export const suspendInput = z.object({
  userId: uuid(MSG.notFound),
  reason: text({ max: SUSPEND_REASON_MAX, tooLong: MSG.suspendReasonTooLong, required: MSG.suspendReasonRequired }),
});
export const unsuspendInput = z.object({ userId: uuid(MSG.notFound) });
export const standingInput = z.object({
  userIds: z.array(uuid(MSG.notFound), { error: MSG.badRequest }).max(1000, MSG.badRequest),
});
