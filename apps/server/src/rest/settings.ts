import { emailChangeInput, linkTokenInput, MSG, noticeSettingInput } from "@enmusubi/shared";
import { z } from "zod";
import { route } from "./adapter";

/**
 * The settings screen's rows (ours, decision 0033): the new-message notice setting,
 * its one-click stop link (no login), the e-mail change and its confirmation link (no login). The
 * password changes through PUT /api/auth/profile (currentPassword + newPassword).
 */

const noticeSettingView = z.object({ enabled: z.boolean() });
const message = z.object({ message: z.string() });

export const settingsRoutes = [
  route({
    method: "GET",
    path: "/api/account/notice-mail",
    summary: "Member: whether new-message notice mails are sent (on by default)",
    access: "member",
    response: noticeSettingView,
    example: { enabled: true },
    handler: (caller) => caller.account.noticeSetting(),
  }),
  route({
    method: "PUT",
    path: "/api/account/notice-mail",
    summary: "Member: turn new-message notice mails on or off",
    access: "member",
    input: noticeSettingInput,
    response: noticeSettingView.extend({ message: z.string() }),
    example: { enabled: false, message: MSG.noticeMailOff },
    handler: (caller, input) => caller.account.setNoticeSetting(input),
  }),
  route({
    method: "POST",
    path: "/api/account/notice-mail/stop",
    summary: "Anyone holding a notice's stop link: turn the notices off (no login; the link works once)",
    description:
      "The token is the signed one of a notice mail's stop link. The first use turns the notices off; a later use of the same link changes nothing and answers alreadyUsed with a message saying so; a forged or expired link answers 400.",
    access: "public",
    input: linkTokenInput,
    response: z.object({ stopped: z.boolean(), alreadyUsed: z.boolean(), message: z.string() }),
    example: { stopped: true, alreadyUsed: false, message: MSG.noticeStopDone },
    errors: { 400: [MSG.noticeStopInvalid, MSG.tokenRequired] },
    handler: (caller, input) => caller.account.stopNotice(input),
  }),
  route({
    method: "POST",
    path: "/api/account/email",
    summary: "Member: ask to change the e-mail address (a confirmation link is mailed to the new one)",
    description:
      "Needs the current password; wrong ones are counted with the account's failed logins (10 in 15 minutes, then 429). At most 5 requests an hour per member and 3 per new address (429). The current address is told at once; nothing changes until the link mailed to the new address is followed (within 24 hours, once), and then the old address is told again. A password change, a password reissue or 退会 cancels the pending change. An address another member uses answers 409.",
    access: "member",
    input: emailChangeInput,
    response: message,
    status: 201,
    example: { message: MSG.emailChangeSent },
    errors: {
      400: [MSG.currentPasswordWrong, MSG.emailChangeSame, MSG.emailInvalid],
      409: MSG.emailInUse,
      429: MSG.tooManyRequests,
    },
    handler: (caller, input) => caller.account.requestEmailChange(input),
  }),
  route({
    method: "POST",
    path: "/api/account/email/confirm",
    summary: "Anyone holding the confirmation link: apply the requested e-mail change (no login; once)",
    access: "public",
    input: linkTokenInput,
    response: message,
    example: { message: MSG.emailChangeDone },
    errors: { 400: [MSG.emailChangeInvalid, MSG.emailChangeUsed], 409: MSG.emailInUse },
    handler: (caller, input) => caller.account.confirmEmailChange(input),
  }),
];
