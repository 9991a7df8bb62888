import { LEDGER_ACCOUNTS, LEDGER_KINDS } from "@enmusubi/shared/constants";
import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgEnum, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt, id, updatedAt } from "./columns";
import { users } from "./users";

export const pointCosts = pgTable(
  "point_costs",
  {
    actionName: text("action_name").primaryKey(),
    displayName: text("display_name").notNull(),
    pointCost: integer("point_cost").notNull(),
    /** Ceiling from the legal fee table ("never higher"); null for actions outside that table. */
    maxCost: integer("max_cost"),
    description: text("description").notNull().default(""),
    sortOrder: integer("sort_order").notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("point_costs_nonnegative", sql`${t.pointCost} >= 0`),
    check("point_costs_capped", sql`${t.maxCost} is null or ${t.pointCost} <= ${t.maxCost}`),
  ],
);

export const ledgerAccountEnum = pgEnum("ledger_account", LEDGER_ACCOUNTS);
export const ledgerKindEnum = pgEnum("ledger_kind", LEDGER_KINDS);

/**
 * Every change of a balance is a row here, written in the same transaction as the balance update:
 * for each user and account, the sum of `delta` equals the balance.
 */
export const pointLedger = pgTable(
  "point_ledger",
  {
    id: id(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    account: ledgerAccountEnum("account").notNull().default("points"),
    kind: ledgerKindEnum("kind").notNull(),
    delta: integer("delta").notNull(),
    balanceAfter: integer("balance_after").notNull(),
    actionName: text("action_name"),
    quantity: integer("quantity"),
    /** What the change is for: a message id, a transaction id, a post id… */
    reference: text("reference"),
    /** Who caused it when it is not the member (an administrator). */
    actorId: uuid("actor_id").references(() => users.id),
    note: text("note"),
    createdAt: createdAt(),
  },
  (t) => [
    index("point_ledger_user_created_idx").on(t.userId, t.createdAt),
    // The operator's dashboard: points spent in a month, read as a range of this index (decision 0036).
    index("point_ledger_spent_created_idx")
      .on(t.createdAt)
      .where(sql`${t.account} = 'points' and ${t.kind} in ('charge', 'prepaid_charge')`),
  ],
);

/**
 * Units of an action paid in advance through the legacy `POST /api/users/deduct-points`; the next
 * matching action consumes them instead of charging again (ARCHITECTURE "Points are a ledger").
 */
export const prepaidActions = pgTable(
  "prepaid_actions",
  {
    id: id(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    actionName: text("action_name").notNull(),
    remaining: integer("remaining").notNull(),
    unitCost: integer("unit_cost").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** The ledger row that charged these units: a refund gives the points back to the lots it took them from. */
    chargeLedgerId: uuid("charge_ledger_id").references(() => pointLedger.id),
    createdAt: createdAt(),
  },
  (t) => [
    check("prepaid_remaining_nonnegative", sql`${t.remaining} >= 0`),
    index("prepaid_user_action_idx").on(t.userId, t.actionName, t.expiresAt),
  ],
);

/**
 * A credit to the `points` account (purchase, opening balance, administrator's grant, refund) with
 * its expiry. Spending takes the earliest-expiring lots first; for each member the sum of
 * `remaining` equals the balance and the ledger sum (docs/decisions/0008-point-lots.md).
 * `paid` lots were bought with money: the 資金決済法 unused-balance report reads them.
 */
export const pointLots = pgTable(
  "point_lots",
  {
    id: id(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    /** The kind of the ledger row that created the lot. */
    source: ledgerKindEnum("source").notNull(),
    /** That ledger row (null for the opening lots the migration made from existing balances). */
    ledgerId: uuid("ledger_id").references(() => pointLedger.id),
    paid: boolean("paid").notNull().default(false),
    amount: integer("amount").notNull(),
    remaining: integer("remaining").notNull(),
    /** Yen paid for the whole lot (0 when free): the report values outstanding points at this price. */
    yenAmount: integer("yen_amount").notNull().default(0),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /**
     * When the notice mail "points expire in 7 days" was sent for this lot (decision 0034): the job
     * claims a lot by setting it, in the transaction that queues the mail, so a lot is told once.
     */
    expiryNoticeAt: timestamp("expiry_notice_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check("point_lots_amount_positive", sql`${t.amount} > 0`),
    check("point_lots_remaining_range", sql`${t.remaining} >= 0 and ${t.remaining} <= ${t.amount}`),
    check("point_lots_yen_nonnegative", sql`${t.yenAmount} >= 0`),
    index("point_lots_user_expiry_idx").on(t.userId, t.expiresAt).where(sql`${t.remaining} > 0`),
    index("point_lots_expiry_idx").on(t.expiresAt).where(sql`${t.remaining} > 0`),
    index("point_lots_notice_due_idx").on(t.expiresAt).where(sql`${t.remaining} > 0 and ${t.expiryNoticeAt} is null`),
  ],
);

/**
 * What each ledger row took from (or gave back to) each lot, with when: the unused-balance report
 * rebuilds a lot's remainder at any past base date from these rows. `amount` > 0 takes, < 0 restores.
 */
export const pointLotUsages = pgTable(
  "point_lot_usages",
  {
    id: id(),
    lotId: uuid("lot_id")
      .notNull()
      .references(() => pointLots.id),
    ledgerId: uuid("ledger_id")
      .notNull()
      .references(() => pointLedger.id),
    amount: integer("amount").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("point_lot_usages_lot_idx").on(t.lotId, t.createdAt),
    index("point_lot_usages_ledger_idx").on(t.ledgerId),
  ],
);
