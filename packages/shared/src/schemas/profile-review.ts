import { z } from "zod";
import { PROFILE_REJECT_REASON_VALUES } from "../constants/index";
import { MSG } from "../messages";
import { uuid } from "./ids";
import { text } from "./text";
import { pageNumber, pageSize, pageWithinOffset } from "./values";

/** The review of profile photos and 自己紹介 (administrators; docs/decisions/0044). */

export const PROFILE_REVIEW_PAGE_SIZE = 20;
export const PROFILE_REJECT_NOTE_MAX = 500;

export const profileReviewQueueInput = z
  .object({
    page: pageNumber().default(1),
    limit: pageSize({ max: 100 }).default(PROFILE_REVIEW_PAGE_SIZE),
  })
  .refine(...pageWithinOffset(PROFILE_REVIEW_PAGE_SIZE));
export type ProfileReviewQueueInput = z.input<typeof profileReviewQueueInput>;

export const profileReviewIdInput = z.object({ id: uuid(MSG.notFound) });

/** A reason from the fixed list, and a note (required with その他, so the member learns why). */
export const profileReviewRejectInput = z
  .object({
    id: uuid(MSG.notFound),
    reason: z.enum(PROFILE_REJECT_REASON_VALUES, { error: MSG.profileRejectReasonRequired }),
    note: text({ max: PROFILE_REJECT_NOTE_MAX, tooLong: MSG.profileRejectNoteTooLong }).default(""),
  })
  .refine((v) => v.reason !== "other" || v.note.length > 0, {
    message: MSG.profileRejectNoteRequired,
    path: ["note"],
  });
export type ProfileReviewRejectInput = z.input<typeof profileReviewRejectInput>;
