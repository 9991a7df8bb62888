import { type Db, type ScreeningMatchRecord, screeningEvents, screeningHolds, users } from "@enmusubi/db";
import {
  pageOffset,
  SCREENING_FLAG_COUNT,
  SCREENING_FLAG_HOURS,
  SCREENING_PAGE_SIZE,
  type ScreeningHoldKind,
  type ScreeningHoldStatus,
  type ScreeningQueueInput,
  screeningQueueInput,
} from "@enmusubi/shared";
import { and, asc, desc, eq, ne, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { cappedCount } from "../lists/capped-count";
import { pagesFor } from "../lists/pages";

/** 「投稿・メッセージ確認」: what a hold rule kept back, for administrators (decision 0042). */

export interface QueuePerson {
  id: string;
  userID: string;
  name: string | null;
}

export interface HeldItem {
  id: string;
  kind: ScreeningHoldKind;
  status: ScreeningHoldStatus;
  author: QueuePerson;
  /** A message's recipient; null for a board post. */
  recipient: QueuePerson | null;
  title: string | null;
  body: string;
  matches: ScreeningMatchRecord[];
  chargedPoints: number;
  createdAt: Date;
  decidedAt: Date | null;
  reason: string | null;
  /** The author's holds and refusals in the last SCREENING_FLAG_HOURS hours. */
  recentScreenings: number;
  /** `recentScreenings` reached SCREENING_FLAG_COUNT: the queue flags the author. */
  flagged: boolean;
}

const recipients = alias(users, "recipient");

/** The queue: held items oldest first, or decided ones newest decision first; paged on the server. */
export async function listHeld(db: Db, raw: ScreeningQueueInput) {
  const input = screeningQueueInput.parse(raw);
  const where = and(
    input.status === "held" ? eq(screeningHolds.status, "held") : ne(screeningHolds.status, "held"),
    input.kind ? eq(screeningHolds.kind, input.kind) : undefined,
  );
  const { total, totalCapped } = await cappedCount(db, screeningHolds, where, input.page * SCREENING_PAGE_SIZE + 1000);
  const order =
    input.status === "held"
      ? [asc(screeningHolds.createdAt), asc(screeningHolds.id)]
      : [desc(screeningHolds.decidedAt), desc(screeningHolds.id)];
  const rows = await db
    .select({
      hold: screeningHolds,
      authorUserID: users.userId,
      authorName: users.name,
      recipientUserID: recipients.userId,
      recipientName: recipients.name,
      recent: sql<number>`(select count(*)::int from ${screeningEvents} e
        where e.user_id = ${screeningHolds.authorId}
          and e.created_at > now() - make_interval(hours => ${SCREENING_FLAG_HOURS}))`,
    })
    .from(screeningHolds)
    .innerJoin(users, eq(users.id, screeningHolds.authorId))
    .leftJoin(recipients, eq(recipients.id, screeningHolds.recipientId))
    .where(where)
    .orderBy(...order)
    .limit(SCREENING_PAGE_SIZE)
    .offset(pageOffset(input.page, SCREENING_PAGE_SIZE));
  const items: HeldItem[] = rows.map(({ hold, ...r }) => ({
    id: hold.id,
    kind: hold.kind,
    status: hold.status,
    author: { id: hold.authorId, userID: r.authorUserID, name: r.authorName },
    recipient:
      hold.recipientId && r.recipientUserID
        ? { id: hold.recipientId, userID: r.recipientUserID, name: r.recipientName }
        : null,
    title: hold.title,
    body: hold.body,
    matches: hold.matches,
    chargedPoints: hold.chargedPoints,
    createdAt: hold.createdAt,
    decidedAt: hold.decidedAt,
    reason: hold.reason,
    recentScreenings: r.recent,
    flagged: r.recent >= SCREENING_FLAG_COUNT,
  }));
  return {
    items,
    pagination: {
      total,
      totalCapped,
      totalPages: pagesFor(total, totalCapped, SCREENING_PAGE_SIZE),
      currentPage: input.page,
      limit: SCREENING_PAGE_SIZE,
    },
  };
}
