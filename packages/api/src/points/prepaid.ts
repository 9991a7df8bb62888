import { type Db, prepaidActions, users } from "@enmusubi/db";
import { MSG } from "@enmusubi/shared";
import { and, asc, eq, gt, isNull, type SQL, sql } from "drizzle-orm";
import { AppError } from "../errors";
import { applyChange, type ChargeResult, changeBalance, unitCost } from "./ledger";

/*
 * The legacy prepaid credit (spec §7 POST /api/users/deduct-points): points charged ahead of the
 * action, kept as units the action then consumes (`consumePrepaidCredits`, called by the single
 * charge), or refunded when the action never comes.
 */

async function balanceOf(tx: Db, userId: string, { lock = false } = {}): Promise<number> {
  const query = tx
    .select({ points: users.points })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)))
    .$dynamic();
  const [user] = await (lock ? query.for("no key update") : query);
  if (!user) throw new AppError("NOT_FOUND", MSG.notFound);
  return user.points;
}

/** How long a prepaid unit from the legacy deduct-points call waits for its action. */
export const PREPAID_TTL_MINUTES = 30;

/**
 * The legacy `POST /api/users/deduct-points`: charges now and records the units as prepaid, so the
 * action that follows (send, board view, profile view) consumes them instead of charging again.
 */
export async function prepayAction(
  db: Db,
  input: { userId: string; actionName: string; quantity?: number },
): Promise<ChargeResult> {
  const quantity = input.quantity ?? 1;
  return db.transaction(async (tx) => {
    const cost = await unitCost(tx, input.actionName);
    // The member's row lock first, so the debit reads the lots as they are (see chargeAction).
    const balance = await balanceOf(tx, input.userId, { lock: true });
    const required = cost * quantity;
    if (required === 0) return { success: true, required, available: balance, remainingPoints: balance };
    const { balance: remainingPoints, ledgerId } = await applyChange(tx, {
      userId: input.userId,
      delta: -required,
      kind: "prepaid_charge",
      actionName: input.actionName,
      quantity,
    });
    await tx.insert(prepaidActions).values({
      userId: input.userId,
      actionName: input.actionName,
      remaining: quantity,
      unitCost: cost,
      chargeLedgerId: ledgerId,
      expiresAt: sql`now() + make_interval(mins => ${PREPAID_TTL_MINUTES})`,
    });
    return { success: true as const, required, available: remainingPoints + required, remainingPoints };
  });
}

export interface RefundRun {
  refunded: number;
  /** Credits whose refund failed this time (each is retried on the next run; the others went ahead). */
  failed: Array<{ creditId: string; error: unknown }>;
}

/**
 * Gives back the points of prepaid units whose action never came (the legacy client deducted,
 * then the send failed or the tab closed). Run periodically. Each credit is refunded in its own
 * transaction, so one that fails cannot hold back the others; it is claimed with SKIP LOCKED and
 * zeroed with the refund, so several workers never refund it twice. A member who has left since is
 * refunded too (their account is kept, and the ledger must still add up).
 */
export async function refundExpiredPrepaid(db: Db, batch = 100): Promise<RefundRun> {
  const due = await db
    .select({ id: prepaidActions.id })
    .from(prepaidActions)
    .where(and(gt(prepaidActions.remaining, 0), sql`${prepaidActions.expiresAt} <= now()`))
    .orderBy(asc(prepaidActions.expiresAt))
    .limit(batch);
  const run: RefundRun = { refunded: 0, failed: [] };
  for (const { id } of due) {
    try {
      const done = await db.transaction(async (tx) => {
        const [credit] = await tx
          .select()
          .from(prepaidActions)
          .where(and(eq(prepaidActions.id, id), gt(prepaidActions.remaining, 0)))
          .for("update", { skipLocked: true });
        if (!credit) return false;
        const [owner] = await tx.select({ deletedAt: users.deletedAt }).from(users).where(eq(users.id, credit.userId));
        await tx.update(prepaidActions).set({ remaining: 0 }).where(eq(prepaidActions.id, credit.id));
        await changeBalance(tx, {
          userId: credit.userId,
          delta: credit.remaining * credit.unitCost,
          kind: "refund",
          actionName: credit.actionName,
          quantity: credit.remaining,
          reference: credit.id,
          note: owner?.deletedAt ? "未使用の事前減算ポイントの返還（退会済み）" : "未使用の事前減算ポイントの返還",
          includeDeleted: true,
          restoreFromLedgerId: credit.chargeLedgerId ?? undefined,
        });
        return true;
      });
      if (done) run.refunded += 1;
    } catch (error) {
      run.failed.push({ creditId: id, error });
    }
  }
  return run;
}

/** Whether `userId` holds valid prepaid units of `actionName` (a boolean column for a charge's own statement). */
export const prepaidCreditsWaiting = (userId: string | SQL, actionName: string) =>
  sql<boolean>`exists (select 1 from ${prepaidActions} p where p.user_id = ${userId}
    and p.action_name = ${actionName} and p.remaining > 0 and p.expires_at > now())`;

/**
 * Uses up to `quantity` of `userId`'s prepaid units of `actionName`, oldest first, in the charge's
 * transaction (the caller holds the member's row lock); answers the units still to be paid in
 * points. Called by the single charge (charge.ts) only: a credit is consumed by the action it was
 * bought for, through the charging door.
 */
export async function consumePrepaidCredits(
  tx: Db,
  input: { userId: string; actionName: string; quantity: number },
): Promise<number> {
  const credits = await tx
    .select()
    .from(prepaidActions)
    .where(
      and(
        eq(prepaidActions.userId, input.userId),
        eq(prepaidActions.actionName, input.actionName),
        gt(prepaidActions.remaining, 0),
        gt(prepaidActions.expiresAt, sql`now()`),
      ),
    )
    .orderBy(asc(prepaidActions.createdAt))
    // The member's row is locked by the charge, so no other charge holds these; one held elsewhere
    // is being refunded (refundExpiredPrepaid locks the credit, then the member): skipped, not
    // waited for, which would close a cycle with that refund.
    .for("update", { skipLocked: true });
  let unpaid = input.quantity;
  for (const credit of credits) {
    if (unpaid === 0) break;
    const used = Math.min(credit.remaining, unpaid);
    await tx
      .update(prepaidActions)
      .set({ remaining: credit.remaining - used })
      .where(eq(prepaidActions.id, credit.id));
    unpaid -= used;
  }
  return unpaid;
}

/**
 * Locks `userId`'s oldest valid prepaid unit of `actionName`, if any (the board's "deduct-points,
 * then list": the unit then opens an entry window, consumed by the charge that follows in the same
 * transaction). Answers whether there was one.
 */
export async function lockPrepaidCredit(tx: Db, userId: string, actionName: string): Promise<boolean> {
  const [credit] = await tx
    .select({ id: prepaidActions.id })
    .from(prepaidActions)
    .where(
      and(
        eq(prepaidActions.userId, userId),
        eq(prepaidActions.actionName, actionName),
        gt(prepaidActions.remaining, 0),
        gt(prepaidActions.expiresAt, sql`now()`),
      ),
    )
    .orderBy(asc(prepaidActions.createdAt))
    .limit(1)
    .for("update");
  return credit !== undefined;
}
