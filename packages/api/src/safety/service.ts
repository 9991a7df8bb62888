import {
  boardPosts,
  type Db,
  favorites,
  messages,
  reports,
  rowsOf,
  scheduledMessages,
  userBlocks,
  users,
} from "@enmusubi/db";
import {
  MODERATION_PAGE_SIZE,
  type ModerationQueueInput,
  MSG,
  moderationQueueInput,
  type ReportInput,
  type ReportReason,
  type ReportStatus,
  type ReportTargetType,
  reportInput,
} from "@enmusubi/shared";
import { and, asc, desc, eq, inArray, isNull, or, type SQL, sql } from "drizzle-orm";
import { writeAudit } from "../audit/audit-log";
import { AppError, isUniqueViolation } from "../errors";
import { cappedCount, LIST_COUNT_CAP, pagesFor } from "../lists/capped-count";
import { enqueueMail } from "../mail/outbox";
import { type PublicProfile, selectPublicProfiles, toPublicProfile } from "../members/public-profile";
import { enforceRateLimit, RATE_LIMITS, type RateLimiter } from "../security/rate-limit";

/** A reported member's recent reports are counted up to this many on the moderation queue. */
export const RECENT_REPORTS_CAP = 100;

/**
 * Blocking, reports and moderation (出会い系サイト規制法 art. 12: the operator removes content
 * that solicits minors). Members block and report; administrators handle reports from a queue
 * (dismiss, remove the content, suspend the member) and suspend or reinstate accounts. Every
 * administrator action is audited in its own transaction, and each reporter is told the outcome
 * in general terms by mail (never what was done to whom).
 */

/** The blocked list shows this many at most (the newest). */
export const BLOCK_LIST_MAX = 500;

// ---- blocking ------------------------------------------------------------------------------

/** The account `otherId` as a member may address it for a block: self and administrators refused. */
async function blockTarget(db: Db, memberId: string, otherId: string) {
  if (otherId === memberId) throw new AppError("BAD_REQUEST", MSG.blockSelf);
  const [other] = await db
    .select({ id: users.id, role: users.role, deletedAt: users.deletedAt })
    .from(users)
    .where(eq(users.id, otherId));
  if (other?.role === "admin") throw new AppError("BAD_REQUEST", MSG.blockAdmin);
  return other;
}

/**
 * Blocks a member; blocking again changes nothing. The blocker's favourite of that member is
 * removed in the same transaction (a block ends the contact; unblocking does not bring it back).
 * Unknown or deleted members are NOT_FOUND.
 */
export async function blockMember(db: Db, blockerId: string, blockedId: string): Promise<{ success: true }> {
  return db.transaction(async (tx) => {
    const other = await blockTarget(tx, blockerId, blockedId);
    if (!other || other.deletedAt) throw new AppError("NOT_FOUND", MSG.notFound);
    await tx.insert(userBlocks).values({ blockerId, blockedId }).onConflictDoNothing();
    await tx.delete(favorites).where(and(eq(favorites.userId, blockerId), eq(favorites.favoriteUserId, blockedId)));
    return { success: true as const };
  });
}

/** Lifts a block; lifting one that is not there changes nothing (a deleted member's block too). */
export async function unblockMember(db: Db, blockerId: string, blockedId: string): Promise<{ success: true }> {
  await blockTarget(db, blockerId, blockedId);
  await db.delete(userBlocks).where(and(eq(userBlocks.blockerId, blockerId), eq(userBlocks.blockedId, blockedId)));
  return { success: true };
}

/** The members I blocked (live ones, public shape), most recent block first. */
export async function listBlocked(db: Db, blockerId: string): Promise<Array<PublicProfile & { blockedAt: Date }>> {
  const blocks = await db
    .select({ id: userBlocks.blockedId, blockedAt: userBlocks.createdAt })
    .from(userBlocks)
    .where(eq(userBlocks.blockerId, blockerId))
    .orderBy(desc(userBlocks.createdAt), desc(userBlocks.blockedId))
    .limit(BLOCK_LIST_MAX);
  if (blocks.length === 0) return [];
  const profiles = new Map(
    // A suspended member I blocked stays on my list (I may still lift the block).
    (
      await selectPublicProfiles(
        db,
        inArray(
          users.id,
          blocks.map((b) => b.id),
        ),
        { includeSuspended: true },
      )
    ).map((p) => [p.id, toPublicProfile(p)]),
  );
  return blocks.flatMap((b) => {
    const profile = profiles.get(b.id);
    return profile ? [{ ...profile, blockedAt: b.blockedAt }] : [];
  });
}

// ---- reports (members) ---------------------------------------------------------------------

/**
 * The member answerable for what `reporterId` reports, if the reporter can see it: a live member
 * (not oneself), a message the reporter received (one's own messages and the operator's are
 * refused), a live board post by another member. Anything else is NOT_FOUND.
 */
async function reportedMember(db: Db, reporterId: string, type: ReportTargetType, targetId: string): Promise<string> {
  let authorId: string | undefined;
  let authorRole: "user" | "admin" | undefined;
  if (type === "member") {
    // A suspended member may still be reported (what they did is still there to look at).
    const [row] = await selectPublicProfiles(db, eq(users.id, targetId), { includeSuspended: true });
    authorId = row?.id;
    authorRole = row ? "user" : undefined;
  } else if (type === "message") {
    const [row] = await db
      .select({ fromUserId: messages.fromUserId, role: users.role })
      .from(messages)
      .innerJoin(users, eq(users.id, messages.fromUserId))
      .where(
        and(
          eq(messages.id, targetId),
          isNull(messages.deletedAt),
          or(eq(messages.toUserId, reporterId), eq(messages.fromUserId, reporterId)),
        ),
      );
    authorId = row?.fromUserId;
    authorRole = row?.role;
  } else {
    const [row] = await db
      .select({ authorId: boardPosts.authorId, role: users.role })
      .from(boardPosts)
      .innerJoin(users, eq(users.id, boardPosts.authorId))
      .where(and(eq(boardPosts.id, targetId), isNull(boardPosts.deletedAt)));
    authorId = row?.authorId;
    authorRole = row?.role;
  }
  if (!authorId) throw new AppError("NOT_FOUND", MSG.notFound);
  if (authorId === reporterId) throw new AppError("BAD_REQUEST", MSG.reportSelf);
  if (authorRole !== "user") throw new AppError("BAD_REQUEST", MSG.reportAdmin);
  return authorId;
}

/**
 * A member reports a member, a message or a board post; one open report per reporter and target.
 * Each attempt counts against the reporter's hourly and daily allowance (RATE_LIMITS), first.
 */
export async function createReport(
  { db, limiter }: { db: Db; limiter: RateLimiter },
  reporterId: string,
  raw: ReportInput,
) {
  const input = reportInput.parse(raw);
  await enforceRateLimit(
    limiter,
    [
      [`report:hour:${reporterId}`, RATE_LIMITS.reportPerMemberHour],
      [`report:day:${reporterId}`, RATE_LIMITS.reportPerMemberDay],
    ],
    MSG.reportTooMany,
  );
  const targetUserId = await reportedMember(db, reporterId, input.targetType, input.targetId);
  try {
    const [row] = await db
      .insert(reports)
      .values({
        reporterId,
        targetType: input.targetType,
        targetId: input.targetId,
        targetUserId,
        reason: input.reason,
        detail: input.detail ?? null,
      })
      .returning({ id: reports.id });
    return { success: true as const, id: row?.id as string, message: MSG.reportDone };
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("CONFLICT", MSG.reportDuplicate, { cause: error });
    throw error;
  }
}

// ---- moderation (administrators) -----------------------------------------------------------

export interface ModerationParty {
  id: string;
  userID: string;
  name: string | null;
  role: "user" | "admin";
  suspendedAt: Date | null;
  deleted: boolean;
}

export type ReportContext =
  | {
      type: "message";
      body: string;
      createdAt: Date;
      removed: boolean;
      from: ModerationParty;
      to: ModerationParty;
    }
  | { type: "board_post"; title: string; content: string; createdAt: Date; removed: boolean; author: ModerationParty }
  | { type: "member"; profile: PublicProfile | null }
  /** The reported row no longer exists at all. */
  | { type: "missing" };

export interface ModerationReport {
  id: string;
  targetType: ReportTargetType;
  targetId: string;
  reason: ReportReason;
  detail: string | null;
  status: ReportStatus;
  createdAt: Date;
  reporter: ModerationParty;
  targetUser: ModerationParty;
  /** Reports against the same member in the last REPORT_HISTORY_DAYS days (this one included). */
  recentReportsAgainstUser: number;
  /** More than RECENT_REPORTS_CAP recent reports ("100件以上"). */
  recentReportsCapped: boolean;
  context: ReportContext;
  handledBy: { id: string; name: string | null } | null;
  handledAt: Date | null;
  handledNote: string | null;
}

export const REPORT_HISTORY_DAYS = 90;

const partyColumns = {
  id: users.id,
  userID: users.userId,
  name: users.name,
  role: users.role,
  suspendedAt: users.suspendedAt,
  deletedAt: users.deletedAt,
};

async function partiesById(db: Db, ids: string[]): Promise<Map<string, ModerationParty>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db.select(partyColumns).from(users).where(inArray(users.id, unique));
  return new Map(rows.map(({ deletedAt, ...r }) => [r.id, { ...r, deleted: deletedAt !== null }]));
}

const unknownParty = (id: string): ModerationParty => ({
  id,
  userID: "",
  name: null,
  role: "user",
  suspendedAt: null,
  deleted: true,
});

/**
 * The moderation queue: open reports oldest first (the longest waiting on top); handled ones
 * most recently handled first. Each report carries its content in context, removed or not.
 */
export async function moderationQueue(db: Db, raw: ModerationQueueInput) {
  const input = moderationQueueInput.parse(raw);
  const where = eq(reports.status, input.status);
  const order =
    input.status === "open" ? [asc(reports.createdAt), asc(reports.id)] : [desc(reports.handledAt), desc(reports.id)];
  // The count stops at the cap (issue 14; the screen says "1,000件以上"), not at every report.
  const { total, totalCapped } = await cappedCount(
    db,
    reports,
    where,
    Math.max(LIST_COUNT_CAP, input.page * MODERATION_PAGE_SIZE),
  );
  const rows = await db
    .select()
    .from(reports)
    .where(where)
    .orderBy(...order)
    .limit(MODERATION_PAGE_SIZE)
    .offset((input.page - 1) * MODERATION_PAGE_SIZE);

  const idsOf = (type: ReportTargetType) => rows.filter((r) => r.targetType === type).map((r) => r.targetId);
  const messageIds = idsOf("message");
  const postIds = idsOf("board_post");
  const memberIds = idsOf("member");
  const messageRows =
    messageIds.length === 0 ? [] : await db.select().from(messages).where(inArray(messages.id, messageIds));
  const postRows =
    postIds.length === 0 ? [] : await db.select().from(boardPosts).where(inArray(boardPosts.id, postIds));
  const profiles = new Map(
    memberIds.length === 0
      ? []
      : (await selectPublicProfiles(db, inArray(users.id, memberIds), { includeSuspended: true })).map((p) => [
          p.id,
          toPublicProfile(p),
        ]),
  );
  const parties = await partiesById(db, [
    ...rows.flatMap((r) => [r.reporterId, r.targetUserId, ...(r.handledBy ? [r.handledBy] : [])]),
    ...messageRows.flatMap((m) => [m.fromUserId, m.toUserId]),
    ...postRows.map((p) => p.authorId),
  ]);
  const party = (id: string) => parties.get(id) ?? unknownParty(id);
  const targetUserIds = [...new Set(rows.map((r) => r.targetUserId))];
  // Each reported member's recent reports, counted no further than RECENT_REPORTS_CAP (issue 14:
  // a member reported thousands of times must not make every queue page count them all).
  const recent = new Map<string, number>();
  if (targetUserIds.length > 0) {
    const counted = await rowsOf<{ id: string; n: number }>(
      db,
      sql`
      select t.id::text as id,
             (select count(*)::int from (
                select 1 from ${reports} r
                where r.target_user_id = t.id
                  and r.created_at >= now() - make_interval(days => ${REPORT_HISTORY_DAYS})
                limit ${RECENT_REPORTS_CAP + 1}) capped) as n
      from unnest(array[${sql.join(
        targetUserIds.map((id) => sql`${id}`),
        sql`, `,
      )}]::uuid[]) as t(id)`,
    );
    for (const r of counted) recent.set(r.id, Number(r.n));
  }
  const messagesById = new Map(messageRows.map((m) => [m.id, m]));
  const postsById = new Map(postRows.map((p) => [p.id, p]));

  const contextOf = (r: (typeof rows)[number]): ReportContext => {
    if (r.targetType === "message") {
      const m = messagesById.get(r.targetId);
      if (!m) return { type: "missing" };
      return {
        type: "message",
        body: m.body,
        createdAt: m.createdAt,
        removed: m.deletedAt !== null,
        from: party(m.fromUserId),
        to: party(m.toUserId),
      };
    }
    if (r.targetType === "board_post") {
      const p = postsById.get(r.targetId);
      if (!p) return { type: "missing" };
      return {
        type: "board_post",
        title: p.title,
        content: p.content,
        createdAt: p.createdAt,
        removed: p.deletedAt !== null,
        author: party(p.authorId),
      };
    }
    return { type: "member", profile: profiles.get(r.targetId) ?? null };
  };

  const items: ModerationReport[] = rows.map((r) => ({
    id: r.id,
    targetType: r.targetType,
    targetId: r.targetId,
    reason: r.reason,
    detail: r.detail,
    status: r.status,
    createdAt: r.createdAt,
    reporter: party(r.reporterId),
    targetUser: party(r.targetUserId),
    recentReportsAgainstUser: Math.min(recent.get(r.targetUserId) ?? 0, RECENT_REPORTS_CAP),
    recentReportsCapped: (recent.get(r.targetUserId) ?? 0) > RECENT_REPORTS_CAP,
    context: contextOf(r),
    handledBy: r.handledBy ? { id: r.handledBy, name: party(r.handledBy).name } : null,
    handledAt: r.handledAt,
    handledNote: r.handledNote,
  }));
  return {
    reports: items,
    total,
    page: input.page,
    limit: MODERATION_PAGE_SIZE,
    totalCapped,
    totalPages: pagesFor(total, totalCapped, MODERATION_PAGE_SIZE),
  };
}

/** The open report `id`, locked for this transaction; a handled one is CONFLICT, none NOT_FOUND. */
async function lockOpenReport(tx: Db, id: string) {
  const [row] = await tx.select().from(reports).where(eq(reports.id, id)).for("update");
  if (!row) throw new AppError("NOT_FOUND", MSG.notFound);
  if (row.status !== "open") throw new AppError("CONFLICT", MSG.reportAlreadyHandled);
  return row;
}

const OUTCOME_TEXT = {
  acted: "ご報告いただいた内容を確認し、対応いたしました。",
  noViolation: "確認の結果、規約違反は確認されませんでした。",
} as const;

/** Tells each reporter the outcome in general terms (never what was done to whom), through the outbox. */
async function mailReporters(tx: Db, reporterIds: string[], outcome: keyof typeof OUTCOME_TEXT, publicUrl: string) {
  const unique = [...new Set(reporterIds)];
  if (unique.length === 0) return;
  const rows = await tx
    .select({ email: users.email })
    .from(users)
    .where(and(inArray(users.id, unique), isNull(users.deletedAt)));
  for (const r of rows) {
    await enqueueMail(tx, {
      to: r.email,
      subject: "【縁結び】ご報告への対応について",
      text: [
        "縁結びをご利用いただきありがとうございます。",
        "",
        OUTCOME_TEXT[outcome],
        "個別の対応内容についてはお答えできませんので、ご了承ください。",
        "",
        "今後も安心してご利用いただけるよう努めてまいります。",
        `縁結び: ${publicUrl}`,
        "",
        "縁結び (Enmusubi)",
      ].join("\n"),
    });
  }
}

/** Closes the open reports matching `where` as `status`; answers their ids and reporters. */
async function closeReports(tx: Db, where: SQL, status: Exclude<ReportStatus, "open">, adminId: string, note?: string) {
  return tx
    .update(reports)
    .set({ status, handledBy: adminId, handledAt: sql`now()`, ...(note ? { handledNote: note } : {}) })
    .where(and(eq(reports.status, "open"), where))
    .returning({ id: reports.id, reporterId: reports.reporterId });
}

export interface ModerationDeps {
  db: Db;
  publicUrl: string;
}

/** No violation found: the report (only this one) is closed and its reporter told so. */
export async function dismissReport(
  deps: ModerationDeps,
  adminId: string,
  input: { id: string; note?: string | undefined },
) {
  return deps.db.transaction(async (tx) => {
    const report = await lockOpenReport(tx, input.id);
    const closed = await closeReports(tx, eq(reports.id, report.id), "dismissed", adminId, input.note);
    await writeAudit(tx, {
      adminId,
      action: "report.dismiss",
      targetType: "report",
      targetId: report.id,
      details: { status: { from: "open", to: "dismissed" }, note: input.note ?? null },
    });
    await mailReporters(
      tx,
      closed.map((c) => c.reporterId),
      "noViolation",
      deps.publicUrl,
    );
    return { success: true as const };
  });
}

/**
 * Removes the reported message or board post (soft delete: it leaves every list, the message for
 * both members) and closes every open report on it. A report about a member has nothing to remove.
 * Answers the members whose mailboxes changed (for live unread counts).
 */
export async function removeReportedContent(deps: ModerationDeps, adminId: string, id: string) {
  return deps.db.transaction(async (tx) => {
    const report = await lockOpenReport(tx, id);
    let mailboxes: string[] = [];
    let removed: Record<string, unknown> | null = null;
    if (report.targetType === "member") throw new AppError("BAD_REQUEST", MSG.reportNothingToRemove);
    if (report.targetType === "message") {
      const [row] = await tx
        .update(messages)
        .set({ deletedAt: sql`now()` })
        .where(and(eq(messages.id, report.targetId), isNull(messages.deletedAt)))
        .returning({ fromUserId: messages.fromUserId, toUserId: messages.toUserId, body: messages.body });
      if (row) {
        mailboxes = [row.fromUserId, row.toUserId];
        removed = row;
      }
    } else {
      const [row] = await tx
        .update(boardPosts)
        .set({ deletedAt: sql`now()` })
        .where(and(eq(boardPosts.id, report.targetId), isNull(boardPosts.deletedAt)))
        .returning({ authorId: boardPosts.authorId, title: boardPosts.title, content: boardPosts.content });
      removed = row ?? null;
    }
    const closed = await closeReports(
      tx,
      and(eq(reports.targetType, report.targetType), eq(reports.targetId, report.targetId)) as SQL,
      "removed",
      adminId,
    );
    await writeAudit(tx, {
      adminId,
      action: "report.removeContent",
      targetType: report.targetType,
      targetId: report.targetId,
      // Already gone (deleted elsewhere first): the reports are still closed as removed.
      details: { reportIds: closed.map((c) => c.id), targetUserId: report.targetUserId, removed },
    });
    await mailReporters(
      tx,
      closed.map((c) => c.reporterId),
      "acted",
      deps.publicUrl,
    );
    return { success: true as const, mailboxes };
  });
}

/**
 * Suspends an account: no login, and every token it holds stops at once (token_version bumped;
 * resolveSession also refuses suspended accounts). Its pending scheduled messages are cancelled
 * (the dispatcher sends as the owner without a token). Administrators cannot be suspended.
 */
async function suspendAccount(tx: Db, adminId: string, userId: string, reason: string, reportId?: string) {
  const [user] = await tx
    .select({ id: users.id, role: users.role, suspendedAt: users.suspendedAt })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)))
    .for("update");
  if (!user) throw new AppError("NOT_FOUND", MSG.notFound);
  if (user.role === "admin") throw new AppError("BAD_REQUEST", MSG.suspendAdmin);
  const [after] = await tx
    .update(users)
    .set({ suspendedAt: user.suspendedAt ?? sql`now()`, tokenVersion: sql`${users.tokenVersion} + 1` })
    .where(eq(users.id, userId))
    .returning({ suspendedAt: users.suspendedAt });
  const cancelled = await tx
    .update(scheduledMessages)
    .set({ status: "cancelled" })
    .where(and(eq(scheduledMessages.ownerId, userId), eq(scheduledMessages.status, "pending")))
    .returning({ id: scheduledMessages.id });
  await writeAudit(tx, {
    adminId,
    action: "user.suspend",
    targetType: "user",
    targetId: userId,
    details: {
      suspendedAt: { from: user.suspendedAt, to: after?.suspendedAt ?? null },
      reason,
      reportId: reportId ?? null,
      cancelledScheduled: cancelled.length,
    },
  });
}

export async function suspendMember(deps: ModerationDeps, adminId: string, input: { userId: string; reason: string }) {
  await deps.db.transaction((tx) => suspendAccount(tx, adminId, input.userId, input.reason));
  return { success: true as const, message: MSG.suspendDone };
}

/** Reinstates a suspended account (its old tokens stay invalid: the member logs in again). */
export async function unsuspendMember(deps: ModerationDeps, adminId: string, input: { userId: string }) {
  return deps.db.transaction(async (tx) => {
    const [user] = await tx
      .select({ id: users.id, role: users.role, suspendedAt: users.suspendedAt })
      .from(users)
      .where(and(eq(users.id, input.userId), isNull(users.deletedAt)))
      .for("update");
    if (!user) throw new AppError("NOT_FOUND", MSG.notFound);
    if (user.role === "admin") throw new AppError("BAD_REQUEST", MSG.suspendAdmin);
    if (user.suspendedAt) {
      await tx.update(users).set({ suspendedAt: null }).where(eq(users.id, user.id));
      await writeAudit(tx, {
        adminId,
        action: "user.unsuspend",
        targetType: "user",
        targetId: user.id,
        details: { suspendedAt: { from: user.suspendedAt, to: null } },
      });
    }
    return { success: true as const, message: MSG.unsuspendDone };
  });
}

/** Suspends the member a report is about and closes every open report against that member. */
export async function suspendReportedMember(deps: ModerationDeps, adminId: string, id: string) {
  return deps.db.transaction(async (tx) => {
    const report = await lockOpenReport(tx, id);
    await suspendAccount(tx, adminId, report.targetUserId, `報告 ${report.id} への対応`, report.id);
    const closed = await closeReports(tx, eq(reports.targetUserId, report.targetUserId), "suspended", adminId);
    await writeAudit(tx, {
      adminId,
      action: "report.suspend",
      targetType: "report",
      targetId: report.id,
      details: { reportIds: closed.map((c) => c.id), targetUserId: report.targetUserId },
    });
    await mailReporters(
      tx,
      closed.map((c) => c.reporterId),
      "acted",
      deps.publicUrl,
    );
    return { success: true as const, suspendedUserId: report.targetUserId };
  });
}

/** Which of `userIds` are suspended now (the user management row menu offers the matching action). */
export async function suspendedAmong(db: Db, userIds: string[]) {
  if (userIds.length === 0) return [];
  const rows = await db
    .select({ id: users.id, suspendedAt: users.suspendedAt })
    .from(users)
    .where(and(inArray(users.id, userIds), sql`${users.suspendedAt} is not null`));
  return rows.map((r) => ({ id: r.id, suspendedAt: r.suspendedAt as Date }));
}
