import { type Db, pointLedger, pointLots, pointLotUsages, users } from "@enmusubi/db";
import { and, asc, eq, gte, sql } from "drizzle-orm";

/**
 * Taking back a purchase's points when the money went back (a card processor's refund, decision
 * 0046), through the ledger: one `purchase_reversal` row, taken from the purchase's own lot, so the
 * 資金決済法 report no longer counts those paid points as outstanding. Only when the points are still
 * there: the purchase's lot untouched (nothing of it spent, lapsed or forfeited) and the balance
 * covering it. Otherwise nothing changes and the caller lists the refund for the administrators:
 * a balance never goes negative. Runs in the caller's transaction; the member's row lock is taken
 * here (after the order's, the one lock order of the payment paths), and every writer of lots takes
 * it first, so the lot read here is the one changed.
 */
export async function reversePurchase(
  tx: Db,
  input: { userId: string; reference: string; points: number; note: string },
): Promise<"reversed" | "spent"> {
  const [member] = await tx
    .select({ points: users.points })
    .from(users)
    .where(eq(users.id, input.userId))
    .for("update");
  if (!member || member.points < input.points) return "spent";
  // The purchase's lot: the lot its `purchase` ledger row created (a reinstated order has one too).
  const [lot] = await tx
    .select({ id: pointLots.id, amount: pointLots.amount, remaining: pointLots.remaining })
    .from(pointLots)
    .innerJoin(pointLedger, eq(pointLedger.id, pointLots.ledgerId))
    .where(
      and(
        eq(pointLedger.userId, input.userId),
        eq(pointLedger.kind, "purchase"),
        eq(pointLedger.reference, input.reference),
        eq(pointLots.amount, input.points),
      ),
    )
    .orderBy(asc(pointLots.createdAt))
    .limit(1);
  if (!lot || lot.remaining !== lot.amount) return "spent";
  const [balance] = await tx
    .update(users)
    .set({ points: sql`${users.points} - ${input.points}` })
    .where(and(eq(users.id, input.userId), gte(users.points, input.points)))
    .returning({ points: users.points });
  if (!balance) return "spent";
  const [entry] = await tx
    .insert(pointLedger)
    .values({
      userId: input.userId,
      account: "points",
      kind: "purchase_reversal",
      delta: -input.points,
      balanceAfter: balance.points,
      reference: input.reference,
      note: input.note,
    })
    .returning({ id: pointLedger.id });
  if (!entry) throw new Error("ledger insert returned nothing");
  const [taken] = await tx
    .update(pointLots)
    .set({ remaining: 0 })
    .where(and(eq(pointLots.id, lot.id), eq(pointLots.remaining, input.points)))
    .returning({ id: pointLots.id });
  // The lot was read under the member's lock: it cannot have changed. If it did, the books disagree.
  if (!taken) throw new Error("the purchase's lot changed under the member's lock");
  await tx.insert(pointLotUsages).values({ lotId: lot.id, ledgerId: entry.id, amount: input.points });
  return "reversed";
}
