import { randomUUID } from "node:crypto";
import { compiledStatement, type Db, messages, rowsOf, sentAhead, users } from "@enmusubi/db";
import { type MemberSendInput, MSG, type VerificationStatus } from "@enmusubi/shared";
import { and, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import { AppError } from "../errors";
import type { ChargeBatch } from "../points/batch";
import type { Charge } from "../points/charge";
import { blockedBetween, pairKey } from "../safety/blocks";
import { holdMessages } from "../screening/holds";
import type { RuleSet } from "../screening/matcher";
import { recordRefusal, refuseIfRefused, ScreeningRefusal } from "../screening/screen";
import { isVerified } from "../verification/standing";
import type { Role } from "./message-rows";

/**
 * Writing messages: a member's send (one request, or a batch of scheduled sends) and the steps an
 * administrator's send shares with it (live recipients, the answered message, the insert).
 */

/** Live accounts among `ids`, with their roles; refuses any that is unknown or deleted. */
export async function liveRecipients(tx: Db, ids: string[]) {
  const rows = await tx
    .select({ id: users.id, role: users.role })
    .from(users)
    .where(and(inArray(users.id, ids), isNull(users.deletedAt)));
  if (rows.length !== ids.length) throw new AppError("BAD_REQUEST", MSG.recipientUnavailable);
  return rows;
}

/**
 * The message being answered: addressed to `senderId` and written by the one recipient. It is
 * marked replied, and read too when asked (answered from the unread list).
 */
export async function markAnswered(
  tx: Db,
  replyToId: string,
  senderId: string,
  recipientIds: string[],
  markRead: boolean,
) {
  const [original] = await tx
    .select({ fromUserId: messages.fromUserId })
    .from(messages)
    .where(and(eq(messages.id, replyToId), eq(messages.toUserId, senderId), isNull(messages.deletedAt)))
    .for("update");
  if (!original || recipientIds.length !== 1 || recipientIds[0] !== original.fromUserId) {
    throw new AppError("BAD_REQUEST", MSG.replyTargetInvalid);
  }
  await tx
    .update(messages)
    .set({ hasReply: true, ...(markRead ? { isRead: true, readAt: sql`coalesce(${messages.readAt}, now())` } : {}) })
    .where(eq(messages.id, replyToId));
}

export async function insertMessages(
  tx: Db,
  rows: Array<{ fromUserId: string; toUserId: string; body: string; replyToId?: string; sentByAdminId?: string }>,
): Promise<string[]> {
  const inserted = await tx.insert(messages).values(rows).returning({ id: messages.id });
  return inserted.map((r) => r.id);
}

/** What a member's send needs from the database: refused (and why), or how many recipients are paid. */
interface SendCheck {
  refusal: AppError | null;
  /** Member recipients (each costs send_message); writing to an administrator is free. */
  paid: number;
  /** Those member recipients. */
  members: Set<string>;
}

interface PairRow {
  sender: string;
  recipient: string;
  role: Role | null;
  status: VerificationStatus | null;
  blocked: boolean;
}

/** `checkMemberSends`' statement for the given `(sender, recipient)` rows. */
const pairsCheck = (pairs: SQL[]) =>
  sql`select v.sender, v.recipient, u.role, u.verification_status as status,
             ${blockedBetween(sql`v.sender`, sql`v.recipient`)} as blocked
      from (values ${sql.join(pairs, sql`, `)}) as v(sender, recipient)
      left join ${users} u on u.id = v.recipient and u.deleted_at is null and u.suspended_at is null`;

/** One pair, a member's usual send: its text made once (compiledStatement). */
const checkOnePair = compiledStatement<PairRow>(() =>
  pairsCheck([sql`(${sql.placeholder("sender")}::uuid, ${sql.placeholder("recipient")}::uuid)`]),
);

/** A member's message to one recipient (the usual send), its text made once: other columns take their defaults. */
const insertOneMessage = compiledStatement(
  () =>
    sql`insert into ${messages} (${sql.identifier(messages.id.name)}, ${sql.identifier(messages.fromUserId.name)}, ${sql.identifier(messages.toUserId.name)}, ${sql.identifier(messages.body.name)}, ${sql.identifier(messages.replyToId.name)})
        values (${sql.placeholder("id")}, ${sql.placeholder("fromUserId")}, ${sql.placeholder("toUserId")}, ${sql.placeholder("body")}, ${sql.placeholder("replyToId")})`,
);

/**
 * The rules of a member's send, for one send or a batch of them in the same two statements: not
 * to oneself, every recipient a live account that is not suspended (else NOT_FOUND, before
 * anything is charged: unknown, deleted and suspended alike, decision 0015), no block either way with
 * any of them, and every member recipient able to read members' messages — age verification
 * approved (else CONFLICT with `recipientCannotRead`, decision 0025; administrators always read).
 * A send to several is all or nothing, and its refusal names no one. Standing (a verified member,
 * not suspended) is the caller's: `verifiedProcedure` for a request, the dispatcher for a
 * scheduled entry.
 */
export async function checkMemberSends(
  tx: Db,
  sends: Array<{ senderId: string; recipientIds: string[] }>,
): Promise<SendCheck[]> {
  // Every (sender, recipient) pair in one statement: the recipient's role when live, and any block.
  const pairs = sends.flatMap((s) => s.recipientIds.map((id) => ({ sender: s.senderId, recipient: id })));
  const [one] = pairs;
  const rows =
    pairs.length === 0
      ? []
      : pairs.length === 1 && one
        ? await checkOnePair(tx, one)
        : await rowsOf<PairRow>(tx, pairsCheck(pairs.map((p) => sql`(${p.sender}::uuid, ${p.recipient}::uuid)`)));
  const live = new Map<string, Role>();
  const blocked = new Set<string>();
  // Member recipients who may not read members' messages (decision 0006): writing to them is refused.
  const cannotRead = new Set<string>();
  for (const row of rows) {
    if (row.role) live.set(row.recipient, row.role);
    if (row.role === "user" && row.status && !isVerified(row.status)) cannotRead.add(row.recipient);
    if (row.blocked) blocked.add(pairKey(row.sender, row.recipient));
  }
  const none = new Set<string>();
  return sends.map((s) => {
    if (s.recipientIds.includes(s.senderId))
      return { refusal: new AppError("BAD_REQUEST", MSG.cannotMessageSelf), paid: 0, members: none };
    if (!s.recipientIds.every((id) => live.has(id)))
      return { refusal: new AppError("NOT_FOUND", MSG.recipientUnavailable), paid: 0, members: none };
    if (s.recipientIds.some((id) => blocked.has(pairKey(s.senderId, id))))
      return { refusal: new AppError("FORBIDDEN", MSG.blockedEitherWay), paid: 0, members: none };
    if (s.recipientIds.some((id) => cannotRead.has(id)))
      return { refusal: new AppError("CONFLICT", MSG.recipientCannotRead), paid: 0, members: none };
    const members = new Set(s.recipientIds.filter((id) => live.get(id) === "user"));
    return { refusal: null, paid: members.size, members };
  });
}

/**
 * A member writes to one or several accounts, inside the paid procedure's transaction: each
 * member recipient costs `send_message` (one charge of cost × count, all or nothing); writing to
 * an administrator is free. A refusal comes before anything is written or charged. The body is
 * screened first (decision 0042; not when every recipient is an administrator): a `refuse` rule
 * refuses it, a `mask` rule delivers it masked, and a `hold` rule charges it as usual but keeps it
 * for an administrator (`status: "held"`, no message written: the sender sees 「確認中」).
 */
export async function sendAsMember(tx: Db, charge: Charge, senderId: string, input: MemberSendInput, rules: RuleSet) {
  const [check] = await checkMemberSends(tx, [{ senderId, recipientIds: input.recipientIds }]);
  if (!check || check.refusal) throw check?.refusal ?? new Error("no send check");
  const screened = check.paid > 0 ? rules.screen(input.body) : null;
  if (screened) refuseIfRefused(screened, senderId, "message");
  const body = screened?.text ?? input.body;
  if (input.replyToId) await markAnswered(tx, input.replyToId, senderId, input.recipientIds, input.markRead);
  const ids: string[] = input.recipientIds.map(() => randomUUID());
  if (screened?.action === "hold") {
    const result = await charge({ quantity: check.paid, reference: ids[0] });
    const unit = check.paid > 0 ? result.required / check.paid : 0;
    await holdMessages(tx, {
      authorId: senderId,
      body,
      replyToId: input.replyToId,
      held: input.recipientIds.map((recipientId, i) => ({
        id: ids[i] as string,
        recipientId,
        chargedPoints: check.members.has(recipientId) ? unit : 0,
      })),
      chargeReference: ids[0] as string,
      matches: screened.matches,
      category: screened.category,
    });
    return {
      messageIds: [] as string[],
      status: "held" as const,
      sent: 0,
      cost: result.required,
      remainingPoints: result.remainingPoints,
    };
  }
  // Sent ahead: the charge follows the insert in the same write (the ids are made here for that).
  const [only] = input.recipientIds;
  const inserted = sentAhead(
    input.recipientIds.length === 1 && only
      ? insertOneMessage(tx, {
          id: ids[0],
          fromUserId: senderId,
          toUserId: only,
          body,
          replyToId: input.replyToId ?? null,
        })
      : tx.insert(messages).values(
          input.recipientIds.map((toUserId, i) => ({
            id: ids[i],
            fromUserId: senderId,
            toUserId,
            body,
            ...(input.replyToId ? { replyToId: input.replyToId } : {}),
          })),
        ),
  );
  const result = await charge({ quantity: check.paid, reference: ids[0] });
  await inserted;
  return {
    messageIds: ids,
    status: "sent" as const,
    sent: ids.length,
    cost: result.required,
    remainingPoints: result.remainingPoints,
  };
}

/**
 * Many members' sends (not replies) at once, in the caller's transaction and a fixed number of
 * statements: the rules of `sendAsMember` (`checkMemberSends`), the charges of `payBatch`
 * (`chargeBatch` bound by the caller to send_message: the batch half of the charging pair, the same
 * rules as the paid procedure's charge, in order, each whole or refused), one INSERT of every
 * message. Answers, per send, its message ids or the error a request would have been
 * given; a refused send writes and charges nothing. The scheduled-message dispatcher's path.
 */
export async function sendManyAsMembers(
  tx: Db,
  payBatch: ChargeBatch,
  sends: Array<{ senderId: string; recipientIds: string[]; body: string }>,
  rules: RuleSet,
): Promise<Array<{ messageIds: string[]; held: boolean } | AppError>> {
  const checks = await checkMemberSends(tx, sends);
  // Screened as a request's send is (sendAsMember): refused ones leave here, before any charge.
  const screened = sends.map((s, i) => ((checks[i]?.paid ?? 0) > 0 ? rules.screen(s.body) : null));
  for (const [i, one] of screened.entries()) {
    const check = checks[i];
    if (check && !check.refusal && one?.action === "refuse") {
      check.refusal = new ScreeningRefusal(
        (sends[i] as (typeof sends)[number]).senderId,
        one.category ?? "other",
        "scheduled",
      );
      await recordRefusal(tx, check.refusal as ScreeningRefusal);
    }
  }
  const ids = sends.map((s) => s.recipientIds.map(() => randomUUID()));
  const open = checks.flatMap((check, index) => (check.refusal ? [] : [index]));
  const charges = await payBatch(
    open.map((index) => ({
      userId: (sends[index] as (typeof sends)[number]).senderId,
      quantity: checks[index]?.paid ?? 0,
      reference: ids[index]?.[0],
    })),
  );
  const results: Array<{ messageIds: string[]; held: boolean } | AppError> = checks.map(
    (c) => c.refusal ?? { messageIds: [], held: false },
  );
  const rows: Array<typeof messages.$inferInsert> = [];
  for (const [n, index] of open.entries()) {
    const charged = charges[n];
    const send = sends[index] as (typeof sends)[number];
    const check = checks[index] as SendCheck;
    if (charged instanceof AppError) {
      results[index] = charged;
      continue;
    }
    const messageIds = ids[index] as string[];
    const one = screened[index];
    const body = one?.text ?? send.body;
    if (one?.action === "hold") {
      const unit = check.paid > 0 ? (charged?.required ?? 0) / check.paid : 0;
      await holdMessages(tx, {
        authorId: send.senderId,
        body,
        held: send.recipientIds.map((recipientId, r) => ({
          id: messageIds[r] as string,
          recipientId,
          chargedPoints: check.members.has(recipientId) ? unit : 0,
        })),
        chargeReference: messageIds[0] as string,
        matches: one.matches,
        category: one.category,
      });
      results[index] = { messageIds: [], held: true };
      continue;
    }
    results[index] = { messageIds, held: false };
    send.recipientIds.forEach((toUserId, r) => {
      rows.push({ id: messageIds[r], fromUserId: send.senderId, toUserId, body });
    });
  }
  if (rows.length > 0) await tx.insert(messages).values(rows);
  return results;
}
