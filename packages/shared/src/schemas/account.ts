import { z } from "zod";
import { MSG } from "../messages";
import { email } from "./auth";
import { text } from "./text";

/** A one-time link's token (a stop link, an e-mail confirmation): opaque, bounded. */
export const linkTokenInput = z.object({
  token: text({ required: MSG.tokenRequired, max: 2000, tooLong: MSG.tokenRequired }),
});
export type LinkTokenInput = z.infer<typeof linkTokenInput>;

export const noticeSettingInput = z.object({ enabled: z.boolean({ error: MSG.badRequest }) });
export type NoticeSettingInput = z.infer<typeof noticeSettingInput>;

/** A new e-mail address, confirmed by a link sent to it; the current password proves the member. */
export const emailChangeInput = z.object({
  newEmail: email,
  currentPassword: text({
    required: MSG.currentPasswordRequired,
    max: 200,
    tooLong: MSG.currentPasswordWrong,
    trim: false,
  }),
});
export type EmailChangeInput = z.infer<typeof emailChangeInput>;
