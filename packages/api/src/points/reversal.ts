import { type Db, pointLedger, pointLots, pointLotUsages, users } from "@enmusubi/db";
import { and, asc, eq, gte, inArray, sql } from "drizzle-orm";

/**
 * Taking back a purchase's points when the money went back (a card processor's refund, decision
 * 0046), through the ledger: one `purchase_reversal` row, taken from the purchase's own lot and
 * from the lots of the bonus booked with it (`purchase_bonus`, decision 0047: a refunded purchase
 * keeps no bonus), so the 資金決済法 report no longer counts those paid points as outstanding. Only
 * when the points are all still there: every one of those lots untouched (nothing of it spent,
 * lapsed or forfeited) and the balance covering them. Otherwise nothing changes and the caller lists
 * the refund for the administrators: a balance never goes negative. Runs in the caller's
 * transaction; the member's row lock is taken here (after the order's, the one lock order of the
 * payment paths), and every writer of lots takes it first, so the lots read here are the ones changed.
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
  if (!member) return "spent";
  // The purchase's lot (the one its `purchase` ledger row created; a reinstated order has one too)
  // and its bonus's lots.
  const lots = await tx
    .select({ id: pointLots.id, kind: pointLedger.kind, amount: pointLots.amount, remaining: pointLots.remaining })
    .from(pointLots)
    .innerJoin(pointLedger, eq(pointLedger.id, pointLots.ledgerId))
    .where(
      and(
        eq(pointLedger.userId, input.userId),
        inArray(pointLedger.kind, ["purchase", "purchase_bonus"]),
        eq(pointLedger.reference, input.reference),
      ),
    )
    .orderBy(asc(pointLots.createdAt));
  const purchase = lots.find((lot) => lot.kind === "purchase" && lot.amount === input.points);
  const taken = [...(purchase ? [purchase] : []), ...lots.filter((lot) => lot.kind === "purchase_bonus")];
  if (!purchase || taken.some((lot) => lot.remaining !== lot.amount)) return "spent";
  const total = taken.reduce((sum, lot) => sum + lot.amount, 0);
  if (member.points < total) return "spent";
  const [balance] = await tx
    .update(users)
    .set({ points: sql`${users.points} - ${total}` })
    .where(and(eq(users.id, input.userId), gte(users.points, total)))
    .returning({ points: users.points });
  if (!balance) return "spent";
  const [entry] = await tx
    .insert(pointLedger)
    .values({
      userId: input.userId,
      account: "points",
      kind: "purchase_reversal",
      delta: -total,
      balanceAfter: balance.points,
      reference: input.reference,
      note: input.note,
    })
    .returning({ id: pointLedger.id });
  if (!entry) throw new Error("ledger insert returned nothing");
  for (const lot of taken) {
    const [emptied] = await tx
      .update(pointLots)
      .set({ remaining: 0 })
      .where(and(eq(pointLots.id, lot.id), eq(pointLots.remaining, lot.amount)))
      .returning({ id: pointLots.id });
    // The lots were read under the member's lock: they cannot have changed. If one did, the books disagree.
    if (!emptied) throw new Error("a purchase's lot changed under the member's lock");
  }
  await tx
    .insert(pointLotUsages)
    .values(taken.map((lot) => ({ lotId: lot.id, ledgerId: entry.id, amount: lot.amount })));
  return "reversed";
}
