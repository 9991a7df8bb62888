import { type Db, messages, users } from "@enmusubi/db";
import { pageOffset, WITHDRAWN_MEMBER_NAME } from "@enmusubi/shared";
import {
  aliasedTable,
  and,
  count,
  desc,
  eq,
  inArray,
  isNull,
  type Placeholder,
  type SQL,
  type SQLWrapper,
  sql,
} from "drizzle-orm";
import { carriedCount, carriedTotal } from "../lists/capped-count";
import { countLimit, pageLimit } from "../lists/limit";
import { pagesFor } from "../lists/pages";
import { thumbnailLink } from "../photos/storage";
import { perDatabaseShape } from "../request-scope";

/**
 * Messages between members, and between members and administrators (spec §2, §4, §6, §7): the
 * rows every message list reads and the two shapes they are shown in. Members see only what they
 * sent or received (anything else is NOT_FOUND) and see the other side through the public shape
 * (no email, no login ID); administrators see everything, including who really sent a message
 * written "as" a member. Bodies are plain text; clients show them as text.
 *
 * The member mailbox is in mailbox.ts, sending in send.ts, the administrators' screens in
 * admin-service.ts (their search box in admin-search.ts).
 */

const sender = aliasedTable(users, "sender");
const recipient = aliasedTable(users, "recipient");
const actingAdmin = aliasedTable(users, "acting_admin");

const columns = {
  id: messages.id,
  body: messages.body,
  createdAt: messages.createdAt,
  isRead: messages.isRead,
  openedAt: messages.openedAt,
  hasReply: messages.hasReply,
  replyToId: messages.replyToId,
  fromId: sender.id,
  fromName: sender.name,
  fromPhoto: sender.photoLink,
  fromRole: sender.role,
  fromUserID: sender.userId,
  fromEmail: sender.email,
  fromWithdrawn: sql<boolean>`(${sender.withdrawnAt} is not null)`,
  toId: recipient.id,
  toName: recipient.name,
  toPhoto: recipient.photoLink,
  toRole: recipient.role,
  toUserID: recipient.userId,
  toEmail: recipient.email,
  toWithdrawn: sql<boolean>`(${recipient.withdrawnAt} is not null)`,
  actingAdminId: actingAdmin.id,
  actingAdminName: actingAdmin.name,
};

/** `counting`: a page's count carried along its rows as `matches` (lists/capped-count.ts). */
export function selectMessages(db: Db, where: SQL | undefined, counting?: SQLWrapper) {
  return db
    .select({ ...columns, matches: carriedCount(counting) })
    .from(messages)
    .innerJoin(sender, eq(sender.id, messages.fromUserId))
    .innerJoin(recipient, eq(recipient.id, messages.toUserId))
    .leftJoin(actingAdmin, eq(actingAdmin.id, messages.sentByAdminId))
    .where(and(isNull(messages.deletedAt), where))
    .$dynamic();
}

export type Role = "user" | "admin";
/** One selected row (declared: drizzle cannot infer it through the aliased joins). */
export interface Row {
  id: string;
  body: string;
  createdAt: Date;
  isRead: boolean;
  /** When the recipient opened it (paid, decision 0027); member views seal the body until then (sealed.ts). */
  openedAt: Date | null;
  hasReply: boolean;
  replyToId: string | null;
  fromId: string;
  fromName: string | null;
  fromPhoto: string | null;
  fromRole: Role;
  fromUserID: string;
  fromEmail: string;
  /** The account left (退会): members see it as 退会したユーザー (decision 0034). */
  fromWithdrawn: boolean;
  toId: string;
  toName: string | null;
  toPhoto: string | null;
  toRole: Role;
  toUserID: string;
  toEmail: string;
  toWithdrawn: boolean;
  actingAdminId: string | null;
  actingAdminName: string | null;
}

/** The other side of a message as a member sees it. */
export interface Party {
  id: string;
  name: string | null;
  photoLink: string | null;
  role: "user" | "admin";
}

export interface MemberMessage {
  id: string;
  body: string;
  createdAt: Date;
  isRead: boolean;
  hasReply: boolean;
  replyToId: string | null;
  from: Party;
  to: Party;
}

/** Administrators also see login IDs and addresses, and who really wrote a message sent as a member. */
export interface AdminParty extends Party {
  userID: string;
  email: string;
}

export interface AdminMessage extends Omit<MemberMessage, "from" | "to"> {
  from: AdminParty;
  to: AdminParty;
  sentByAdmin: { id: string; name: string | null } | null;
}

export function toMemberMessage(r: Row): MemberMessage {
  return {
    id: r.id,
    body: r.body,
    createdAt: r.createdAt,
    isRead: r.isRead,
    hasReply: r.hasReply,
    replyToId: r.replyToId,
    // Thumbnails only (decision 0028): the full-size image is sold through members.viewPhoto.
    from: party(r.fromId, r.fromName, r.fromPhoto, r.fromRole, r.fromWithdrawn),
    to: party(r.toId, r.toName, r.toPhoto, r.toRole, r.toWithdrawn),
  };
}

/** A side of a message as members see it: a member who left (退会) shows as 退会したユーザー, no photo. */
function party(id: string, name: string | null, photo: string | null, role: Role, withdrawn: boolean): Party {
  return withdrawn
    ? { id, name: WITHDRAWN_MEMBER_NAME, photoLink: null, role }
    : { id, name, photoLink: thumbnailLink(photo), role };
}

export function toAdminMessage(r: Row): AdminMessage {
  const base = toMemberMessage(r);
  return {
    ...base,
    // Administrators see who it was (the account is kept during the retention).
    from: { ...base.from, name: r.fromName, userID: r.fromUserID, email: r.fromEmail },
    to: { ...base.to, name: r.toName, userID: r.toUserID, email: r.toEmail },
    sentByAdmin: r.actingAdminId ? { id: r.actingAdminId, name: r.actingAdminName } : null,
  };
}

export interface Page<T> {
  messages: T[];
  /** Every match, or when `totalCapped` a lower bound (the screens say "N件以上"). */
  total: number;
  totalCapped: boolean;
  page: number;
  limit: number;
  totalPages: number;
}

/**
 * A page's filter given as values and a function of them, so that its statement can be prepared
 * once per shape (`key`: what the text depends on besides the values) with placeholders, and only
 * executed per call (decision 0037). `where` is called with the values themselves, or with a placeholder
 * of the same name for each.
 */
export interface PreparedWhere<V extends Record<string, unknown>> {
  key: string;
  values: V;
  where(v: { [K in keyof V]: V[K] | Placeholder }): SQL | undefined;
}

interface PageCut {
  limit: number;
  offset: number | Placeholder;
  /** The count's LIMIT (one past the cap), or none: the count is exact. */
  countLimit?: number | Placeholder;
  countInOrder?: boolean;
}

/**
 * The page's ids from the message indexes alone, as a subquery the planner keeps whole (it has a
 * LIMIT), then those few rows with their parties by primary key, the count riding along: one
 * statement (it was three, decision 0037). Joined directly, the planner would read every message to sort
 * them. `counting` is the count on its own, for a page past the last match.
 */
function pageStatements(db: Db, where: SQL | undefined, cut: PageCut) {
  // `where` reads message columns only (accounts are matched by subqueries), so the count needs no join.
  const live = and(isNull(messages.deletedAt), where);
  const matches = db.select({ one: sql`1` }).from(messages).where(live).$dynamic();
  // A date range is a range of created_at, the order the rows were written in: unordered, the
  // planner took a sequential scan that stops at the cap, expecting the range's rows spread evenly,
  // and such a scan of a large table starts where the previous one stopped (synchronized scans):
  // it read 886,724 other messages first (200 ms for one day at 1,000,000). Counted newest first,
  // as the page is read, it walks the range in messages_live_idx alone.
  if (cut.countInOrder) matches.orderBy(desc(messages.createdAt), desc(messages.id));
  const counting =
    cut.countLimit === undefined
      ? db.select({ total: count() }).from(messages).where(live)
      : db.select({ total: count() }).from(matches.limit(cut.countLimit).as("capped"));
  const pageIds = db
    .select({ id: messages.id })
    .from(messages)
    .where(live)
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(pageLimit(cut.limit))
    .offset(cut.offset);
  const rows = selectMessages(db, inArray(messages.id, pageIds), counting).orderBy(
    desc(messages.createdAt),
    desc(messages.id),
  );
  return { rows, counting };
}

/** A page statement per shape of a PreparedWhere, with placeholders (see above). */
const preparedPageOf = perDatabaseShape(
  (shape: { key: string; where: PreparedWhere<Record<string, unknown>>; cut: PageCut }) => shape.key,
  (db, { where, cut }) => {
    const placeholders = Object.fromEntries(Object.keys(where.values).map((name) => [name, sql.placeholder(name)]));
    return pageStatements(db, where.where(placeholders), cut).rows.prepare("message_page");
  },
);

export async function paged<T, V extends Record<string, unknown>>(
  db: Db,
  where: SQL | undefined | PreparedWhere<V>,
  page: number,
  limit: number,
  shape: (r: Row) => T,
  countCap?: number,
  options: { countInOrder?: boolean } = {},
): Promise<Page<T>> {
  // With a cap, the count stops after cap + 1 matches (at least one past the page shown).
  const cap = countCap === undefined ? undefined : Math.max(countCap, page * limit);
  const offset = pageOffset(page, limit);
  const cut: PageCut = {
    limit,
    offset,
    countLimit: cap === undefined ? undefined : countLimit(cap, countCap as number),
    countInOrder: options.countInOrder,
  };
  let rows: Array<Row & { matches: number | null }>;
  let counting: () => PromiseLike<Array<{ total: number }>>;
  if (where !== undefined && "key" in where) {
    const deepCount = typeof cut.countLimit === "number";
    const prepared = preparedPageOf(db, {
      key: `${where.key}|${limit}|${offset === 0}|${countCap}|${deepCount}|${options.countInOrder === true}`,
      where: where as PreparedWhere<Record<string, unknown>>,
      // The shape: a literal LIMIT, a placeholder for an offset past the first page and for a raised cap.
      cut: {
        ...cut,
        offset: offset === 0 ? 0 : sql.placeholder("offset"),
        countLimit: deepCount ? sql.placeholder("countLimit") : cut.countLimit,
      },
    });
    rows = (await prepared.execute({ ...where.values, offset, countLimit: (cap ?? 0) + 1 })) as typeof rows;
    counting = () => pageStatements(db, where.where(where.values), cut).counting;
  } else {
    const statements = pageStatements(db, where, cut);
    rows = (await statements.rows) as typeof rows;
    counting = () => statements.counting;
  }
  const counted = await carriedTotal(rows, counting);
  const totalCapped = cap !== undefined && counted > cap;
  const total = totalCapped ? (cap as number) : counted;
  return {
    messages: rows.map(shape),
    total,
    totalCapped,
    page,
    limit,
    // Capped: there is at least one more match, so at least one more page.
    totalPages: pagesFor(total, totalCapped, limit),
  };
}
