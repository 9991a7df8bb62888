import { type Db, inquiries, inquiryReplies, users } from "@enmusubi/db";
import {
  type AdminInquiryListInput,
  adminInquiryListInput,
  type InquiryCreateInput,
  type InquiryListInput,
  type InquiryReplyInput,
  inquiryListInput,
  pageOffset,
} from "@enmusubi/shared";
import { and, asc, count, desc, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import { writeAudit } from "../audit/audit-log";
import { notFound } from "../errors";
import { cappedCount, LIST_COUNT_CAP } from "../lists/capped-count";
import { pagesFor } from "../lists/pages";
import { enqueueMail } from "../mail/outbox";
import { inquiryRepliedMail } from "../mail/templates";

/**
 * Support inquiries (spec §2 inquiry screens, §3, §4, §5, §7). A member writes to the support desk,
 * sees and deletes only their own inquiries (anyone else's is NOT_FOUND) and is told of a reply by
 * mail and by an unread marker in the history; administrators list every inquiry, mark them read
 * and reply. Deletion is soft (`deleted_at`): the desk's replies stay on record for the operator.
 */

export interface InquiryReply {
  id: string;
  reply: string;
  createdAt: Date;
  /**
   * The administrator who answered. Members never see an administrator's login ID (it is half of a
   * credential; decision 0002), so `userID` is null in their view.
   */
  admin: { id: string; name: string | null; userID: string | null };
}

export interface Inquiry {
  id: string;
  title: string;
  message: string;
  /** Read by an administrator. */
  isRead: boolean;
  /** A reply the member has not opened yet. */
  replyUnread: boolean;
  createdAt: Date;
  /** The member who wrote it (the member's own account in their view). */
  author: { id: string; name: string | null; userID: string; email: string };
  replies: InquiryReply[];
}

export interface InquiryPage {
  inquiries: Inquiry[];
  /** Rows matching the request (the page count is taken from it); a lower bound when `totalCapped`. */
  total: number;
  /** The count stopped at 1,000 (or the page asked): more match ("1,000件以上"). */
  totalCapped: boolean;
  page: number;
  limit: number;
  totalPages: number;
}

const live = isNull(inquiries.deletedAt);

const columns = {
  id: inquiries.id,
  title: inquiries.title,
  message: inquiries.message,
  isRead: inquiries.isRead,
  replyUnread: inquiries.replyUnread,
  createdAt: inquiries.createdAt,
  authorId: users.id,
  authorName: users.name,
  authorUserID: users.userId,
  authorEmail: users.email,
};

type Viewer = "member" | "admin";

/** The given inquiries with their author and replies (oldest reply first), in the order of `ids`. */
async function withReplies(db: Db, ids: string[], viewer: Viewer): Promise<Inquiry[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select(columns)
    .from(inquiries)
    .innerJoin(users, eq(users.id, inquiries.userId))
    .where(inArray(inquiries.id, ids));
  const replies = await db
    .select({
      id: inquiryReplies.id,
      inquiryId: inquiryReplies.inquiryId,
      reply: inquiryReplies.reply,
      createdAt: inquiryReplies.createdAt,
      adminId: users.id,
      adminName: users.name,
      adminUserID: users.userId,
    })
    .from(inquiryReplies)
    .innerJoin(users, eq(users.id, inquiryReplies.adminId))
    .where(inArray(inquiryReplies.inquiryId, ids))
    .orderBy(asc(inquiryReplies.createdAt), asc(inquiryReplies.id));
  const byInquiry = new Map<string, InquiryReply[]>();
  for (const r of replies) {
    const list = byInquiry.get(r.inquiryId) ?? [];
    list.push({
      id: r.id,
      reply: r.reply,
      createdAt: r.createdAt,
      admin: { id: r.adminId, name: r.adminName, userID: viewer === "admin" ? r.adminUserID : null },
    });
    byInquiry.set(r.inquiryId, list);
  }
  const found = new Map(
    rows.map((r) => [
      r.id,
      {
        id: r.id,
        title: r.title,
        message: r.message,
        isRead: r.isRead,
        replyUnread: r.replyUnread,
        createdAt: r.createdAt,
        author: { id: r.authorId, name: r.authorName, userID: r.authorUserID, email: r.authorEmail },
        replies: byInquiry.get(r.id) ?? [],
      } satisfies Inquiry,
    ]),
  );
  return ids.flatMap((id) => found.get(id) ?? []);
}

/** One page, newest first: the page's ids from the inquiry indexes alone, then their details. */
async function paged(db: Db, where: SQL | undefined, page: number, limit: number, viewer: Viewer) {
  // The count stops at the cap (decision 0011; "1,000件以上"), not at every inquiry.
  const { total, totalCapped } = await cappedCount(db, inquiries, where, Math.max(LIST_COUNT_CAP, page * limit));
  const ids = await db
    .select({ id: inquiries.id })
    .from(inquiries)
    .where(where)
    .orderBy(desc(inquiries.createdAt), desc(inquiries.id))
    .limit(limit)
    .offset(pageOffset(page, limit));
  return {
    inquiries: await withReplies(
      db,
      ids.map((r) => r.id),
      viewer,
    ),
    total,
    totalCapped,
    page,
    limit,
    totalPages: pagesFor(total, totalCapped, limit),
  } satisfies InquiryPage;
}

// ---- members -------------------------------------------------------------------------------

export async function createInquiry(db: Db, userId: string, input: InquiryCreateInput): Promise<Inquiry> {
  const [row] = await db
    .insert(inquiries)
    .values({ userId, title: input.title, message: input.message })
    .returning({ id: inquiries.id });
  if (!row) throw new Error("insert returned nothing");
  const [inquiry] = await withReplies(db, [row.id], "member");
  if (!inquiry) throw new Error("inserted inquiry not found");
  return inquiry;
}

/** The member's own inquiries, newest first, and how many hold a reply they have not opened. */
export async function listMemberInquiries(
  db: Db,
  userId: string,
  raw: InquiryListInput,
): Promise<InquiryPage & { unreadReplies: number }> {
  const input = inquiryListInput.parse(raw);
  const mine = and(eq(inquiries.userId, userId), live);
  const result = await paged(db, mine, input.page, input.limit, "member");
  const [unread] = await db
    .select({ n: count() })
    .from(inquiries)
    .where(and(mine, eq(inquiries.replyUnread, true)));
  return { ...result, unreadReplies: unread?.n ?? 0 };
}

/** Only the author may delete; anyone else's (or an already deleted) inquiry is NOT_FOUND. */
export async function deleteInquiry(db: Db, userId: string, id: string): Promise<void> {
  const [row] = await db
    .update(inquiries)
    .set({ deletedAt: sql`now()` })
    .where(and(eq(inquiries.id, id), eq(inquiries.userId, userId), live))
    .returning({ id: inquiries.id });
  if (!row) throw notFound();
}

/** The member opened the replies: the unread marker goes. Only the author may. */
export async function markRepliesSeen(db: Db, userId: string, id: string): Promise<void> {
  const [row] = await db
    .update(inquiries)
    .set({ replyUnread: false })
    .where(and(eq(inquiries.id, id), eq(inquiries.userId, userId), live))
    .returning({ id: inquiries.id });
  if (!row) throw notFound();
}

// ---- administrators ------------------------------------------------------------------------

/** Every live inquiry, newest first, with the desk's totals (all inquiries, and those still unread). */
export async function listAdminInquiries(
  db: Db,
  raw: AdminInquiryListInput,
): Promise<InquiryPage & { totalAll: number; unread: number; totalAllCapped: boolean; unreadCapped: boolean }> {
  const input = adminInquiryListInput.parse(raw);
  // Both desk totals stop at the cap (decision 0011): "1,000件以上" instead of counting every inquiry.
  const all = await cappedCount(db, inquiries, live);
  const unread = await cappedCount(db, inquiries, and(live, eq(inquiries.isRead, false)));
  const where = and(live, input.unreadOnly ? eq(inquiries.isRead, false) : undefined);
  const result = await paged(db, where, input.page, input.limit, "admin");
  return {
    ...result,
    totalAll: all.total,
    totalAllCapped: all.totalCapped,
    unread: unread.total,
    unreadCapped: unread.totalCapped,
  };
}

/** Marks an inquiry read (idempotent: an inquiry already read is left as it is, with no audit entry). */
export async function markInquiryRead(db: Db, adminId: string, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ isRead: inquiries.isRead })
      .from(inquiries)
      .where(and(eq(inquiries.id, id), live))
      .for("update");
    if (!row) throw notFound();
    if (row.isRead) return;
    await tx.update(inquiries).set({ isRead: true }).where(eq(inquiries.id, id));
    await writeAudit(tx, {
      adminId,
      action: "inquiry.mark_read",
      targetType: "inquiry",
      targetId: id,
      details: { before: { isRead: false }, after: { isRead: true } },
    });
  });
}

/**
 * An administrator answers: the reply, the member's unread marker, the inquiry marked read, the
 * member's notification mail and the audit entry are written in one transaction, so a member is
 * told of exactly the replies that exist. The mail names the inquiry, not the reply's text: the
 * text is read after signing in.
 */
export async function replyToInquiry(
  deps: { db: Db; publicUrl: string; onMailQueued(): void },
  adminId: string,
  input: InquiryReplyInput,
): Promise<InquiryReply> {
  const reply = await deps.db.transaction(async (tx) => {
    const [target] = await tx
      .select({
        title: inquiries.title,
        isRead: inquiries.isRead,
        email: users.email,
        name: users.name,
        memberDeletedAt: users.deletedAt,
      })
      .from(inquiries)
      .innerJoin(users, eq(users.id, inquiries.userId))
      .where(and(eq(inquiries.id, input.id), live))
      .for("update", { of: inquiries });
    if (!target) throw notFound();
    const [row] = await tx
      .insert(inquiryReplies)
      .values({ inquiryId: input.id, adminId, reply: input.reply })
      .returning({ id: inquiryReplies.id, createdAt: inquiryReplies.createdAt });
    if (!row) throw new Error("insert returned nothing");
    await tx.update(inquiries).set({ replyUnread: true, isRead: true }).where(eq(inquiries.id, input.id));
    const mailed = target.memberDeletedAt === null;
    if (mailed) {
      await enqueueMail(tx, { to: target.email, ...inquiryRepliedMail(deps.publicUrl, target.name, target.title) });
    }
    await writeAudit(tx, {
      adminId,
      action: "inquiry.reply",
      targetType: "inquiry",
      targetId: input.id,
      details: {
        replyId: row.id,
        reply: input.reply,
        before: { isRead: target.isRead },
        after: { isRead: true },
        memberNotified: mailed,
      },
    });
    const [admin] = await tx
      .select({ name: users.name, userID: users.userId })
      .from(users)
      .where(eq(users.id, adminId));
    return {
      id: row.id,
      reply: input.reply,
      createdAt: row.createdAt,
      admin: { id: adminId, name: admin?.name ?? null, userID: admin?.userID ?? null },
    } satisfies InquiryReply;
  });
  deps.onMailQueued();
  return reply;
}
