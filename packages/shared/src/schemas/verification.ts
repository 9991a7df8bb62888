import { z } from "zod";
import { MSG } from "../messages";
import { uuid } from "./ids";
import { photoData } from "./photos";
import { text } from "./text";
import { pageNumber, pageSize, pageWithinOffset } from "./values";

/** Age verification (出会い系サイト規制法 art. 11; decision 0006). */

export const REJECT_REASON_MAX = 500;
export const VERIFICATION_QUEUE_PAGE_SIZE = 20;
/** ID images are deleted at review, and at the latest this long after submission (privacy policy). */
export const ID_IMAGE_RETENTION_HOURS = 24;

/** The ID image as the profile-photo pipeline takes it: a data URL or bare base64. */
export const verificationSubmitInput = z.object({ image: photoData });
export type VerificationSubmitInput = z.infer<typeof verificationSubmitInput>;

export const verificationIdInput = z.object({ id: uuid(MSG.notFound) });

export const verificationRejectInput = z.object({
  id: uuid(MSG.notFound),
  reason: text({ max: REJECT_REASON_MAX, required: MSG.rejectReasonRequired, tooLong: MSG.rejectReasonTooLong }),
});
export type VerificationRejectInput = z.infer<typeof verificationRejectInput>;

export const verificationQueueInput = z
  .object({
    page: pageNumber().default(1),
    limit: pageSize({ max: 100 }).default(VERIFICATION_QUEUE_PAGE_SIZE),
  })
  .refine(...pageWithinOffset(VERIFICATION_QUEUE_PAGE_SIZE));
export type VerificationQueueInput = z.input<typeof verificationQueueInput>;
