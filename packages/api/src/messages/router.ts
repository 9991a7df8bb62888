import {
  adminMessageListInput,
  adminMessageUpdateInput,
  adminSendInput,
  conversationInput,
  conversationListInput,
  memberMessageListInput,
  memberSendInput,
  messageIdInput,
  sendAsUserInput,
  threadInput,
} from "@enmusubi/shared";
import { paidProcedure } from "../points/paid-procedure";
import { adminProcedure, authedProcedure, memberProcedure, router } from "../trpc";
import {
  conversation,
  deleteMessage,
  listAdminMessages,
  sendAsAdmin,
  sendAsUser,
  updateMessage,
} from "./admin-service";
import { getThread, listConversations } from "./conversations";
import { getMemberMessage, listContacts, listMemberMessages, markRead, markReplied, unreadCount } from "./mailbox";
import { openMessage } from "./open";
import { sendAsMember } from "./send";
import { unreadAndBalance } from "./unread-and-balance";

/** A member's own mailbox (marking read or replied: any recipient, administrators too). */
export const messagesRouter = router({
  /**
   * Costs send_message per member recipient (free to administrators); batch all or nothing. Only a
   * verified member may send (出会い系サイト規制法 art. 11; decision 0006), and only to members who can
   * read it: a member recipient not verified is refused with CONFLICT before any charge (0025).
   */
  send: paidProcedure("send_message", { verified: true })
    .input(memberSendInput)
    .mutation(async ({ ctx, input }) => {
      const rules = await ctx.screening.current(ctx.db);
      const result = await sendAsMember(ctx.db, ctx.charge, ctx.session.id, input, rules);
      // A held send changed no mailbox but the sender's balance (their own stream).
      const changed = result.status === "held" ? [ctx.session.id] : [...input.recipientIds, ctx.session.id];
      ctx.afterCommit(() => ctx.mailbox.publish(changed));
      return result;
    }),
  list: memberProcedure
    .input(memberMessageListInput)
    .query(({ ctx, input }) => listMemberMessages(ctx.db, ctx.session.id, input, ctx.session.verificationStatus)),
  /** One message; another member's unopened one sealed (no body, `openCost`). Never charges. */
  get: memberProcedure
    .input(messageIdInput)
    .query(({ ctx, input }) => getMemberMessage(ctx.db, ctx.session.id, input.id, ctx.session.verificationStatus)),
  /**
   * Opens a message and answers its body: costs unread_mail_view the first time another member's
   * message is opened, free otherwise (open.ts, decision 0027). Marks it read. A mutation: it charges.
   */
  open: paidProcedure("unread_mail_view")
    .input(messageIdInput)
    .mutation(async ({ ctx, input }) => {
      const result = await openMessage(ctx.db, ctx.charge, ctx.session, input.id);
      // Read now: the reader's unread count drops, and the sender's 送信 list shows it 既読.
      ctx.afterCommit(() => ctx.mailbox.publish([ctx.session.id, result.message.from.id]));
      return result;
    }),
  /**
   * The member's conversations (やりとり, decision 0030): one line per partner, newest activity
   * first, with the newest message (sealed as in the mailbox) and the partner's unread count.
   */
  conversations: memberProcedure
    .input(conversationListInput)
    .query(({ ctx, input }) =>
      listConversations(ctx.db, { id: ctx.session.id, verificationStatus: ctx.session.verificationStatus }, input),
    ),
  /** One conversation, paged backwards (`cursor`), with the member's scheduled messages to the partner. */
  thread: memberProcedure
    .input(threadInput)
    .query(({ ctx, input }) =>
      getThread(ctx.db, { id: ctx.session.id, verificationStatus: ctx.session.verificationStatus }, input),
    ),
  contacts: memberProcedure.query(({ ctx }) => listContacts(ctx.db, ctx.session.id)),
  unreadCount: memberProcedure.query(async ({ ctx }) => ({ count: await unreadCount(ctx.db, ctx.session.id) })),
  /**
   * The member's live stream (SSE; decision 0031): the unread count and the balance, now and after
   * every change (unread-and-balance.ts). The name is the one clients subscribe to.
   */
  onUnreadCount: memberProcedure.subscription(async function* ({ ctx, signal }) {
    yield* unreadAndBalance(ctx.db, ctx.mailbox, ctx.session.id, signal);
  }),
  /**
   * The recipient marks a received message read, or replied: a member, or an administrator on a
   * message addressed to them (the legacy client's calls after a send; spec §7). Anyone else's
   * message is NOT_FOUND. Marking read does not open: a sealed message stays sealed (decision 0027).
   */
  markRead: authedProcedure.input(messageIdInput).mutation(async ({ ctx, input }) => {
    const { fromUserId } = await markRead(ctx.db, ctx.session, input.id);
    ctx.mailbox.publish([ctx.session.id, fromUserId]);
    return { success: true as const };
  }),
  markReplied: authedProcedure.input(messageIdInput).mutation(async ({ ctx, input }) => {
    await markReplied(ctx.db, ctx.session.id, input.id);
    return { success: true as const };
  }),
});

/** Administrators: every message, sending, send-as-user, correction and deletion. */
export const adminMessagesRouter = router({
  list: adminProcedure.input(adminMessageListInput).query(({ ctx, input }) => listAdminMessages(ctx.db, input)),
  conversation: adminProcedure.input(conversationInput).query(({ ctx, input }) => conversation(ctx.db, input)),
  send: adminProcedure.input(adminSendInput).mutation(async ({ ctx, input }) => {
    const result = await sendAsAdmin(ctx.db, ctx.session.id, input);
    ctx.mailbox.publish(input.recipientIds);
    return result;
  }),
  sendAsUser: adminProcedure.input(sendAsUserInput).mutation(async ({ ctx, input }) => {
    const result = await sendAsUser(ctx.db, ctx.session.id, input);
    ctx.mailbox.publish([input.fromUserId, input.toUserId]);
    return result;
  }),
  update: adminProcedure.input(adminMessageUpdateInput).mutation(async ({ ctx, input }) => {
    ctx.mailbox.publish([await updateMessage(ctx.db, ctx.session.id, input)]);
    return { success: true as const };
  }),
  delete: adminProcedure.input(messageIdInput).mutation(async ({ ctx, input }) => {
    ctx.mailbox.publish([await deleteMessage(ctx.db, ctx.session.id, input.id)]);
    return { success: true as const };
  }),
});
