import { z } from "zod";
import { SCHEDULED_SOURCES, SCHEDULED_TYPES } from "../constants/index";
import { MSG } from "../messages";
import { uuid } from "./ids";
import { MESSAGE_RECIPIENTS_MAX, messageBody } from "./messages";
import { instant } from "./values";

/**
 * Scheduled messages (spec §3 Scheduled message, §4, §5 scheduling). The browser queue
 * `scheduled_messages_v1` became a server table; these are its inputs.
 */

const id = uuid(MSG.notFound);

export const scheduledCreateInput = z.object({
  type: z.enum(SCHEDULED_TYPES, { error: MSG.badRequest }),
  recipientIds: z
    .array(uuid(MSG.recipientUnavailable), { error: MSG.scheduledRecipientsRequired })
    .min(1, MSG.scheduledRecipientsRequired)
    .max(MESSAGE_RECIPIENTS_MAX, MSG.tooManyRecipients)
    .transform((ids) => [...new Set(ids)]),
  /** The messaging body (trimmed, 1–2,000 characters, storable); empty or missing: 本文を入力してください. */
  content: z
    .string({ error: MSG.scheduledContentRequired })
    .refine((v) => v.trim() !== "", MSG.scheduledContentRequired)
    .pipe(messageBody),
  /** A Date (or an ISO datetime string) within the years of values.ts; year 0 or 99999 is refused. */
  scheduledAt: instant(MSG.scheduledAtInvalid),
  source: z.enum(SCHEDULED_SOURCES, { error: MSG.badRequest }),
  /** The message this answers (a reply); marked replied / read when sent, as the flags say. */
  relatedMessageId: id.optional(),
  markAsReplied: z.boolean().default(false),
  markAsRead: z.boolean().default(false),
  /** Administrators only: send as this member (send-as-user). A member giving it is refused. */
  senderUserId: id.optional(),
});
export type ScheduledCreateInput = z.output<typeof scheduledCreateInput>;

export const scheduledListInput = z
  .object({ source: z.enum(SCHEDULED_SOURCES, { error: MSG.badRequest }).optional() })
  .default({});

export const scheduledIdInput = z.object({ id });
