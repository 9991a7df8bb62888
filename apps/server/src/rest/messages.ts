import {
  ADMIN_MESSAGE_PAGE_SIZE_DEFAULT,
  MEMBER_MESSAGE_PAGE_SIZE,
  MEMBER_MESSAGE_PAGE_SIZE_MAX,
  MESSAGE_PREVIEW_CHARS,
  type MemberMessageBox,
  MSG,
} from "@enmusubi/shared";
import type { z } from "zod";
import { type Caller, route } from "./adapter";
import { SCREENING_REFUSALS } from "./examples";
import {
  EXAMPLE_ADMIN_MESSAGE,
  EXAMPLE_MESSAGE,
  EXAMPLE_PAGINATION,
  EXAMPLE_SEALED,
  EXAMPLE_SENT,
} from "./message-examples";
import {
  adminListQuery,
  memberListQuery,
  messageId,
  type SendInput,
  sendAsUserBody,
  sendByBody,
  sendByPath,
  unreadListQuery,
  updateBody,
} from "./message-inputs";
import {
  adminPage,
  done,
  marked,
  memberPage,
  messageWithOpenCost,
  opened,
  sent,
  sentAsUser,
  toLegacyAdminMessage,
  toLegacyMessage,
  toPagination,
} from "./message-shapes";
import { INSUFFICIENT_POINTS_EXAMPLE } from "./openapi";
import { asMemberOrOperator } from "./operator";

/**
 * Legacy message rows of spec §7 (/api/messages/*, /api/admin/messages*) over the `messages.*`
 * and `adminMessages.*` procedures. Their shapes and the mapping into them are in
 * message-shapes.ts, the query and body schemas (paging included) in message-inputs.ts, the
 * examples in message-examples.ts.
 */

const SEND_ERRORS = {
  400: [
    MSG.recipientsRequired,
    MSG.messageRequired,
    MSG.messageTooLong,
    MSG.textInvalid,
    MSG.tooManyRecipients,
    MSG.recipientUnavailable,
    MSG.cannotMessageSelf,
    MSG.replyTargetInvalid,
    ...SCREENING_REFUSALS,
  ],
  402: INSUFFICIENT_POINTS_EXAMPLE,
  403: [MSG.verificationRequired, MSG.blockedEitherWay],
  // A recipient that is unknown, deleted or suspended (decision 0015), before anything is charged.
  404: MSG.recipientUnavailable,
  // A member recipient whose age verification is not approved cannot read it (decision 0025), before any charge.
  409: MSG.recipientCannotRead,
} as const;

/**
 * A member's paid send, or with an administrator's token the operator's free one (spec §7 notes: a
 * scheduled entry without a sender goes through this call): `adminMessages.send`, audited, written
 * from the administrator; cost 0 and the administrator's own balance, unchanged.
 */
async function send(caller: Caller, input: SendInput) {
  const result = await asMemberOrOperator(
    () => caller.messages.send(input),
    async () => {
      const sent = await caller.adminMessages.send({
        recipientIds: input.recipientIds,
        body: input.body,
        ...(input.replyToId ? { replyToId: input.replyToId } : {}),
      });
      const { points } = await caller.profile.me();
      return { ...sent, status: "sent" as const, cost: 0, remainingPoints: points };
    },
  );
  const message = result.status === "held" ? MSG.messageHeldForReview : MSG.messageSent;
  return { success: true as const, message, ...result };
}

const SEND_DESCRIPTION =
  "Each member recipient costs the current send_message cost (one ledger entry of cost × recipients: all or nothing, 402 with required/available when short, available being the points still valid); writing to an administrator is free. A recipient that is unknown, deleted or suspended answers 404 and nothing is charged. A member recipient whose age verification is not approved (who cannot read members' messages) answers 409 and nothing is charged or written; a send to several is refused whole. A prepaid deduction (POST /api/users/deduct-points) is used first. With replyToId the answered message is marked replied (and read with markRead). Only an age-verified member may send (403 with the way to verify otherwise). With an administrator's token it is the operator's message (as the admin screens send it): free (cost 0, remainingPoints the administrator's own balance), from that administrator, audited, to members only (an administrator recipient is refused); a replyToId must then be a member's message to the administrators, from that recipient, and it is marked read and replied.";

const SEND_AS_ERRORS = {
  ...SEND_ERRORS,
  400: [...SEND_ERRORS[400], MSG.adminRecipientRefused],
} as const;

function memberList(box: MemberMessageBox, summary: string) {
  const unread = box === "unread";
  return route({
    method: "GET",
    path: `/api/messages/${box}`,
    summary,
    description: `Newest first, paged on the server (page, limit ≤ ${MEMBER_MESSAGE_PAGE_SIZE_MAX}, default ${MEMBER_MESSAGE_PAGE_SIZE}); partner searches the other side's name. The other side is shown as { _id, name, photoLink, role }. A message from another member that the caller has not opened yet is listed with sealed: true and only its preview line as body (the first ${MESSAGE_PREVIEW_CHARS} characters); POST /api/messages/{id}/open answers the body (unread_mail_view). Marking it read does not open it. Until the caller is age-verified, a message from another member is listed with locked: true and a notice instead of its body (no preview); administrators' messages stay readable.`,
    access: "member",
    input: unread ? unreadListQuery : memberListQuery,
    response: memberPage,
    example: { messages: [EXAMPLE_SEALED, EXAMPLE_MESSAGE], pagination: { ...EXAMPLE_PAGINATION, total: 2 } },
    errors: { 400: [MSG.partnerSearchTooLong, MSG.textInvalid, MSG.pageTooLarge, MSG.badRequest] },
    handler: async (caller, input: z.output<typeof unreadListQuery>) => {
      const page = await caller.messages.list({
        box,
        page: input.page,
        limit: input.limit,
        ...(input.counterpartId ? { counterpartId: input.counterpartId } : {}),
        ...(input.partner ? { partner: input.partner } : {}),
        ...(unread && input.withOperator ? { withOperator: true } : {}),
      });
      return { messages: page.messages.map(toLegacyMessage), pagination: toPagination(page) };
    },
  });
}

function mark(kind: "read" | "reply") {
  return route({
    method: "PUT",
    path: `/api/messages/:id/${kind}`,
    summary:
      kind === "read"
        ? "Member or administrator: mark a received message read"
        : "Member or administrator: mark a received message replied (has_reply)",
    description:
      kind === "read"
        ? "Only the recipient may (a member, or an administrator on a message addressed to them); any other message (sent by the caller, someone else's, another administrator's) answers 404. A member marking another member's message read needs age verification (403). Marking read lowers the unread count but does not open a sealed message: its body is answered by POST /api/messages/{id}/open only (decision 0027)."
        : "Only the recipient may (a member, or an administrator on a message addressed to them); any other message (sent by the caller, someone else's, another administrator's) answers 404.",
    access: "signedIn",
    input: messageId,
    response: marked,
    example: kind === "read" ? { success: true, message: MSG.markedRead } : { success: true },
    errors: kind === "read" ? { 403: MSG.verificationRequired, 404: MSG.notFound } : { 404: MSG.notFound },
    handler: async (caller, input) => {
      if (kind === "read") {
        await caller.messages.markRead(input);
        return { success: true as const, message: MSG.markedRead };
      }
      await caller.messages.markReplied(input);
      return { success: true as const };
    },
  });
}

export const messageRoutes = [
  route({
    method: "POST",
    path: "/api/messages/recipientId",
    summary: "Member or administrator: send a message to userId (or to every id of recipientIds)",
    description: `The legacy client calls this literal path with the recipient in the body. ${SEND_DESCRIPTION}`,
    access: "signedIn",
    input: sendByBody,
    response: sent,
    status: 201,
    example: EXAMPLE_SENT,
    errors: SEND_AS_ERRORS,
    handler: (caller, input) => send(caller, input),
  }),
  route({
    method: "POST",
    path: "/api/messages/:id",
    summary: "Member or administrator: send a message to the account named in the path",
    description: SEND_DESCRIPTION,
    access: "signedIn",
    input: sendByPath,
    response: sent,
    status: 201,
    example: EXAMPLE_SENT,
    errors: SEND_AS_ERRORS,
    handler: (caller, input) => send(caller, input),
  }),
  memberList("inbox", "Member: messages received"),
  memberList("unread", "Member: messages received and not read yet"),
  memberList("read", "Member: messages received and read (the 受信 screen)"),
  memberList("sent", "Member: messages sent"),
  route({
    method: "GET",
    path: "/api/messages/:id",
    summary: "Member: one message sent or received (a sealed one without its body, with the price to open it)",
    description: `Never charges or marks anything. Another member's message the caller has not opened yet answers sealed: true, only its preview line (the first ${MESSAGE_PREVIEW_CHARS} characters) as body, and open_cost: the points POST /api/messages/{id}/open would take now (0 when free). Anything not the caller's, or exchanged with a member blocked either way, answers 404; another member's message to a caller not age-verified answers 403.`,
    access: "member",
    input: messageId,
    response: messageWithOpenCost,
    example: { ...EXAMPLE_SEALED, open_cost: 20 },
    errors: { 403: MSG.verificationRequired, 404: MSG.notFound },
    handler: async (caller, input) => {
      const message = await caller.messages.get(input);
      return { ...toLegacyMessage(message), open_cost: message.openCost };
    },
  }),
  route({
    method: "POST",
    path: "/api/messages/:id/open",
    summary:
      "Member: open a message and read its body; costs unread_mail_view the first time another member's message is opened",
    description:
      "Charged once per message, also under concurrent calls; a prepaid unread_mail_view credit (POST /api/users/deduct-points) is used first. Free (charged: false): the operator's messages, one's own sent messages, a message opened before (or read before this charge existed), and any open while the price is 0. Opening a received message marks it read. Not enough points answers 402 and nothing is opened or charged. Anything not the caller's, or exchanged with a member blocked either way, answers 404 before any charge; another member's message to a caller not age-verified answers 403.",
    access: "member",
    input: messageId,
    response: opened,
    example: {
      message: { ...EXAMPLE_MESSAGE, is_read: true },
      charged: true,
      remainingPoints: 80,
    },
    errors: { 402: INSUFFICIENT_POINTS_EXAMPLE, 403: MSG.verificationRequired, 404: MSG.notFound },
    handler: async (caller, input) => {
      const result = await caller.messages.open(input);
      return { ...result, message: toLegacyMessage(result.message) };
    },
  }),
  mark("read"),
  mark("reply"),
  route({
    method: "GET",
    path: "/api/admin/messages",
    summary: "Admin: every message (email management), filtered and paged on the server",
    description:
      "Newest first. In status filters a message counts as read when it is read or replied. Deleted messages are left out.",
    access: "admin",
    input: adminListQuery,
    response: adminPage,
    example: {
      messages: [EXAMPLE_ADMIN_MESSAGE],
      pagination: { ...EXAMPLE_PAGINATION, limit: ADMIN_MESSAGE_PAGE_SIZE_DEFAULT, totalCapped: false },
    },
    handler: async (caller, input) => {
      const page = await caller.adminMessages.list({
        box: input.box ?? "all",
        page: input.page,
        limit: input.limit,
        search: input.search ?? "",
        status: input.status ?? "all",
        ...(input.dateFrom ? { dateFrom: input.dateFrom } : {}),
        ...(input.dateTo ? { dateTo: input.dateTo } : {}),
        ...(input.counterpartId ? { counterpartId: input.counterpartId } : {}),
        ...(input.partner ? { partner: input.partner } : {}),
      });
      return {
        messages: page.messages.map(toLegacyAdminMessage),
        pagination: { ...toPagination(page), totalCapped: page.totalCapped },
      };
    },
  }),
  route({
    method: "PUT",
    path: "/api/admin/messages/:id",
    summary: "Admin: correct a message's body (audited)",
    access: "admin",
    input: updateBody,
    response: done,
    example: { success: true, message: MSG.messageUpdated },
    errors: { 400: [MSG.messageRequired, MSG.messageTooLong, MSG.textInvalid], 404: MSG.notFound },
    handler: async (caller, input) => {
      await caller.adminMessages.update(input);
      return { success: true as const, message: MSG.messageUpdated };
    },
  }),
  route({
    method: "DELETE",
    path: "/api/admin/messages/:id",
    summary: "Admin: delete a message (it leaves every list; audited)",
    access: "admin",
    input: messageId,
    response: done,
    example: { success: true, message: MSG.messageDeleted },
    errors: { 404: MSG.notFound },
    handler: async (caller, input) => {
      await caller.adminMessages.delete(input);
      return { success: true as const, message: MSG.messageDeleted };
    },
  }),
  route({
    method: "POST",
    path: "/api/admin/messages/send-as-user",
    summary: "Admin: send as a member (never charged to the member; the acting administrator is recorded and audited)",
    description:
      "Written to an administrator, it answers that administrator's message (replyToId, else their latest unanswered one to the member), which is marked read and replied. Members see the message as the member's own.",
    access: "admin",
    input: sendAsUserBody,
    response: sentAsUser,
    status: 201,
    example: { success: true, message: MSG.messageSent, messageId: EXAMPLE_MESSAGE._id },
    errors: {
      400: [
        MSG.messageRequired,
        MSG.messageTooLong,
        MSG.textInvalid,
        MSG.recipientUnavailable,
        MSG.senderMustBeMember,
        MSG.cannotMessageSelf,
        MSG.replyTargetInvalid,
      ],
    },
    handler: async (caller, input) => {
      const result = await caller.adminMessages.sendAsUser(input);
      return { success: true as const, message: MSG.messageSent, messageId: result.messageId };
    },
  }),
];
