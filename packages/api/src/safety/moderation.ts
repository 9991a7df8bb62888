import { boardPosts, type Db, messages, reports, users } from "@enmusubi/db";
import { MSG, type ReportStatus } from "@enmusubi/shared";
import { and, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import { writeAudit } from "../audit/audit-log";
import { AppError } from "../errors";
import { enqueueMail } from "../mail/outbox";
import { type ReportOutcome, reportHandledMail } from "../mail/templates";
import { type ModerationDeps, suspendAccount } from "./suspension";

/**
 * Administrators handle a report (decision 0009): dismiss it, remove the reported content, or
 * suspend the reported member. Every action is audited in its own transaction, and each reporter
 * is told the outcome in general terms by mail (never what was done to whom).
 */

/** The open report `id`, locked for this transaction; a handled one is CONFLICT, none NOT_FOUND. */
async function lockOpenReport(tx: Db, id: string) {
  const [row] = await tx.select().from(reports).where(eq(reports.id, id)).for("update");
  if (!row) throw new AppError("NOT_FOUND", MSG.notFound);
  if (row.status !== "open") throw new AppError("CONFLICT", MSG.reportAlreadyHandled);
  return row;
}

/** Tells each reporter the outcome in general terms (never what was done to whom), through the outbox. */
async function mailReporters(tx: Db, reporterIds: string[], outcome: ReportOutcome, publicUrl: string) {
  const unique = [...new Set(reporterIds)];
  if (unique.length === 0) return;
  const rows = await tx
    .select({ email: users.email })
    .from(users)
    .where(and(inArray(users.id, unique), isNull(users.deletedAt)));
  for (const r of rows) {
    await enqueueMail(tx, { to: r.email, ...reportHandledMail(publicUrl, outcome) });
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
