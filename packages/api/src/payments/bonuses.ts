import { type Db, purchaseBonusGrants, purchaseBonusRules, purchaseTransactions, rowsOf, users } from "@enmusubi/db";
import {
  type Bonus,
  type BonusQuoteInput,
  type BonusRule,
  decideBonus,
  FREE_POINT_VALIDITY_DAYS,
  type PaymentMethod,
} from "@enmusubi/shared";
import { and, asc, eq, gt, isNull, lte, ne, or, sql } from "drizzle-orm";
import { applyChange } from "../points/ledger";
import { loadSettings, pointsFor } from "./settings";
import type { TransactionRow } from "./transactions";

/**
 * Purchase bonuses (decision 0047), the crediting side: which rules were in force when an order was
 * placed, whether it is the member's first completed purchase, and booking the bonus as free lots
 * (ledger kind `purchase_bonus`) in the confirming transaction. The rule itself is `decideBonus`
 * (packages/shared), the same function the quote and the administrators' preview run.
 */

type RuleRow = typeof purchaseBonusRules.$inferSelect;

export const toBonusRule = (r: RuleRow): BonusRule => ({
  id: r.id,
  kind: r.kind,
  name: r.name,
  paymentMethod: r.paymentMethod,
  minAmount: r.minAmount,
  ratePercent: r.ratePercent,
  fixedPoints: r.fixedPoints,
  startsAt: r.startsAt,
  endsAt: r.endsAt,
});

/** The rules in force at `at`: started at or before it, not ended by it. */
export async function rulesInForceAt(db: Db, at: Date): Promise<BonusRule[]> {
  const rows = await db
    .select()
    .from(purchaseBonusRules)
    .where(
      and(
        lte(purchaseBonusRules.startsAt, at),
        or(isNull(purchaseBonusRules.endsAt), gt(purchaseBonusRules.endsAt, at)),
      ),
    )
    .orderBy(asc(purchaseBonusRules.startsAt), asc(purchaseBonusRules.id));
  return rows.map(toBonusRule);
}

/** The database's clock: the one that stamps orders (`created_at`), so a quote and an order agree. */
export async function databaseNow(db: Db): Promise<Date> {
  const [row] = await rowsOf<{ ms: string | number }>(db, sql`select (extract(epoch from now()) * 1000)::float8 as ms`);
  return new Date(Math.floor(Number(row?.ms)));
}

/** Whether none of the member's purchases has completed, `except` this one (the order being confirmed). */
export async function noCompletedPurchase(db: Db, userId: string, except?: string): Promise<boolean> {
  const [done] = await db
    .select({ id: purchaseTransactions.id })
    .from(purchaseTransactions)
    .where(
      and(
        eq(purchaseTransactions.userId, userId),
        eq(purchaseTransactions.status, "paid"),
        except ? ne(purchaseTransactions.id, except) : undefined,
      ),
    )
    .limit(1);
  return !done;
}

/**
 * The bonus an order gets when it is credited: the rules in force when it was placed
 * (`created_at`: what the member was shown before ordering), and the first-purchase bonus only when
 * no other purchase of the member's has completed. The caller holds the order's row lock and the
 * member's (`lockMember`), so of two orders confirmed at once exactly one sees no completed purchase.
 */
export async function bonusOfOrder(tx: Db, row: TransactionRow): Promise<Bonus> {
  const rules = await rulesInForceAt(tx, row.createdAt);
  if (rules.length === 0) return { items: [], points: 0 };
  return decideBonus(rules, {
    amount: row.amount,
    points: row.points,
    paymentMethod: row.paymentMethod,
    at: row.createdAt,
    firstPurchase: await noCompletedPurchase(tx, row.userId, row.id),
  });
}

/** Takes the member's row lock (after the order's: the one lock order of every payment path). */
export async function lockMember(
  tx: Db,
  userId: string,
): Promise<{ points: number; deletedAt: Date | null } | undefined> {
  const [member] = await tx
    .select({ points: users.points, deletedAt: users.deletedAt })
    .from(users)
    .where(eq(users.id, userId))
    .for("update");
  return member;
}

/**
 * Books `bonus` for the order `row` (just marked paid) in the caller's transaction: one ledger row
 * of kind `purchase_bonus` per item, each a free lot expiring in FREE_POINT_VALIDITY_DAYS, one
 * grant row each, and the order's `bonus_points`. Any failure fails the transaction: the purchase's
 * own credit is rolled back with it.
 */
export async function bookBonus(
  tx: Db,
  row: TransactionRow,
  bonus: Bonus,
  actorId: string | undefined,
): Promise<TransactionRow | undefined> {
  if (bonus.items.length === 0) return undefined;
  for (const item of bonus.items) {
    const { ledgerId } = await applyChange(tx, {
      userId: row.userId,
      delta: item.points,
      kind: "purchase_bonus",
      reference: row.transactionId,
      actorId,
      note: item.label,
      includeDeleted: true,
    });
    await tx.insert(purchaseBonusGrants).values({
      purchaseTransactionId: row.id,
      userId: row.userId,
      ruleId: item.ruleId,
      kind: item.kind,
      label: item.label,
      points: item.points,
      ledgerId,
    });
  }
  const [updated] = await tx
    .update(purchaseTransactions)
    .set({ bonusPoints: bonus.points })
    .where(eq(purchaseTransactions.id, row.id))
    .returning();
  return updated;
}

export interface BonusQuote {
  amount: number;
  paymentMethod: PaymentMethod;
  /** Points the amount buys at the rate (the paid lot). */
  points: number;
  bonusPoints: number;
  totalPoints: number;
  items: Array<{ kind: Bonus["items"][number]["kind"]; label: string; points: number; endsAt: Date | null }>;
  /** The member has no completed purchase: an order's first-purchase bonus is given to the first one paid. */
  firstPurchase: boolean;
  /** Free points' validity (the bonus's lots). */
  bonusValidityDays: number;
}

/**
 * `purchase.bonusQuote`: what a purchase of `amount` yen by `paymentMethod` placed now would be
 * credited, by the same rule and the same rules the credit reads (those in force now, on the
 * database's clock).
 */
export async function quoteBonus(db: Db, userId: string, input: BonusQuoteInput): Promise<BonusQuote> {
  const s = await loadSettings(db);
  const points = pointsFor(input.amount, { yenAmount: s.exchangeYenAmount, pointAmount: s.exchangePointAmount });
  const at = await databaseNow(db);
  const firstPurchase = await noCompletedPurchase(db, userId);
  const bonus = decideBonus(await rulesInForceAt(db, at), {
    amount: input.amount,
    points,
    paymentMethod: input.paymentMethod,
    at,
    firstPurchase,
  });
  return {
    amount: input.amount,
    paymentMethod: input.paymentMethod,
    points,
    bonusPoints: bonus.points,
    totalPoints: points + bonus.points,
    items: bonus.items.map(({ kind, label, points: p, endsAt }) => ({ kind, label, points: p, endsAt })),
    firstPurchase,
    bonusValidityDays: FREE_POINT_VALIDITY_DAYS,
  };
}

/** A rule as members and the legal pages read it: no ids of people, nothing internal. */
export interface PublicBonusRule {
  kind: BonusRule["kind"];
  name: string;
  paymentMethod: PaymentMethod | null;
  minAmount: number;
  ratePercent: number | null;
  fixedPoints: number | null;
  startsAt: Date;
  endsAt: Date | null;
}

const publicRule = (r: BonusRule): PublicBonusRule => ({
  kind: r.kind,
  name: r.name,
  paymentMethod: r.paymentMethod,
  minAmount: r.minAmount,
  ratePercent: r.ratePercent,
  fixedPoints: r.fixedPoints,
  startsAt: r.startsAt,
  endsAt: r.endsAt,
});

/**
 * The bonus rules members are told about (the legal pages, `legal.info`): those in force now and the
 * campaigns announced for later, from the same rows the credit reads.
 */
export async function publicBonusRules(db: Db) {
  const now = await databaseNow(db);
  const rows = await db
    .select()
    .from(purchaseBonusRules)
    .where(or(isNull(purchaseBonusRules.endsAt), gt(purchaseBonusRules.endsAt, now)))
    .orderBy(asc(purchaseBonusRules.startsAt), asc(purchaseBonusRules.minAmount), asc(purchaseBonusRules.id));
  const rules = rows.map(toBonusRule);
  const inForce = rules.filter((r) => r.startsAt.getTime() <= now.getTime());
  const first = inForce.find((r) => r.kind === "first_purchase");
  return {
    firstPurchase: first ? publicRule(first) : null,
    tiers: inForce.filter((r) => r.kind === "tier").map(publicRule),
    campaigns: rules.filter((r) => r.kind === "campaign").map(publicRule),
    validityDays: FREE_POINT_VALIDITY_DAYS,
  };
}
