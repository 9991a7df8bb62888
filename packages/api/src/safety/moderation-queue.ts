import { boardPosts, type Db, messages, reports, rowsOf, users } from "@enmusubi/db";
import {
  MODERATION_PAGE_SIZE,
  type ModerationQueueInput,
  moderationQueueInput,
  pageOffset,
  type ReportReason,
  type ReportStatus,
  type ReportTargetType,
} from "@enmusubi/shared";
import { asc, desc, eq, inArray, sql } from "drizzle-orm";
import { cappedCount, LIST_COUNT_CAP } from "../lists/capped-count";
import { pagesFor } from "../lists/pages";
import { type PublicProfile, selectPublicProfiles, toPublicProfile } from "../members/public-profile";

/** The administrators' moderation queue (decision 0009): each report with its content and the reported member's record. */

/** A reported member's recent reports are counted up to this many on the moderation queue. */
export const RECENT_REPORTS_CAP = 100;

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
  // The count stops at the cap (decision 0011; the screen says "1,000件以上"), not at every report.
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
    .offset(pageOffset(input.page, MODERATION_PAGE_SIZE));

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
  // Each reported member's recent reports, counted no further than RECENT_REPORTS_CAP (decision 0011:
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
