import { type Db, pointCosts, pointLedger, prepaidActions, users } from "@enmusubi/db";
import { insufficientPoints, MSG } from "@enmusubi/shared";
import { and, asc, eq, gt, isNull, sql } from "drizzle-orm";
import { AppError } from "../errors";

type Account = "points" | "send_points";
type LedgerKind = (typeof pointLedger.$inferInsert)["kind"];

const column = (account: Account) => (account === "points" ? users.points : users.sendPoints);

export interface BalanceChange {
  userId: string;
  account?: Account;
  delta: number;
  kind: LedgerKind;
  actionName?: string;
  quantity?: number;
  reference?: string;
  actorId?: string;
  note?: string;
  /** Also for a deleted account (a refund owed to a member who has left). */
  includeDeleted?: boolean;
}

/**
 * Adds `delta` (negative to take) to a balance and writes its ledger row, atomically: the update
 * refuses to go below zero, so two concurrent charges can never overdraw. Call it inside the
 * transaction of the action it pays for. Returns the new balance.
 */
export async function changeBalance(tx: Db, change: BalanceChange): Promise<number> {
  const account = change.account ?? "points";
  const col = column(account);
  const live = change.includeDeleted ? undefined : isNull(users.deletedAt);
  const [row] = await tx
    .update(users)
    .set({ [account === "points" ? "points" : "sendPoints"]: sql`${col} + ${change.delta}` })
    .where(and(eq(users.id, change.userId), live, sql`${col} + ${change.delta} >= 0`))
    .returning({ balance: col });
  if (!row) {
    const [user] = await tx
      .select({ balance: col })
      .from(users)
      .where(and(eq(users.id, change.userId), live));
    if (!user) throw new AppError("NOT_FOUND", MSG.notFound);
    throw insufficient(-change.delta, user.balance);
  }
  await tx.insert(pointLedger).values({
    userId: change.userId,
    account,
    kind: change.kind,
    delta: change.delta,
    balanceAfter: row.balance,
    actionName: change.actionName,
    quantity: change.quantity,
    reference: change.reference,
    actorId: change.actorId,
    note: change.note,
  });
  return row.balance;
}

/**
 * The balances a new account starts with, written like any other change (kind `initial`), so the
 * account row is created at 0 and the ledger is the only writer of balances.
 */
export async function openBalances(
  tx: Db,
  input: { userId: string; points: number; sendPoints: number; actorId?: string },
): Promise<void> {
  for (const [account, delta] of [
    ["points", input.points],
    ["send_points", input.sendPoints],
  ] as const) {
    if (delta !== 0)
      await changeBalance(tx, { userId: input.userId, account, delta, kind: "initial", actorId: input.actorId });
  }
}

/** An administrator sets a balance to an exact figure; the ledger records the difference. */
export async function setBalance(
  tx: Db,
  input: { userId: string; account: Account; value: number; actorId: string; note?: string },
): Promise<number> {
  const col = column(input.account);
  const [user] = await tx
    .select({ balance: col })
    .from(users)
    .where(and(eq(users.id, input.userId), isNull(users.deletedAt)))
    .for("update");
  if (!user) throw new AppError("NOT_FOUND", MSG.notFound);
  const delta = input.value - user.balance;
  if (delta === 0) return user.balance;
  return changeBalance(tx, {
    userId: input.userId,
    account: input.account,
    delta,
    kind: "admin_adjust",
    actorId: input.actorId,
    note: input.note ?? `${user.balance} → ${input.value}`,
  });
}

export interface ChargeResult {
  success: true;
  /** Points the action costs in total (cost × quantity). */
  required: number;
  /** Balance before the charge. */
  available: number;
  remainingPoints: number;
}

function insufficient(required: number, available: number): AppError {
  return new AppError("PAYMENT_REQUIRED", insufficientPoints(required, available), {
    details: { success: false, required, available },
  });
}

export async function unitCost(tx: Db, actionName: string): Promise<number> {
  const [cost] = await tx
    .select({ pointCost: pointCosts.pointCost })
    .from(pointCosts)
    .where(eq(pointCosts.actionName, actionName));
  if (!cost) throw new AppError("BAD_REQUEST", MSG.unknownAction);
  return cost.pointCost;
}

async function balanceOf(tx: Db, userId: string): Promise<number> {
  const [user] = await tx
    .select({ points: users.points })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)));
  if (!user) throw new AppError("NOT_FOUND", MSG.notFound);
  return user.points;
}

/**
 * Charges a paid action inside the action's own transaction. Units the member already paid for
 * through the legacy deduct-points call are used first, so nothing is charged twice. A cost of 0
 * charges nothing and writes no ledger row. Throws PAYMENT_REQUIRED with the catalogue's
 * "ポイントが不足しています…" message when the balance is short; the caller's transaction then
 * rolls back the action too.
 */
export async function chargeAction(
  tx: Db,
  input: { userId: string; actionName: string; quantity?: number; reference?: string },
): Promise<ChargeResult> {
  const quantity = input.quantity ?? 1;
  const cost = await unitCost(tx, input.actionName);
  const required = cost * quantity;
  const available = await balanceOf(tx, input.userId);
  let unpaidUnits = quantity;
  if (required > 0) {
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
      .for("update");
    for (const credit of credits) {
      if (unpaidUnits === 0) break;
      const used = Math.min(credit.remaining, unpaidUnits);
      await tx
        .update(prepaidActions)
        .set({ remaining: credit.remaining - used })
        .where(eq(prepaidActions.id, credit.id));
      unpaidUnits -= used;
    }
  }
  const toCharge = cost * unpaidUnits;
  if (toCharge === 0) return { success: true, required, available, remainingPoints: available };
  const remainingPoints = await changeBalance(tx, {
    userId: input.userId,
    delta: -toCharge,
    kind: "charge",
    actionName: input.actionName,
    quantity: unpaidUnits,
    reference: input.reference,
  }).catch((error: unknown) => {
    // Report the whole requirement, as the member sees it, not just the unpaid part.
    if (error instanceof AppError && error.code === "PAYMENT_REQUIRED") throw insufficient(required, available);
    throw error;
  });
  return { success: true, required, available, remainingPoints };
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
    const available = await balanceOf(tx, input.userId);
    const required = cost * quantity;
    if (required === 0) return { success: true, required, available, remainingPoints: available };
    const remainingPoints = await changeBalance(tx, {
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
      expiresAt: sql`now() + make_interval(mins => ${PREPAID_TTL_MINUTES})`,
    });
    return { success: true as const, required, available, remainingPoints };
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
