import { z } from "zod";
import { ID_DOCUMENT_KINDS, MIN_AGE } from "../constants/index";
import { MSG } from "../messages";
import { uuid } from "./ids";
import { photoData } from "./photos";
import { text } from "./text";
import { ageOn, calendarDay, pageNumber, pageSize, pageWithinOffset } from "./values";

/** Age verification (出会い系サイト規制法 art. 11; decision 0006). */

export const REJECT_REASON_MAX = 500;
export const VERIFICATION_QUEUE_PAGE_SIZE = 20;

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

/**
 * The birth date an administrator read from a member's ID (decision 0043): a real calendar day (the
 * shared day schema), and MIN_AGE or older on today's Japanese day; younger is refused.
 */
export const idBirthday = calendarDay(MSG.idBirthdayInvalid).refine(
  (day) => ageOn(day, new Date()) >= MIN_AGE,
  MSG.idBirthdayUnderAge,
);

export const idDocumentKind = z.enum(ID_DOCUMENT_KINDS, { error: MSG.idDocumentKindRequired });

/** How an administrator checked the age of a member they create: the document and the birth date on it. */
export const ageCheckInput = z.object({ documentKind: idDocumentKind, birthday: idBirthday });
export type AgeCheckInput = z.infer<typeof ageCheckInput>;

/**
 * Approving a submission: the birth date read from the ID. Required when the member's birth date is
 * unknown; given, it becomes the member's birth date (decision 0043).
 */
export const verificationApproveInput = z.object({ id: uuid(MSG.notFound), birthday: idBirthday.optional() });
export type VerificationApproveInput = z.infer<typeof verificationApproveInput>;
