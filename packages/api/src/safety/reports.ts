import { boardPosts, type Db, messages, reports, users } from "@enmusubi/db";
import { MSG, type ReportInput, type ReportTargetType, reportInput } from "@enmusubi/shared";
import { and, eq, isNull, or } from "drizzle-orm";
import { AppError, isUniqueViolation } from "../errors";
import { selectPublicProfiles } from "../members/public-profile";
import { enforceRateLimit, RATE_LIMITS, type RateLimiter } from "../security/rate-limit";

/** Members report a member, a message or a board post (decision 0009); administrators handle them in moderation.ts. */

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
