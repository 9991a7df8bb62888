import { adminAuditLog, type Db, rowsOf, users } from "@enmusubi/db";
import { type AuditListInput, auditListInput, japanDayStart, pageOffset } from "@enmusubi/shared";
import { and, desc, eq, gte, inArray, lt, sql } from "drizzle-orm";
import { cappedCount, LIST_COUNT_CAP } from "../lists/capped-count";
import { pagesFor } from "../lists/pages";
import { requestIdOf } from "../request-scope";

/**
 * Records an administrator's action; call it in the same transaction as the change. The row
 * carries the id of the request that made it (X-Request-Id, request-scope.ts), when there is one.
 */
export async function writeAudit(
  tx: Db,
  entry: { adminId: string; action: string; targetType: string; targetId?: string; details?: Record<string, unknown> },
): Promise<void> {
  await tx.insert(adminAuditLog).values({ ...entry, details: entry.details ?? {}, requestId: requestIdOf(tx) ?? null });
}

export interface AuditEntry {
  id: string;
  admin: { id: string; userID: string; name: string | null };
  action: string;
  targetType: string;
  targetId: string | null;
  /** As the writer recorded it (typically `before` / `after` and the figures of the change). */
  details: Record<string, unknown>;
  createdAt: Date;
}

export interface AuditPage {
  entries: AuditEntry[];
  /** `totalCapped`: more than `total` entries match (the count stops at 1,000 or the page asked; "1,000件以上"). */
  pagination: { total: number; totalCapped: boolean; totalPages: number; currentPage: number; limit: number };
}

/**
 * The audit log, newest first, paged in the database. Reading only: nothing here (or anywhere but
 * `writeAudit`) writes to the table, and nothing changes or deletes a row.
 */
export async function listAudit(db: Db, raw: AuditListInput): Promise<AuditPage> {
  const input = auditListInput.parse(raw);
  const where = and(
    input.adminUserID
      ? inArray(
          adminAuditLog.adminId,
          db.select({ id: users.id }).from(users).where(eq(users.userId, input.adminUserID)),
        )
      : undefined,
    input.action ? eq(adminAuditLog.action, input.action) : undefined,
    // Japan's days (the screen's dates): 2025-08-20 runs from 00:00 to 24:00 JST.
    input.dateFrom ? gte(adminAuditLog.createdAt, japanDayStart(input.dateFrom)) : undefined,
    input.dateTo ? lt(adminAuditLog.createdAt, japanDayStart(input.dateTo, 1)) : undefined,
  );
  // Never a count of the whole log per page (decision 0011): it stops at the cap.
  const { total, totalCapped } = await cappedCount(
    db,
    adminAuditLog,
    where,
    Math.max(LIST_COUNT_CAP, input.page * input.limit),
  );
  const rows = await db
    .select({
      id: adminAuditLog.id,
      adminId: users.id,
      adminUserID: users.userId,
      adminName: users.name,
      action: adminAuditLog.action,
      targetType: adminAuditLog.targetType,
      targetId: adminAuditLog.targetId,
      details: adminAuditLog.details,
      createdAt: adminAuditLog.createdAt,
    })
    .from(adminAuditLog)
    .innerJoin(users, eq(users.id, adminAuditLog.adminId))
    .where(where)
    .orderBy(desc(adminAuditLog.createdAt), desc(adminAuditLog.id))
    .limit(input.limit)
    .offset(pageOffset(input.page, input.limit));
  return {
    entries: rows.map((r) => ({
      id: r.id,
      admin: { id: r.adminId, userID: r.adminUserID, name: r.adminName },
      action: r.action,
      targetType: r.targetType,
      targetId: r.targetId,
      details: r.details,
      createdAt: r.createdAt,
    })),
    pagination: {
      total,
      totalCapped,
      totalPages: pagesFor(total, totalCapped, input.limit),
      currentPage: input.page,
      limit: input.limit,
    },
  };
}

/** Every action name written so far, for the screen's filter. */
export async function listAuditActions(db: Db): Promise<string[]> {
  // One index probe per distinct action (a "loose index scan" of admin_audit_action_created_idx)
  // instead of a DISTINCT over every entry: the log grows without bound, the actions do not.
  const rows = await rowsOf<{ action: string }>(
    db,
    sql`
    with recursive found as (
      (select ${adminAuditLog.action} as action from ${adminAuditLog} order by 1 limit 1)
      union all
      select (select a.action from ${adminAuditLog} a where a.action > found.action order by a.action limit 1)
      from found where found.action is not null
    )
    select action from found where action is not null`,
  );
  return rows.map((r) => r.action);
}
