import { type Db, pointLedger, pointLots, users } from "@enmusubi/db";
import { and, desc, eq, gt, sql } from "drizzle-orm";
import { applyChange } from "./ledger";

/*
 * 退会 and the balance (decision 0034): the member's unused points are forfeited (the terms say
 * so) through one `forfeit` ledger row per account, which takes every unspent lot, so the books
 * keep adding up and the 資金決済法 report stops counting the paid ones at that moment. An
 * administrator's restoration within the retention gives the same points back to the same lots.
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
 * Takes the whole balance (points and send points) as `forfeit` rows. Call it in the withdrawal's
 * transaction, holding the member's row lock, while the account is still live.
 */
export async function forfeitBalance(tx: Db, userId: string): Promise<Forfeited> {
  const forfeited = await forfeitable(tx, userId);
  const points = forfeited.purchased + forfeited.free + forfeited.lapsed;
  if (points > 0) {
    await applyChange(tx, {
      userId,
      delta: -points,
      kind: "forfeit",
      note: `退会による失効（購入${forfeited.purchased}pt・無料${forfeited.free}pt）`,
    });
  }
  if (forfeited.sendPoints > 0) {
    await applyChange(tx, {
      userId,
      account: "send_points",
      delta: -forfeited.sendPoints,
      kind: "forfeit",
      note: "退会による失効",
    });
  }
  return forfeited;
}

/**
 * Gives back what the last withdrawal forfeited (an administrator's restoration): the points go back
 * to the lots they were taken from (a lot that expired meanwhile is then booked by the expiry job),
 * the send points as they were. Call it after the account is live again, in the same transaction.
 */
export async function restoreForfeited(tx: Db, userId: string, actorId: string): Promise<number> {
  let restored = 0;
  for (const account of ["points", "send_points"] as const) {
    const [last] = await tx
      .select({ id: pointLedger.id, delta: pointLedger.delta })
      .from(pointLedger)
      .where(and(eq(pointLedger.userId, userId), eq(pointLedger.account, account), eq(pointLedger.kind, "forfeit")))
      .orderBy(desc(pointLedger.createdAt), desc(pointLedger.id))
      .limit(1);
    if (!last) continue;
    await applyChange(tx, {
      userId,
      account,
      delta: -last.delta,
      kind: "refund",
      actorId,
      note: "退会の取り消しによる復元",
      ...(account === "points" ? { restoreFromLedgerId: last.id } : {}),
    });
    if (account === "points") restored = -last.delta;
  }
  return restored;
}
