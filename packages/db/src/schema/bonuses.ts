import { BONUS_FIXED_POINTS_MAX, BONUS_RATE_MAX_PERCENT, type BonusKind } from "@enmusubi/shared/constants";
import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, id } from "./columns";
import { paymentMethodEnum, purchaseTransactions } from "./payments";
import { pointLedger } from "./points";
import { users } from "./users";

/**
 * Purchase bonus rules (decision 0047): the first-purchase bonus, the amount tiers and the
 * campaigns, each in force from `starts_at` until before `ends_at`. A rule is never changed once in
 * force: saving new tiers ends the open ones now and adds new rows, so an order is always decided
 * by the rules of the moment it was placed.
 */
export const purchaseBonusRules = pgTable(
  "purchase_bonus_rules",
  {
    id: id(),
    kind: text("kind").$type<BonusKind>().notNull(),
    /** A campaign's name, shown to members; empty for the other kinds. */
    name: text("name").notNull().default(""),
    /** A campaign limited to one payment method; null: every method. */
    paymentMethod: paymentMethodEnum("payment_method"),
    /** An amount tier's threshold (yen); 0 for the other kinds. */
    minAmount: integer("min_amount").notNull().default(0),
    ratePercent: integer("rate_percent"),
    fixedPoints: integer("fixed_points"),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    endsAt: timestamp("ends_at", { withTimezone: true }),
    createdById: uuid("created_by_id").references(() => users.id),
    /** Who ended it early (a campaign ended now, or tiers replaced). */
    endedById: uuid("ended_by_id").references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    check("purchase_bonus_rules_kind", sql`${t.kind} in ('first_purchase', 'tier', 'campaign')`),
    check("purchase_bonus_rules_one_worth", sql`(${t.ratePercent} is null) <> (${t.fixedPoints} is null)`),
    check(
      "purchase_bonus_rules_rate",
      sql`${t.ratePercent} is null or ${t.ratePercent} between 1 and ${sql.raw(String(BONUS_RATE_MAX_PERCENT))}`,
    ),
    check(
      "purchase_bonus_rules_fixed",
      sql`${t.fixedPoints} is null or ${t.fixedPoints} between 1 and ${sql.raw(String(BONUS_FIXED_POINTS_MAX))}`,
    ),
    check("purchase_bonus_rules_period", sql`${t.endsAt} is null or ${t.endsAt} > ${t.startsAt}`),
    check("purchase_bonus_rules_campaign_ends", sql`${t.kind} <> 'campaign' or ${t.endsAt} is not null`),
    check("purchase_bonus_rules_method", sql`${t.kind} = 'campaign' or ${t.paymentMethod} is null`),
    check(
      "purchase_bonus_rules_min_amount",
      sql`${t.minAmount} >= 0 and (${t.kind} = 'tier' or ${t.minAmount} = 0) and (${t.kind} <> 'tier' or ${t.minAmount} > 0)`,
    ),
    index("purchase_bonus_rules_kind_start_idx").on(t.kind, t.startsAt),
  ],
);

/**
 * Each bonus booked with a purchase: the order, the rule that gave it, its points and the ledger
 * row (kind `purchase_bonus`) whose free lot holds them. A member gets one first-purchase bonus
 * ever: the partial unique index holds it even if two confirmations raced past every other check.
 */
export const purchaseBonusGrants = pgTable(
  "purchase_bonus_grants",
  {
    id: id(),
    purchaseTransactionId: uuid("purchase_transaction_id")
      .notNull()
      .references(() => purchaseTransactions.id),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    ruleId: uuid("rule_id")
      .notNull()
      .references(() => purchaseBonusRules.id),
    kind: text("kind").$type<BonusKind>().notNull(),
    label: text("label").notNull(),
    points: integer("points").notNull(),
    ledgerId: uuid("ledger_id")
      .notNull()
      .references(() => pointLedger.id),
    createdAt: createdAt(),
  },
  (t) => [
    check("purchase_bonus_grants_kind", sql`${t.kind} in ('first_purchase', 'tier', 'campaign')`),
    check("purchase_bonus_grants_points", sql`${t.points} > 0`),
    uniqueIndex("purchase_bonus_grants_order_kind_idx").on(t.purchaseTransactionId, t.kind),
    uniqueIndex("purchase_bonus_grants_first_once_idx").on(t.userId).where(sql`${t.kind} = 'first_purchase'`),
    index("purchase_bonus_grants_rule_idx").on(t.ruleId),
  ],
);
