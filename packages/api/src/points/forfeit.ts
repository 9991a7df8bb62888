import { type Db, pointLedger, pointLots, users, withdrawals } from "@enmusubi/db";
import { and, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import { applyChange } from "./ledger";

/*
 * 退会 and the balance (decision 0034): the member's unused points are forfeited (the terms say
 * so) through one `forfeit` ledger row per account, which takes every unspent lot, so the books
 * keep adding up and the 資金決済法 report stops counting the paid ones at that moment. An
 * administrator's restoration within the retention gives the same points back to the same lots:
 * those that withdrawal took, once (each withdrawal is a `withdrawals` row; decision 0038).
 */

export interface Forfeited {
  /** Paid-for points (purchased) that were still valid. */
  purchased: number;
  /** Free points that were still valid. */
  free: number;
  /** Points past their expiry not yet booked by the expiry job (taken too; they were not spendable). */
  lapsed: number;
  sendPoints: number;
}

/** The member's balance as it would be forfeited now; `lock`: read under the member's row lock. */
export async function forfeitable(tx: Db, userId: string): Promise<Forfeited> {
  const [row] = await tx
    .select({
      purchased: sql<number>`coalesce(sum(${pointLots.remaining}) filter (where ${pointLots.paid} and ${pointLots.expiresAt} > now()), 0)::int`,
      free: sql<number>`coalesce(sum(${pointLots.remaining}) filter (where not ${pointLots.paid} and ${pointLots.expiresAt} > now()), 0)::int`,
      lapsed: sql<number>`coalesce(sum(${pointLots.remaining}) filter (where ${pointLots.expiresAt} <= now()), 0)::int`,
    })
    .from(pointLots)
    .where(and(eq(pointLots.userId, userId), gt(pointLots.remaining, 0)));
  const [user] = await tx.select({ sendPoints: users.sendPoints }).from(users).where(eq(users.id, userId));
  return {
    purchased: row?.purchased ?? 0,
    free: row?.free ?? 0,
    lapsed: row?.lapsed ?? 0,
    sendPoints: user?.sendPoints ?? 0,
  };
}

/**
 * Takes the whole balance (points and send points) as `forfeit` rows and records the withdrawal
 * they belong to (decision 0038): its row points at them, so a restoration gives back exactly these.
 * Call it in the withdrawal's transaction, holding the member's row lock, while the account is live.
 */
export async function forfeitBalance(tx: Db, userId: string): Promise<Forfeited> {
  const forfeited = await forfeitable(tx, userId);
  const points = forfeited.purchased + forfeited.free + forfeited.lapsed;
  const [withdrawal] = await tx.insert(withdrawals).values({ userId }).returning({ id: withdrawals.id });
  if (!withdrawal) throw new Error("withdrawal insert returned nothing");
  const reference = `withdrawal:${withdrawal.id}`;
  const pointsEntry =
    points > 0
      ? await applyChange(tx, {
          userId,
          delta: -points,
          kind: "forfeit",
          reference,
          note: `退会による失効（購入${forfeited.purchased}pt・無料${forfeited.free}pt）`,
        })
      : undefined;
  const sendPointsEntry =
    forfeited.sendPoints > 0
      ? await applyChange(tx, {
          userId,
          account: "send_points",
          delta: -forfeited.sendPoints,
          kind: "forfeit",
          reference,
          note: "退会による失効",
        })
      : undefined;
  await tx
    .update(withdrawals)
    .set({ pointsLedgerId: pointsEntry?.ledgerId ?? null, sendPointsLedgerId: sendPointsEntry?.ledgerId ?? null })
    .where(eq(withdrawals.id, withdrawal.id));
  return forfeited;
}

/**
 * Gives back what the member's open withdrawal forfeited (an administrator's restoration), once:
 * the withdrawal is marked restored in the same transaction, and a withdrawal that forfeited
 * nothing gives nothing (an earlier withdrawal's forfeit is never given again). The points go back
 * to the lots they were taken from (a lot that expired meanwhile is then booked by the expiry job),
 * the send points as they were. Call it after the account is live again, holding its row lock.
 */
export async function restoreForfeited(
  tx: Db,
  userId: string,
  actorId: string,
): Promise<{ points: number; sendPoints: number }> {
  const [open] = await tx
    .update(withdrawals)
    .set({ restoredAt: sql`now()`, restoredBy: actorId })
    .where(and(eq(withdrawals.userId, userId), isNull(withdrawals.restoredAt)))
    .returning({
      id: withdrawals.id,
      pointsLedgerId: withdrawals.pointsLedgerId,
      sendPointsLedgerId: withdrawals.sendPointsLedgerId,
    });
  const restored = { points: 0, sendPoints: 0 };
  if (!open) return restored;
  const entries = [open.pointsLedgerId, open.sendPointsLedgerId].filter((id): id is string => id !== null);
  if (entries.length === 0) return restored;
  const forfeits = await tx
    .select({ id: pointLedger.id, account: pointLedger.account, delta: pointLedger.delta })
    .from(pointLedger)
    .where(and(inArray(pointLedger.id, entries), eq(pointLedger.userId, userId), eq(pointLedger.kind, "forfeit")));
  for (const forfeit of forfeits) {
    await applyChange(tx, {
      userId,
      account: forfeit.account,
      delta: -forfeit.delta,
      kind: "refund",
      actorId,
      reference: `withdrawal:${open.id}`,
      note: "退会の取り消しによる復元",
      ...(forfeit.account === "points" ? { restoreFromLedgerId: forfeit.id } : {}),
    });
    if (forfeit.account === "points") restored.points = -forfeit.delta;
    else restored.sendPoints = -forfeit.delta;
  }
  return restored;
}
